"""Rate limits per address (Flask-Limiter): wrong codes, new tables, imports, heavy pages.

The address is the client's own (``get_remote_address``: the connection's, or with
``COMPANION_PROXY_FIX`` the one the proxy in front says, so that a forged
``X-Forwarded-For`` from the client counts for nothing). Each limit is a setting
(``companion.config``), and each refusal is a 429 that says the limit. Every limit, its
number and why: the README's "Limits".
"""

from __future__ import annotations

from flask import current_app
from limits import parse_many

from ..extensions import limiter
from ..live import request_state, state_if_any


@limiter.request_filter
def _pushing() -> bool:
    """An event stream's answer is no request of the device's: the stream's own request
    was counted. No limit counts it, and the limits cost it nothing (at 200 tables on
    PostgreSQL, they were an eighth of a pushed answer's time in the server)."""
    state = state_if_any()
    return state is not None and state.pushed


def in_words(limits: str) -> str:
    """A limit as a player reads it.

    >>> in_words("10/minute;60/hour"), in_words("1 per 2 days")
    ('10 a minute and 60 an hour', '1 every 2 days')
    """
    said = []
    for item in parse_many(limits):
        unit = item.GRANULARITY.name
        said.append(f"{item.amount} every {item.multiples} {unit}s" if item.multiples > 1
                    else f"{item.amount} {'an' if unit == 'hour' else 'a'} {unit}")
    return " and ".join(said)


def _failed(response) -> bool:
    """Only a wrong code (a 404) counts towards the limit; players who type well never meet it."""
    return response.status_code == 404


wrong_codes = limiter.shared_limit(
    lambda: current_app.config["WRONG_CODE_LIMIT"], scope="wrong-codes", deduct_when=_failed,
    error_message="Too many tries from this device. Wait a minute, then check the code on "
                  "the scorekeeper's screen.")
"""The per-device limit on wrong codes, shared by every page that looks a table up."""

api_calls = limiter.shared_limit(
    lambda: current_app.config["API_LIMIT"], scope="imports",
    error_message=lambda: (f"Too many imports from this client: at most "
                           f"{in_words(current_app.config['API_LIMIT'])}. Wait, then send "
                           "the next one."))
"""The per-client limit on imports (``POST /api/games`` and ``/api/evenings`` together)."""

new_tables = limiter.limit(
    lambda: current_app.config["NEW_TABLE_LIMIT"], methods=["POST"],
    deduct_when=lambda response: response.status_code == 303,
    error_message=lambda: (f"Too many new tables from this network: at most "
                           f"{in_words(current_app.config['NEW_TABLE_LIMIT'])}. Wait a few "
                           "minutes, then make it again."))
"""The per-address limit on tables made (only a table made counts, not a form refused)."""


def drawn_from(rounds: int) -> None:
    """Say that this request's answer is drawn from ``rounds`` rounds: beyond
    ``HEAVY_ROUNDS`` it counts towards :data:`heavy_pages`."""
    state = request_state()
    state.drawn_from = max(state.drawn_from, rounds)


def _heavy(_response) -> bool:
    state = state_if_any()
    return state is not None and state.drawn_from > current_app.config["HEAVY_ROUNDS"]


heavy_pages = limiter.shared_limit(
    lambda: current_app.config["HEAVY_PAGE_LIMIT"], scope="heavy-pages", deduct_when=_heavy,
    error_message=lambda: (f"Too many long pages from this network: at most "
                           f"{in_words(current_app.config['HEAVY_PAGE_LIMIT'])} of the pages "
                           f"of games and evenings over {current_app.config['HEAVY_ROUNDS']} "
                           "rounds. Wait a minute, then load it again."))
"""The per-address limit on heavy pages: a game's page or record, an evening's page, CSV or
record, a table's evenings, each counted when drawn from more than ``HEAVY_ROUNDS`` rounds
(:func:`drawn_from`). The first of them at a table's version replays the rounds; each
draws them all (``scripts/bench_records.py``)."""
