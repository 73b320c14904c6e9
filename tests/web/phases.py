"""Tables in every phase of every game, made through the pages as the game tests play them.

Each :class:`Phase` makes a fresh table of its game in that phase (the set-up
before the start, the dealing, each game's own moments, the game over, the
evening closed) and names a phone seated at it. The sweeps (``test_fuzz.py``,
``test_every_page_in_each_language.py``) find the games in the registry
(``companion.rules.GAMES``) and each game's phases in its own test helper
(:func:`helper_of`): a module named for the game, ``tests/web/games/<game>.py`` or
``<game>.py`` in the game's own folder (beside its rules module). A helper gives

- ``PHASES``: its tables in each phase (:func:`phases` makes them from the game's
  ``start`` and its moments; it plays the table with the game's own test helpers,
  which post as the tablet and the phones would, so a change to how a game is played
  changes these tables with it);
- ``IMPORTED`` (if any): tables made by importing a record (:func:`imported`), swept
  after every game's own phases.

A registered game with no helper is swept at its set-up only (:func:`phases_of`), and
the sweeps say so (:func:`without_helper`).

Imported as ``tests.web.phases`` (the suite runs with ``--import-mode=importlib``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from urllib.parse import urlsplit

from flask.testing import FlaskClient

from companion.extensions import db
from companion.rules import GAMES
from companion.rules.games import game_module, registered
from companion.store import queries
from tests.found import module_if_any


@dataclass(frozen=True)
class Place:
    """A table in a phase: its join code, and a phone seated at it (in seat ``seat``)."""

    code: str
    phone: FlaskClient
    seat: int


@dataclass(frozen=True)
class Phase:
    """One phase of one game: ``build(actions)`` makes a new table in it."""

    game: str
    name: str
    build: Callable[..., Place]

    def __str__(self) -> str:
        return f"{self.game}: {self.name}"


def _at(game, name: str) -> Place:
    """The table of ``game`` (a game test's helper), and the phone of ``name``."""
    return Place(game.code, game.phones[name], game.seat(name))


def _set_up(game: str, players: tuple[str, ...]) -> Callable[..., Place]:
    """A table of ``game`` before its start: every seat held, and a phone that lost its
    cookie asking for seat 1 back (a request waiting for the scorekeeper)."""

    def build(actions) -> Place:
        code = actions.create_table(game=game, players=list(players))
        phones = actions.seat_everyone(code)
        asked = actions.post(f"/j/{code}/ask", {"seat": "1"}, client=actions.phone())
        assert asked.status_code == 303, asked.get_data(as_text=True)
        return Place(code, phones[0], 1)

    return build


def _over(game) -> None:
    """The scorekeeper ends game 1."""
    assert game.actions.post(f"/t/{game.code}/games/1/end").status_code == 303


def _closed(game) -> None:
    """Game 1 over and its evening closed."""
    _over(game)
    assert game.actions.post(f"/t/{game.code}/evenings/1/close").status_code == 303


def phases(game: str, start: Callable, players: tuple[str, ...],
           moments: dict[str, tuple]) -> list[Phase]:
    """The set-up, each of ``moments``, the game over and the evening closed.

    ``start(actions, **options)`` makes a table of ``game`` seated as ``players`` and starts
    it (the game's own test helper, which has ``code``, ``phones``, ``seat(name)`` and
    ``actions``). A moment is ``(then, player)`` or ``(then, player, options)``: the game is
    started (with the start form's ``options``), ``then(game)`` plays on, and ``player``'s
    phone is the one the table names.
    """

    def build(then: Callable[..., None], name: str, options: dict) -> Callable[..., Place]:
        def made(actions) -> Place:
            played = start(actions, **options)
            then(played)
            return _at(played, name)

        return made

    moments = {**moments, "game over": (_over, players[0]),
               "evening closed": (_closed, players[0])}
    found = [Phase(game, "set-up", _set_up(game, players))]
    for name, (then, player, *options) in moments.items():
        found.append(Phase(game, name, build(then, player, options[0] if options else {})))
    return found


def nothing(_game) -> None:
    """Just started: the dealing."""


LARGEST = 2**53 - 1
"""The largest number an imported record may hold (``companion.web.api.EXACT``)."""


def imported(record: dict, player: str) -> Callable[..., Place]:
    """A table made by importing the evening ``record``: the scorekeeper takes it over with
    its recovery code, and a phone claims ``player``'s seat."""

    def build(actions) -> Place:
        answer = actions.app.test_client().post("/api/evenings", json=record)
        assert answer.status_code == 201, answer.get_json()
        made = answer.get_json()
        code = urlsplit(made["table_url"]).path.rsplit("/", 1)[-1]
        taken = actions.post("/recover", {"code": code, "recovery": made["recovery_code"]})
        assert taken.status_code == 303, taken.get_data(as_text=True)
        players = list(dict.fromkeys(p for game in record["games"] for p in game["players"]))
        position = players.index(player) + 1
        phone, claimed = actions.claim(code, position)
        assert claimed.status_code == 303, claimed.get_data(as_text=True)
        with actions.app.app_context():  # a claim the scorekeeper approves, where one must
            asked = db.session.scalars(queries.pending_requests(
                db.session.scalar(queries.table_by_code(code)).id)).all()
            waiting = [request.id for request in asked]
        for request_id in waiting:
            actions.post(f"/t/{code}/requests/{request_id}/approve")
        assert actions.table(code).seat_at(position).held
        return Place(code, phone, position)

    return build


# --------------------------------------------------------------------------- the registry


HELPERS = "tests.web.games"
"""The package of the games' test helpers (a game in a folder of its own keeps its helper
there)."""

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
"""The players of a table of a game that has no test helper."""


def helper_places(game: str) -> list[str]:
    """Where ``game``'s test helper may be, by the naming rule: ``tests.web.games.<game>``,
    then the module named ``<game>`` beside the game's rules module (not the rules module
    itself)."""
    rules = registered(game).rules
    beside = f"{rules.rpartition('.')[0]}.{game}"
    return [f"{HELPERS}.{game}", *([beside] if beside != rules else [])]


def helper_of(game: str) -> ModuleType | None:
    """``game``'s test helper (None: it has none, by :func:`helper_places`)."""
    for place in helper_places(game):
        found = module_if_any(place)
        if found is not None:
            return found
    return None


def without_helper(games: Iterable[str] = GAMES) -> list[str]:
    """The registered games with no test helper: the sweeps see their set-up only."""
    return [game for game in games if helper_of(game) is None]


def phases_of(game: str) -> list[Phase]:
    """``game``'s own phases (its helper's ``PHASES``), or its set-up alone for a game
    with no helper (a table of as few players as it takes: the generic pages)."""
    helper = helper_of(game)
    if helper is not None:
        return list(helper.PHASES)
    fewest = min(game_module(game).PLAYERS)
    return [Phase(game, "set-up", _set_up(game, NAMES[:fewest]))]


def imported_of(game: str) -> list[Phase]:
    """The tables ``game``'s helper makes by an import (``IMPORTED``; none by default)."""
    helper = helper_of(game)
    return list(getattr(helper, "IMPORTED", ())) if helper is not None else []


def every_phase(games: Iterable[str]) -> list[Phase]:
    """Every phase of each of ``games``, then the tables their helpers import."""
    games = list(games)
    return [*(phase for game in games for phase in phases_of(game)),
            *(phase for game in games for phase in imported_of(game))]


PHASES: list[Phase]
"""Every phase of every registered game, and the tables made by an import (made when first
asked for: :func:`__getattr__`)."""


def __getattr__(name: str) -> list[Phase]:
    """``PHASES``: every phase of every registered game, and the tables made by an import
    (made when first asked for, so that a game's helper may import this module first)."""
    if name != "PHASES":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    found = globals()["PHASES"] = every_phase(GAMES)
    return found

__all__ = ["LARGEST", "PHASES", "Phase", "Place", "every_phase", "helper_of", "imported",
           "nothing", "phases", "phases_of", "without_helper"]
