"""One live poll per screen: the page's pulse, answered with only what changed.

Each page that follows the table live (the tablet, a phone's seat page, a
game's score page, the join page) has one ``#pulse`` element that htmx polls
on every ``companion:tick`` with what the page shows now: the table's version
``v``, and a stamp of the scoreboard ``s``, of the seats ``p`` and of the game the
header names ``g``. The answer:

- ``204`` and nothing when the version is the table's (before the app even
  starts, by :mod:`companion.live.polls`);
- otherwise the regions whose stamp changed, each swapped in by its id
  (htmx out-of-band swaps): the round always (it follows every change), the
  scoreboard only when the record changed, the seats only when they did, the
  header (and the page's title) when the game it names did; and the pulse
  again, with the new version and stamps.

So a tick, a slip or a hand re-renders one region per screen, not three, and
a screen makes one request every two seconds, not one per region.
"""

from __future__ import annotations

from flask import Blueprint

from .limits import wrong_codes
from .polled import polled_table
from .regions import pulse_answer

bp = Blueprint("pulse", __name__)


def is_pulse(endpoint: str) -> bool:
    """True for a live page's pulse (the views here): the answers an event stream may make
    for its page (:mod:`companion.live.push`)."""
    return endpoint.startswith("pulse.")


@bp.get("/t/<code>/pulse")
@wrong_codes
def keeper(code: str):
    """The tablet's pulse: its round, the scoreboard and the seats, as they changed."""
    return pulse_answer("tablet", polled_table(code, "tables.keeper", keeper=True))


@bp.get("/t/<code>/seat/pulse")
@wrong_codes
def seat(code: str):
    """A phone's pulse: its seat, its round and the scoreboard, as they changed."""
    return pulse_answer("phone", polled_table(code, "seats.seat"))


@bp.get("/t/<code>/games/<int:number>/pulse")
@wrong_codes
def game(code: str, number: int):
    """A game's score page's pulse: its scoreboard, when the record changed."""
    table = polled_table(code, "games.game", number=number)
    return pulse_answer("game", table, number=number)


@bp.get("/j/<code>/pulse")
@wrong_codes
def join(code: str):
    """The join page's pulse: the free seats, when they changed."""
    table = polled_table(code, "seats.join")
    return pulse_answer("join", table)


__all__ = ["bp", "is_pulse"]
