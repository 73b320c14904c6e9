"""Sixes' test helper: a table of Sixes played through the pages, and its tables in each of
its phases for the sweeps (``tests.web.phases`` finds this module by its name, beside the
game's rules module)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from flask.testing import FlaskClient

from tests.web.phases import nothing, phases

PLAYERS = ("Ann", "Bo", "Cy")


@dataclass
class Sixes:
    """A started table of Sixes: its code, and each player's phone, seated in order."""

    actions: object
    code: str
    phones: dict[str, FlaskClient] = field(default_factory=dict)

    def seat(self, name: str) -> int:
        """The seat of ``name`` (from 1)."""
        return PLAYERS.index(name) + 1

    def count(self, name: str, sixes: int) -> None:
        """``name`` counts their sixes on their phone, as drawn for the moment it shows."""
        phone = self.phones[name]
        page = phone.get(f"/t/{self.code}/seat").get_data(as_text=True)
        moment = re.search(r'name="moment" value="(\d+)"', page).group(1)
        url = f"/t/{self.code}/games/1/sixes/seats/{self.seat(name)}/sixes"
        form = {"round": "1", "moment": moment, "sixes": str(sixes), "from": "seat"}
        answer = self.actions.post(url, form, client=phone)
        assert answer.status_code == 303, answer.get_data(as_text=True)

    def confirm(self) -> None:
        """The scorekeeper confirms round 1."""
        answer = self.actions.post(f"/t/{self.code}/games/1/confirm", {"round": "1"})
        assert answer.status_code == 303, answer.get_data(as_text=True)


def start(actions, **options) -> Sixes:
    """A table of Sixes for Ann, Bo and Cy, each seated on a phone, started with
    ``options`` (a target of 5 for a 50p stake by default)."""
    code = actions.create_table(game="sixes", players=list(PLAYERS))
    phones = actions.seat_everyone(code)
    answer = actions.post(f"/t/{code}/start", {"target": "5", "stake": "0.50"} | options)
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return Sixes(actions, code, dict(zip(PLAYERS, phones, strict=True)))


def _counted(game: Sixes) -> None:
    for name, sixes in zip(PLAYERS, (2, 0, 1), strict=True):
        game.count(name, sixes)


PHASES = phases("sixes", start, PLAYERS, {
    "dealing": (nothing, "Ann"),
    "counting": (lambda game: game.count("Ann", 2), "Bo"),
    "round 1 scored": (lambda game: (_counted(game), game.confirm()), "Cy"),
})
"""Sixes' tables in each of its phases."""
