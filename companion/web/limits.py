"""Rate limits: wrong codes per device, and the JSON API."""

from __future__ import annotations

from flask import current_app

from ..extensions import limiter


def _failed(response) -> bool:
    """Only a wrong code (a 404) counts towards the limit; players who type well never meet it."""
    return response.status_code == 404


wrong_codes = limiter.shared_limit(
    lambda: current_app.config["WRONG_CODE_LIMIT"], scope="wrong-codes", deduct_when=_failed)
"""The per-device limit on wrong codes, shared by every page that looks a table up."""

api_calls = limiter.limit(lambda: current_app.config["API_LIMIT"])
"""The per-client limit on the JSON API."""
