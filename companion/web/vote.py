"""The secret vote's pages: slips on the phones, the tablet's panel, proxy voting, card cuts."""

from __future__ import annotations

from flask import Blueprint

from ..store import ballots  # noqa: F401  (the ballot models must be known to db)

bp = Blueprint("vote", __name__)
