"""The vision benchmark's unseen-deck run, end to end on one design and one scene."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "vision_bench.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("vision_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["vision_bench"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_enrols_an_unseen_deck_from_rendered_frames_and_reads_a_table(
        bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(designs=["uno-classic"], scenes=1, seed_base=bench.HELD_OUT_SEEDS,
                              cards=6, piles=0.0, width=1280, height=720, progress=False,
                              verbose=False, save_failures=None, full_scale=1, name_small=False)
    [(design, enrolment, tally)] = bench.run_unseen(args)
    assert enrolment.frames >= 7  # 55 faces and the back, 8 a frame (again those not cut)
    assert not enrolment.missing and len(enrolment.crops) == 56
    for measured, true in zip(enrolment.card_mm, design.card_mm, strict=True):
        assert abs(measured - true) <= 0.05 * true
    assert tally.expected > 0 and tally.accepted + tally.unknown_on_cards > 0
    bench.report_unseen([(design, enrolment, tally)], args)
    out = capsys.readouterr().out
    assert "uno-classic" in out and "56x87" in out and "named by condition" not in out
    bench.report_unseen([(design, enrolment, tally)], argparse.Namespace(**{
        **vars(args), "verbose": True}))
    light = next(key for key in tally.by_condition if key.startswith("light="))
    counts = tally.by_condition[light]
    out = capsys.readouterr().out
    assert "uno-classic named by condition: " in out
    assert f"{light} {counts['named']}/{counts['expected']}" in out


def test_a_full_frame_twice_the_size_shrinks_to_the_frame_at_the_same_place(
        bench: ModuleType) -> None:
    """--full-scale: the frame is the render shrunk, and a point of the frame maps back to
    the same spot of the render (the truth the frame's readings are scored against)."""
    full = np.zeros((1440, 2560, 3), np.uint8)
    full[200:202, 100:102] = 255  # the 2x2 block under one pixel of the frame
    args = argparse.Namespace(width=1280, height=720, full_scale=2, name_small=False)
    frame, twin = bench.shot(full, args)
    assert frame.shape == (720, 1280, 3) and twin is full
    y, x = np.argwhere(frame[..., 0] == 255)[0]
    assert (x, y) == (50, 100)
    spot = bench.frame_to_full(args) @ np.array([x, y, 1.0])
    assert spot[:2].tolist() == [100.5, 200.5]
    assert bench.shot(full, argparse.Namespace(**{**vars(args), "name_small": True}))[1] is None


def test_an_unknown_design_is_one_usage_error(bench: ModuleType,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["vision_bench.py", "--unseen-decks", "--designs", "nope"])
    with pytest.raises(SystemExit) as stop:
        bench.main()
    assert stop.value.code == 2
