"""Rate limits per address (Flask-Limiter): wrong codes, new tables, imports, heavy pages.

The address is the client's own (``get_remote_address``: the connection's, or with
``COMPANION_PROXY_FIX`` the one the proxy in front says, so that a forged
``X-Forwarded-For`` from the client counts for nothing). Each limit is a setting
(``companion.config``), and each refusal is a 429 that says the limit. Every limit, its
number and why: the README's "Limits".
"""

from __future__ import annotations

from flask import current_app, request
from flask_babel import force_locale, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from limits import parse_many

from ..extensions import limiter
from ..live import request_state, state_if_any
from .device import locale_name
from .words import and_list


@limiter.request_filter
def _pushing() -> bool:
    """An event stream's answer is no request of the device's: the stream's own request
    was counted. No limit counts it, and the limits cost it nothing (at 200 tables on
    PostgreSQL, they were an eighth of a pushed answer's time in the server)."""
    state = state_if_any()
    return state is not None and state.pushed


PER_UNIT = {
    "second": _l("%(amount)s a second"),
    "minute": _l("%(amount)s a minute"),
    "hour": _l("%(amount)s an hour"),
    "day": _l("%(amount)s a day"),
    "month": _l("%(amount)s a month"),
    "year": _l("%(amount)s a year"),
}
"""A limit of so many in one unit of time, as a player reads it."""


def _every(amount: int, count: int, unit: str) -> str:
    """So many every ``count`` units of time (``count`` > 1): "1 every 2 days"."""
    said = {
        "second": ngettext("%(amount)s every %(num)s second", "%(amount)s every %(num)s seconds",
                           count, amount=amount),
        "minute": ngettext("%(amount)s every %(num)s minute", "%(amount)s every %(num)s minutes",
                           count, amount=amount),
        "hour": ngettext("%(amount)s every %(num)s hour", "%(amount)s every %(num)s hours",
                         count, amount=amount),
        "day": ngettext("%(amount)s every %(num)s day", "%(amount)s every %(num)s days",
                        count, amount=amount),
        "month": ngettext("%(amount)s every %(num)s month", "%(amount)s every %(num)s months",
                          count, amount=amount),
        "year": ngettext("%(amount)s every %(num)s year", "%(amount)s every %(num)s years",
                         count, amount=amount),
    }
    return said[unit]


def in_words(limits: str) -> str:
    """A limit as a player reads it, in the device's language.

    >>> in_words("10/minute;60/hour"), in_words("1 per 2 days")
    ('10 a minute and 60 an hour', '1 every 2 days')
    """
    said = []
    for item in parse_many(limits):
        unit = item.GRANULARITY.name
        said.append(_every(item.amount, item.multiples, unit) if item.multiples > 1
                    else str(PER_UNIT[unit]) % {"amount": item.amount})
    return " and ".join(said) if locale_name() == "en" else and_list(said)


def _failed(response) -> bool:
    """Only a wrong code (a 404) counts towards the limit; players who type well never meet it."""
    return response.status_code == 404


wrong_codes = limiter.shared_limit(
    lambda: current_app.config["WRONG_CODE_LIMIT"], scope="wrong-codes", deduct_when=_failed,
    error_message=lambda: _("Too many tries from this device. Wait a minute, then check the "
                            "code on the scorekeeper's screen."))
"""The per-device limit on wrong codes, shared by every page that looks a table up."""

def _for_the_api() -> bool:
    """True for the JSON API (``/api/...``), which speaks English to developers."""
    return request.path.startswith("/api/")


def _too_many_imports() -> str:
    """The refusal of one import too many: the API's in English, the import page's in the
    device's language."""
    limit = current_app.config["API_LIMIT"]
    if _for_the_api():
        with force_locale("en"):
            return (f"Too many imports from this client: at most {in_words(limit)}. Wait, "
                    "then send the next one.")
    return _("Too many imports from this network: at most %(limit)s. Wait a minute, then "
             "import the next one.", limit=in_words(limit))


def _too_many_refused() -> str:
    """The refusal of an import after too many refused ones, as :func:`_too_many_imports`."""
    limit = current_app.config["REFUSED_IMPORT_LIMIT"]
    if _for_the_api():
        with force_locale("en"):
            return (f"Too many refused imports from this client: at most {in_words(limit)}. "
                    "Wait, check the record, then send it again.")
    return _("Too many files refused from this network: at most %(limit)s. Wait a minute, "
             "check the file, then pick it again.", limit=in_words(limit))


def _taken(response) -> bool:
    """An import taken: the API's 201, or the import page's way to the new table (a 303)."""
    return response.status_code in (201, 303)


def _refused(response) -> bool:
    """An import refused by its checks (a 4xx), not by these limits themselves (a 429)."""
    return 400 <= response.status_code < 500 and response.status_code != 429


imports_taken = limiter.shared_limit(
    lambda: current_app.config["API_LIMIT"], scope="imports", deduct_when=_taken,
    error_message=_too_many_imports)
"""The per-address limit on imports taken (``POST /api/games``, ``/api/evenings`` and the
import page together): only a record made into a table counts."""

imports_refused = limiter.shared_limit(
    lambda: current_app.config["REFUSED_IMPORT_LIMIT"], scope="refused-imports",
    deduct_when=_refused, error_message=_too_many_refused)
"""The per-address limit on imports refused (a file that is no record, or one the rules
refuse): looser than :data:`imports_taken`, so that a person correcting a file is not kept
out by a mistake or two, while a flood of garbage is."""


def import_limits(view):
    """Both import limits on ``view``: a refused import costs the server a sixth of one taken
    at most (``docs/security.md``), so it counts towards a looser limit of its own."""
    return imports_taken(imports_refused(view))


new_tables = limiter.limit(
    lambda: current_app.config["NEW_TABLE_LIMIT"], methods=["POST"],
    deduct_when=lambda response: response.status_code == 303,
    error_message=lambda: _("Too many new tables from this network: at most %(limit)s. Wait a "
                            "few minutes, then make it again.",
                            limit=in_words(current_app.config["NEW_TABLE_LIMIT"])))
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
    error_message=lambda: _("Too many long pages from this network: at most %(limit)s of the "
                            "pages of games and evenings over %(rounds)s rounds. Wait a "
                            "minute, then load it again.",
                            limit=in_words(current_app.config["HEAVY_PAGE_LIMIT"]),
                            rounds=current_app.config["HEAVY_ROUNDS"]))
"""The per-address limit on heavy pages: a game's page or record, an evening's page, CSV or
record, a table's evenings, each counted when drawn from more than ``HEAVY_ROUNDS`` rounds
(:func:`drawn_from`). The first of them at a table's version replays the rounds; each
draws them all (``scripts/bench_records.py``)."""
