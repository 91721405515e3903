"""The page's enrolment tells the table what is wrong with a frame, and refuses an answer
to an enrolment that was stopped, in the reader's language, and goes on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import get_args

import cv2
import numpy as np
import pytest

from firmware.enrol import FRAME_TROUBLE
from firmware.enrol_page import PageEnrolment
from firmware.service import TableService
from firmware.store import MatchStore
from hardware.panel import SimulatedPanel
from vision.calibration import FrameTrouble
from vision.mat import default_mat
from webui.control import ControlError

FRAME = Path(__file__).resolve().parents[1] / "fixtures/enrolment/uno-recoloured/frames/00000.jpg"


def test_every_trouble_vision_names_has_its_sentence() -> None:
    assert set(FRAME_TROUBLE) == set(get_args(FrameTrouble))
    assert len(set(FRAME_TROUBLE.values())) == len(FRAME_TROUBLE)


def test_a_frame_the_camera_cannot_use_is_said_and_the_enrolment_goes_on(
    tmp_path: Path
) -> None:
    enrolment = PageEnrolment("uno", default_mat(), tmp_path, second_pass=False)
    frame = cv2.imread(str(FRAME))
    fed = [
        (np.zeros((40, 60, 3), np.uint8),
         "imaginea camerei e prea mică pentru a vedea covorul: verificați setările camerei"),
        (frame.astype(np.float32),
         "imaginea camerei nu poate fi citită: verificați camera"),
        (np.full_like(frame, 128),
         "marcajele din colțurile covorului nu se văd toate: se vede covorul întreg?"),
    ]
    for image, romanian in fed:
        enrolment.on_frame(image)
        status = enrolment.status()
        assert status["state"] == "laying"
        assert status["message_texts"]["ro"] == romanian
        assert status["message_texts"]["en"] == status["message"]
    # a full frame that is no larger view of the frame: the camera's two streams
    enrolment.on_frame(frame, full=frame[:, : frame.shape[1] // 2].copy())
    assert enrolment.status()["message"] == FRAME_TROUBLE["two_streams"]
    enrolment.on_frame(frame)  # a good frame is looked at as before
    assert enrolment.status()["message"] not in FRAME_TROUBLE.values()


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    store = MatchStore.open(tmp_path / "tableref.sqlite")
    try:
        yield TableService(store, SimulatedPanel(2), default_mat(), buttons=1,
                           data=tmp_path / "data")
    finally:
        store.close()


def test_an_answer_after_a_stop_is_refused_in_every_language(service: TableService) -> None:
    service.start_enrolment("uno", second_pass=False)
    service.stop_enrolment()  # from another phone, while this one answers
    for ask in (lambda: service.answer_enrolment({1: "red-0"}), service.look_again_enrolment):
        with pytest.raises(ControlError) as refused:
            ask()
        assert str(refused.value) == "no enrolment under way (it was stopped): start one again"
        assert refused.value.texts["ro"] == ("nu se învață niciun pachet acum (a fost oprit): "
                                             "începeți din nou")
        assert set(refused.value.texts) == {"en", "es", "it", "pt", "ro"}
