"""`with device:` for every device: leaving the block closes it, whatever happened."""

from __future__ import annotations

from types import TracebackType
from typing import Protocol, Self


class Closing(Protocol):
    """Something held open (a camera, the pins, a recording) that `close()` releases; a
    class that names it as a base is also its own context manager."""

    def close(self) -> None:
        """Release what it holds; using it afterwards is a bug."""
        ...

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
