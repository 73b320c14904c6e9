"""What the server's settings (``gunicorn.conf.py``) take from the app's package.

:func:`after_a_sleep`: the master process's check of its workers, which does not take a
sleep of the whole machine for a stuck worker.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

STOOD_STILL = 5.0
"""Seconds between two rounds of the master's loop (it goes round every second) after which
the master knows that it stood still itself: the machine slept, or the server was stopped."""


def after_a_sleep(murder_workers: Callable[[], None],
                  timeout: Callable[[], float]) -> Callable[[], None]:
    """The master's check of its workers (gunicorn's ``Arbiter.murder_workers``), which
    gives them a whole ``timeout()`` from the moment the master finds that it stood still
    itself.

    A worker tells the master it is alive every second (gevent's worker from a greenlet of
    its own, so only a worker whose loop is stuck fails to); the master stops a worker that
    has not for ``timeout`` seconds (30). A laptop that slept 70 s (or a server stopped
    with SIGSTOP and continued) wakes master and worker at once, and when the master, whose
    clock counted the sleep, ran its check first, it found the worker silent for 70 s and
    stopped it (``WORKER TIMEOUT``): the screens' event streams and what the worker kept in
    memory were lost. Now the master checks nothing until the worker has had ``timeout()``
    seconds awake; a worker that stays stuck is still stopped then.
    """
    last = time.monotonic()
    woke = -math.inf

    def check() -> None:
        nonlocal last, woke
        now = time.monotonic()
        if now - last > STOOD_STILL:
            woke = now
        last = now
        if now - woke >= timeout():
            murder_workers()

    return check


__all__ = ["STOOD_STILL", "after_a_sleep"]
