"""A learnt CardIdentifier as plain arrays and back, so it can be saved once and loaded
instead of learnt again (learning takes seconds and about 100 MB more memory than using it).

Whatever the identifier's fields are, each one is kept as numpy arrays, with a manifest
that says how to rebuild it: an array as it is, a tuple of strings as a string array, a
tuple of arrays as one array each, a number as a 0-d array. The manifest also carries a
version given by the caller (what the identifier was learnt from and with which code);
an identifier whose version or fields differ from this code's is refused, never rebuilt
wrong.

    >>> arrays = identifier_arrays(identifier, version="v1")  # doctest: +SKIP
    >>> identifier_from_arrays(arrays, version="v1")          # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.identify import CardIdentifier

MANIFEST = "manifest"
#: How the arrays are laid out (this module's own format).
FORMAT = 1


class StaleIdentifier(Exception):
    """Arrays that are not an identifier of this code and version: learn it again."""


def stored_fields() -> list[str]:
    """The fields an identifier is built from (those computed after it are left out)."""
    return [item.name for item in dataclasses.fields(CardIdentifier) if item.init]


def identifier_arrays(identifier: CardIdentifier, version: str) -> dict[str, NDArray[Any]]:
    """Every field of `identifier` as named arrays, and the manifest to rebuild it."""
    arrays: dict[str, NDArray[Any]] = {}
    kinds: dict[str, str | int] = {}
    for name in stored_fields():
        value = getattr(identifier, name)
        if isinstance(value, np.ndarray):
            arrays[name], kinds[name] = value, "array"
        elif isinstance(value, tuple) and all(isinstance(item, str) for item in value):
            arrays[name], kinds[name] = np.array(value, dtype=np.str_), "strings"
        elif isinstance(value, tuple) and all(isinstance(item, np.ndarray) for item in value):
            for i, item in enumerate(value):
                arrays[f"{name}.{i}"] = item
            kinds[name] = len(value)
        elif isinstance(value, bool | int | float):
            arrays[name], kinds[name] = np.array(value), type(value).__name__
        else:
            raise TypeError(f"CardIdentifier.{name}: cannot store a {type(value).__name__}")
    manifest = {"format": FORMAT, "version": version, "fields": kinds}
    arrays[MANIFEST] = np.array(json.dumps(manifest, sort_keys=True))
    return arrays


def identifier_from_arrays(arrays: Mapping[str, NDArray[Any]], version: str) -> CardIdentifier:
    """The identifier `identifier_arrays` stored; StaleIdentifier if the arrays were stored
    under another version or format, for other fields, or are incomplete."""
    try:
        manifest = json.loads(str(arrays[MANIFEST][()]))
        kinds = manifest["fields"]
        if manifest["format"] != FORMAT or manifest["version"] != version:
            raise StaleIdentifier("stored by another version")
        if sorted(kinds) != sorted(stored_fields()):
            raise StaleIdentifier("stored with other fields")
        values = {name: _field(arrays, name, kind) for name, kind in kinds.items()}
    except (KeyError, TypeError, ValueError) as error:
        raise StaleIdentifier(f"incomplete ({error})") from None
    return CardIdentifier(**values)


def _field(arrays: Mapping[str, NDArray[Any]], name: str, kind: str | int) -> Any:
    if isinstance(kind, int):
        return tuple(np.asarray(arrays[f"{name}.{i}"]) for i in range(kind))
    value = np.asarray(arrays[name])
    if kind == "array":
        return value
    if kind == "strings":
        return tuple(str(item) for item in value.tolist())
    if kind in ("bool", "int", "float"):
        return {"bool": bool, "int": int, "float": float}[kind](value[()])
    raise ValueError(f"unknown kind {kind!r} of {name}")
