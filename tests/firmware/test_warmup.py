"""The install compiles vision's kernels and learns the decks' identifiers once (python -m
firmware.warmup, as scripts/pi/install runs it): the service's first frame then loads
every kernel from the cache and the identifier from the data folder, and compiles and
learns nothing. Both run in fresh processes on an empty NUMBA_CACHE_DIR and data folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FIRST_FRAME = """
import json, sys
import numba.core.dispatcher
import vision
from firmware.enrollment import build_reader, learn_faces
from firmware.session import session_mat
from hardware.camera import ReplayCamera, read_session_metadata
from referee.games import get_game
session, data = sys.argv[1:]
from pathlib import Path
reader = build_reader(get_game("deserto").deck,
                      session_mat(read_session_metadata(Path(session)), Path(session)),
                      data=Path(data))
with ReplayCamera(Path(session)) as camera:
    while (frame := camera.read()) is not None and frame.index < 80:
        reader.read(frame.image)
hits, missed = 0, []
for name, module in list(sys.modules.items()):
    if not name.startswith("vision."):
        continue
    for value in vars(module).values():
        if isinstance(value, numba.core.dispatcher.Dispatcher):
            hits += sum(value.stats.cache_hits.values())
            missed += [f"{name}.{value.__name__}"] * sum(value.stats.cache_misses.values())
print(json.dumps({"hits": hits, "compiled": missed, "learnt": learn_faces.cache_info().misses}))
"""


def test_after_the_install_warm_up_the_first_frames_compile_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    data = tmp_path / "data"
    warm = subprocess.run([sys.executable, "-m", "firmware.warmup", "--data", str(data),
                           "deserto"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900)
    assert warm.returncode == 0, warm.stderr
    assert "vision kernels compiled and cached, identifiers saved in" in warm.stdout
    assert (data / "identifiers/deserto.npz").is_file()
    session = ROOT / "tests/fixtures/deserto/four-players-dim"
    first = subprocess.run([sys.executable, "-c", FIRST_FRAME, str(session), str(data)],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert first.returncode == 0, first.stderr
    loaded = json.loads(first.stdout.splitlines()[-1])
    assert loaded["hits"] > 0 and loaded["compiled"] == [] and loaded["learnt"] == 0, loaded
    assert "learning" not in first.stderr
