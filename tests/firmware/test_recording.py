"""A recording keeps a few frames a second, more while the picture changes."""

from __future__ import annotations

import numpy as np
import pytest

from firmware.recording import FrameRate


def still(level: int = 80) -> np.ndarray:
    return np.full((90, 160, 3), level, np.uint8)


def test_a_still_table_is_kept_at_the_frame_rate() -> None:
    rate = FrameRate(fps=5, motion_fps=15)
    kept = [rate.keep(still(), i / 30) for i in range(60)]  # two seconds at 30 fps
    assert sum(kept) == 10
    assert kept[0]


def test_while_the_picture_changes_more_frames_are_kept_up_to_the_motion_rate() -> None:
    rate = FrameRate(fps=5, motion_fps=15)
    kept = [rate.keep(still(40 + 3 * i), i / 30) for i in range(60)]  # brightening
    assert sum(kept) == 30


def test_a_motion_rate_below_the_frame_rate_is_refused() -> None:
    with pytest.raises(ValueError, match="--motion-fps"):
        FrameRate(fps=5, motion_fps=2)
