"""Rate limits: wrong codes per device, and the JSON API."""

from __future__ import annotations

from flask import current_app, g

from ..extensions import limiter

PUSHING = "companion.pushing"
"""``g`` key: the request is an event stream's own answer (:mod:`companion.web.push`)."""


@limiter.request_filter
def _pushing() -> bool:
    """An event stream's answer is no request of the device's: the stream's own request
    was counted. No limit counts it, and the limits cost it nothing (at 200 tables on
    PostgreSQL, they were an eighth of a pushed answer's time in the server)."""
    return g.get(PUSHING, False)


def _failed(response) -> bool:
    """Only a wrong code (a 404) counts towards the limit; players who type well never meet it."""
    return response.status_code == 404


wrong_codes = limiter.shared_limit(
    lambda: current_app.config["WRONG_CODE_LIMIT"], scope="wrong-codes", deduct_when=_failed)
"""The per-device limit on wrong codes, shared by every page that looks a table up."""

api_calls = limiter.limit(lambda: current_app.config["API_LIMIT"])
"""The per-client limit on the JSON API."""
