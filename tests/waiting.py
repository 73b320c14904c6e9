"""How long a test may wait: the one ceiling of the suite, and waits for an event under it.

A test waits for the event it means (an element, a message, a request, a log line, a
counter), never for a time, and never asserts how long something took: a busy machine
makes everything slower, and a test that fails because the machine is busy says nothing
about the companion. :data:`HANG` is the ceiling of every wait: long enough that only a
hang reaches it. Figures about time belong in the benchmark scripts (``scripts/bench_*``,
run by hand; their history is in docs/performance.md). See tests/README.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

HANG = 60.0
"""Seconds after which a wait gives up: a hang, not a slow machine."""
HANG_MS = int(HANG * 1000)
""":data:`HANG` in milliseconds (Playwright's timeouts)."""


class Ceiling:
    """The moment a wait started plus :data:`HANG` (or ``seconds``): ``passed`` once gone."""

    def __init__(self, seconds: float = HANG) -> None:
        self._ends = time.monotonic() + seconds

    @property
    def passed(self) -> bool:
        """True once the ceiling is reached: what was waited for hangs."""
        return time.monotonic() >= self._ends

    def left(self) -> float:
        """Seconds left before the ceiling (never less than 0), for a blocking call's timeout."""
        return max(0.0, self._ends - time.monotonic())


def wait_until(condition: Callable[[], T], what: str | Callable[[], str], *,
               every: float = 0.02, seconds: float = HANG) -> T:
    """Ask ``condition()`` every ``every`` s until it is true; its value. Fails with
    ``what`` (a text, or a function giving one: the state at the failure) at the ceiling."""
    ceiling = Ceiling(seconds)
    while not (value := condition()):
        if ceiling.passed:
            raise AssertionError(f"{what() if callable(what) else what} "
                                 f"(waited {seconds:.0f} s: a hang)")
        time.sleep(every)
    return value
