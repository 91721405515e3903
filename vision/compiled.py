"""Compiling vision's inner loops with numba: nopython, cached on disk, typed as before.

The first call of a process compiles a kernel or loads it from numba's disk cache; the
kernels do no floating-point reassociation (no fast-math), so they give what the numpy or
OpenCV code they stand for gives, bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])


def compiled(function: F) -> F:
    """Compile with numba (nopython, cached on disk), keeping the function's type."""
    # (a numba Dispatcher is called like the function it compiles)
    return cast(F, numba.njit(cache=True, nogil=True)(function))
