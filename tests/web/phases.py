"""Tables in every phase of every game, made through the pages as the game tests play them.

Each :class:`Phase` makes a fresh table of its game in that phase (the set-up
before the start, the dealing, each game's own moments, the game over, the
evening closed) and names a phone seated at it. It plays the table with each
game's own test helpers (``tests.web.test_<game>``: its ``start`` and its
``Game``/``Table``, which post as the tablet and the phones would), so a change
to how a game is played changes these tables with it.

Imported as ``tests.web.phases`` (the suite runs with ``--import-mode=importlib``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask.testing import FlaskClient

from companion.extensions import db
from companion.store import queries
from tests.web import test_clumond as clumond
from tests.web import test_trefeltromp as trefeltromp
from tests.web import test_tremp as tremp
from tests.web import test_tromplemond as tromplemond
from tests.web import test_trumplestiltskin as trumplestiltskin


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


def _phases(game: str, start: Callable, players: tuple[str, ...],
            moments: dict[str, tuple]) -> list[Phase]:
    """The set-up, each of ``moments``, the game over and the evening closed.

    A moment is ``(then, player)`` or ``(then, player, options)``: the game is started
    (with the start form's ``options``), ``then(game)`` plays on, and ``player``'s phone
    is the one the table names.
    """

    def build(then: Callable[..., None], name: str, options: dict) -> Callable[..., Place]:
        def made(actions) -> Place:
            played = start(actions, **options)
            then(played)
            return _at(played, name)

        return made

    moments = {**moments, "game over": (_over, players[0]),
               "evening closed": (_closed, players[0])}
    phases = [Phase(game, "set-up", _set_up(game, players))]
    for name, (then, player, *options) in moments.items():
        phases.append(Phase(game, name, build(then, player, options[0] if options else {})))
    return phases


def _nothing(_game) -> None:
    """Just started: the dealing."""


# --------------------------------------------------------------------------- Tromplemond


def _tie_break(game) -> None:
    game.open_vote()
    game.vote({"Rob": "Sam", "Sam": "Rob", "Nick": "Sam", "Emily": "Rob"})


def _one_hand_in(game) -> None:
    game.vote_off("Emily")
    assert game.enter("Rob", tromplemond.ROB).status_code == 303


def _every_hand_in(game) -> None:
    game.vote_off("Emily")
    for name, hand in (("Rob", tromplemond.ROB), ("Sam", tromplemond.SAM),
                       ("Nick", tromplemond.NICK)):
        assert game.enter(name, hand).status_code == 303


def _card_cut(game) -> None:
    """One round and an extra one, both with the top total shared: a card cut is due."""
    for _ in range(2):
        game.vote_off("Emily")
        for name in ("Rob", "Sam", "Nick"):
            game.quick(name, 20)
        game.confirm()


TROMPLEMOND = _phases("tromplemond", tromplemond.start, tromplemond.PLAYERS, {
    "dealing": (_nothing, "Rob"),
    "vote open": (lambda game: (game.open_vote(), game.vote({"Rob": "Sam"})), "Sam"),
    "tie-break": (_tie_break, "Nick"),
    "hands": (_one_hand_in, "Sam"),
    "scores to confirm": (_every_hand_in, "Rob"),
    "round 1 scored": (lambda game: (_every_hand_in(game), game.confirm()), "Sam"),
    # A game of one round, as the card-cut test plays it.
    "card cut": (_card_cut, "Rob", {"rounds": "1", "joining_fee": "1.00", "tromp_stake": ""}),
})


# --------------------------------------------------------------------------- Clumond


def _entry(game) -> None:
    game.offers()
    round_ = clumond.TWO_MAKE_IT
    assert game.enter("Ann", round_["tricks"]["Ann"], round_["kept"]["Ann"]).status_code == 303


CLUMOND = _phases("clumond", clumond.start, clumond.PLAYERS, {
    "dealing": (_nothing, "Ann"),
    "going for Clumond": (lambda game: game.answer("Ann", False), "Bo"),
    "trump": (lambda game: game.answer("Ann", True), "Ann"),
    "entry": (_entry, "Bo"),
    "round 1 scored": (lambda game: game.play(**clumond.TWO_MAKE_IT), "Ann"),
})


# --------------------------------------------------------------------------- Trumplestiltskin


_DESIGN = trumplestiltskin.DESIGN_HAND


def _design_bids(game) -> None:
    game.bids(*(tuple(speech) for speech in _DESIGN["bids"]))


def _gnome_turned(game) -> None:
    _design_bids(game)
    game.ok("gnome", {"card": "9H"})
    assert game.points("Ann", _DESIGN["points"]["Ann"]).status_code == 303


def _every_point_in(game) -> None:
    _design_bids(game)
    game.ok("gnome", {"card": "9H"})
    game.all_points(_DESIGN["points"])


def _thrown_in(game) -> None:
    game.bids(*((name, "pass") for name in game.order()))


TRUMPLESTILTSKIN = _phases(
    "trumplestiltskin", trumplestiltskin.start, trumplestiltskin.PLAYERS, {
        "dealing": (_nothing, "Bo"),
        "auction": (lambda game: game.bids(("Bo", 10)), "Cy"),
        "gnome": (_design_bids, "Di"),
        "points": (_gnome_turned, "Bo"),
        "tally": (_every_point_in, "Ann"),
        "thrown in": (_thrown_in, "Bo"),
        "hand 1 scored": (lambda game: (_every_point_in(game), game.confirm()), "Cy"),
    })


# --------------------------------------------------------------------------- Trefeltromp


def _draw(game) -> None:
    game.deal()
    game.checks(*game.order())


def _reveal(game) -> None:
    game.to_banen()
    assert game.lay("Ann", "Fool").status_code == 303


def _folded(game) -> None:
    game.deal()
    game.acts(("Bo", "bet", 10), ("Cy", "fold"), ("Ann", "fold"))


TREFELTROMP = _phases("trefeltromp", trefeltromp.start, trefeltromp.P3, {
    "ready to deal": (_nothing, "Ann"),
    "betting": (lambda game: (game.deal(), game.acts(("Bo", "check"))), "Cy"),
    "draw": (_draw, "Bo"),
    "reveal": (_reveal, "Bo"),
    "hand 1 won": (_folded, "Cy"),
})


# --------------------------------------------------------------------------- Tremp


def _score(game) -> None:
    game.bidding(tremp.EXAMPLE)
    assert game.tricks(8).status_code == 303


TREMP = _phases("tremp", tremp.start, tremp.PLAYERS, {
    "dealing": (_nothing, "Sam"),
    "bidding": (lambda game: game.bidding(["5H"]), "Nick"),
    "tricks": (lambda game: game.bidding(tremp.EXAMPLE), "Sam"),
    "score": (_score, "Rob"),
    "hand 1 scored": (lambda game: (_score(game), game.confirm()), "Nick"),
})


# --------------------------------------------------------------------------- imported


LARGEST = 2**53 - 1
"""The largest number an imported record may hold (``companion.web.api.EXACT``)."""

LARGE_EVENING = {
    "evening": "Large", "unit": "GBP", "paid": [["Cy", "Ann", 2**31 - 1]],
    "games": [
        {"game": "clumond", "players": ["Ann", "Bo", "Cy"], "first_dealer": "Cy",
         "options": {"rounds": 1, "chip_value": LARGEST},
         "rounds": [{"tricks": {"Ann": 3, "Bo": 4, "Cy": 6},
                     "declared": {"Ann": 3, "Bo": 8, "Cy": 1}}]},
        {"game": "tromplemond", "players": list(tromplemond.PLAYERS),
         "options": {"joining_fee": LARGEST, "tromp_stake": LARGEST},
         "rounds": [{"hands": {"Rob": {"public": ["K♥", "10♠"], "secret": ["Q♥", "J♦", "K♠"]},
                               "Sam": {"points": 26, "public_jacks": 0, "secret_jacks": 0},
                               "Nick": {"public": ["J♥", "A♦"],
                                        "secret": ["J♠", "A♠", "10♥"]}},
                     "voted_off": "Emily", "called": ["Nick"]}]}]}
"""An evening of a finished Clumond whose chip is worth the most a record holds, and a
Tromplemond being played with the largest fee and stake, and the largest payment kept."""


def _imported(record: dict, player: str) -> Callable[..., Place]:
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


IMPORTED = [Phase("tromplemond", "imported evening of the largest numbers",
                  _imported(LARGE_EVENING, "Sam"))]


PHASES: list[Phase] = [*TROMPLEMOND, *CLUMOND, *TRUMPLESTILTSKIN, *TREFELTROMP, *TREMP,
                       *IMPORTED]
"""Every phase of every game, and a table made by an import."""

__all__ = ["PHASES", "Phase", "Place"]
