"""Rate limits: wrong codes per device, and the JSON API.

Every page, poll and tap looks its table up by code, so the wrong-code limit
is checked on every one of them. It is checked with the ``limits`` library
that Flask-Limiter keeps its counts in (``limiter.limiter``: the same storage,
``RATELIMIT_STORAGE_URI``, and the same strategy), not through Flask-Limiter's
own decorator, which works out a route's limits afresh on every request: a
tenth of a changed poll's time (0.2-0.26 ms in process) for a limit that
players who type well never meet.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any

from flask import current_app, make_response
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse_many
from werkzeug.exceptions import NotFound, TooManyRequests

from ..extensions import limiter

SCOPE = "wrong-codes"
"""What the wrong-code counts are kept under, beside each device's address."""


@lru_cache(maxsize=8)
def _parsed(text: str) -> tuple[RateLimitItem, ...]:
    return tuple(parse_many(text))


def _count_wrong_code(items: tuple[RateLimitItem, ...], device: str) -> None:
    for item in items:
        limiter.limiter.hit(item, SCOPE, device)


def wrong_codes(view: Callable[..., Any]) -> Callable[..., Any]:
    """Limit the wrong codes a device may try (``WRONG_CODE_LIMIT``), shared by every page
    that looks a table up: only a wrong code (a 404) counts, and a device past the limit is
    refused (429) everywhere, even with a right code, until its window passes."""

    @wraps(view)
    def limited(*args: Any, **kwargs: Any) -> Any:
        if not limiter.enabled:
            return view(*args, **kwargs)
        items = _parsed(current_app.config["WRONG_CODE_LIMIT"])
        device = get_remote_address()
        if not all(limiter.limiter.test(item, SCOPE, device) for item in items):
            raise TooManyRequests()
        try:
            response = make_response(view(*args, **kwargs))
        except NotFound:
            _count_wrong_code(items, device)
            raise
        if response.status_code == 404:
            _count_wrong_code(items, device)
        return response

    return limited


api_calls = limiter.limit(lambda: current_app.config["API_LIMIT"])
"""The per-client limit on the JSON API."""
