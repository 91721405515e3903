"""A learnt identifier kept as arrays: rebuilt, it answers exactly as the one learnt; stored
under another version, for other fields or incomplete, it is refused (learnt again)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np
import pytest

from vision.identifier_store import (
    MANIFEST,
    StaleIdentifier,
    identifier_arrays,
    identifier_from_arrays,
    stored_fields,
)
from vision.identify import CardIdentifier


@pytest.fixture(scope="module")
def identifier(faces: Any) -> CardIdentifier:
    return CardIdentifier.from_references(faces, np.random.default_rng(5), views=6)


def test_rebuilt_it_answers_every_patch_exactly_as_the_learnt_one(
    identifier: CardIdentifier, faces: Any,
) -> None:
    rebuilt = identifier_from_arrays(identifier_arrays(identifier, "v1"), "v1")
    rng = np.random.default_rng(11)
    patches = [*faces.values(), *(rng.integers(0, 256, (88, 64, 3), np.uint8) for _ in range(20))]
    patches += [face[::-1, ::-1] for face in faces.values()]
    assert rebuilt.identify_many(patches) == identifier.identify_many(patches)
    for name in stored_fields():
        mine, theirs = getattr(rebuilt, name), getattr(identifier, name)
        assert type(mine) is type(theirs), name
        if isinstance(theirs, np.ndarray):
            assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs), name
        elif isinstance(theirs, tuple) and theirs and isinstance(theirs[0], np.ndarray):
            assert all(np.array_equal(a, b) for a, b in zip(mine, theirs, strict=True)), name
        else:
            assert mine == theirs, name


def test_every_field_the_identifier_is_built_from_is_stored(identifier: CardIdentifier) -> None:
    arrays = identifier_arrays(identifier, "v1")
    kinds = json.loads(str(arrays[MANIFEST][()]))["fields"]
    assert sorted(kinds) == sorted(f.name for f in dataclasses.fields(CardIdentifier) if f.init)
    assert all(not value.dtype.hasobject for value in arrays.values())  # no pickles


def test_another_version_is_refused(identifier: CardIdentifier) -> None:
    with pytest.raises(StaleIdentifier, match="another version"):
        identifier_from_arrays(identifier_arrays(identifier, "old code"), "new code")


def test_other_fields_or_missing_arrays_are_refused(identifier: CardIdentifier) -> None:
    arrays = identifier_arrays(identifier, "v1")
    manifest = json.loads(str(arrays[MANIFEST][()]))
    manifest["fields"]["renamed"] = manifest["fields"].pop("threshold")
    with pytest.raises(StaleIdentifier, match="other fields"):
        identifier_from_arrays({**arrays, MANIFEST: np.array(json.dumps(manifest))}, "v1")
    incomplete = {name: value for name, value in arrays.items() if name != "codes"}
    with pytest.raises(StaleIdentifier, match="incomplete"):
        identifier_from_arrays(incomplete, "v1")
    with pytest.raises(StaleIdentifier, match="incomplete"):
        identifier_from_arrays({**arrays, MANIFEST: np.array("not json")}, "v1")
