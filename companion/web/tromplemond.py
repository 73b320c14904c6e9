"""Tromplemond at a real table: the options, the round on the tablet and on the phones.

The scorekeeper's tablet and each phone show the round in progress as live
partials: the deck and deal checklists, the claims and the interrogation
timer, the secret vote (the ballot helper's partials), the hands, the
scores, TROMP! and the end of the game. Every number comes from
``companion.rules`` (``replay`` of the record, and its pure helpers).
"""

from __future__ import annotations

from flask import Blueprint

from ..store import tromplemond as round_store  # noqa: F401  (the draft model must be known)

bp = Blueprint("tromplemond", __name__)
