"""Sixes at a real table (the test's sixth game): its flow, its one action, its templates
(``templates/sixes/``) and its stylesheet (``sixes.css``), all in this package; their words
are in the game's own catalogues (``../translations``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from flask import Blueprint, abort
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from companion.store import Game, Table
from companion.store import rounds as round_store
from companion.web.actions import Act, Who, game_action
from companion.web.flow import DefaultPhase, GameFlow, View
from companion.web.forms import (
    FormError,
    options_as_sent,
    options_with_defaults,
    read_money,
    whole_number,
)

bp = Blueprint("sixes", __name__, template_folder="templates")

OPTIONS = ("target", "stake")
DEFAULT_VALUES = {"target": "5", "stake": ""}


@dataclass(frozen=True, kw_only=True)
class SixesView(View):
    """The round: each player's sixes counted so far."""

    counted: Mapping[str, int] = field(default_factory=dict)

    @property
    def drawn_for(self) -> int:
        """The moment of the round: how many players have counted."""
        return len(self.counted)


class SixesFlow(GameFlow):
    """Sixes: every player counts their sixes on their phone; the tablet confirms the round."""

    name = "sixes"
    blueprint = bp
    tablet_template = phone_template = "sixes/_round.html"
    options_template = "sixes/_options.html"
    correction_template = "sixes/_correct.html"
    stylesheet = Path(__file__).with_name("sixes.css")
    default_unit = "GBP"

    def options_values(self, table: Table, form: Mapping[str, str] | None) -> dict[str, Any]:
        return {"values": options_as_sent(OPTIONS, DEFAULT_VALUES, form)}

    def read_options(self, table: Table, form: MultiDict[str, str],
                     ) -> tuple[dict[str, Any], str | None]:
        sent = options_with_defaults(OPTIONS, DEFAULT_VALUES, form)
        return {"target": whole_number(sent["target"], _("The target"), 1, 99),
                "stake": read_money(sent["stake"], table.unit, _("The stake"))}, None

    def table_moment(self, table: Table, game: Game) -> View:
        base = super().table_moment(table, game)
        counted = round_store.current_draft(game).facts.get("sixes") or {}
        return SixesView(**{f.name: getattr(base, f.name) for f in fields(base)},
                         counted=dict(counted))

    def round_to_confirm(self, view: View, draft: round_store.RoundDraft) -> dict[str, Any]:
        counted = draft.facts.get("sixes") or {}
        if set(counted) != set(view.players):
            abort(409, _("Count everyone's sixes first."))
        return {"sixes": {p: counted[p] for p in view.players}}

    def correction_values(self, view: View, facts: Mapping[str, Any]) -> dict[str, Any]:
        return {"sixes": {p: str(n) for p, n in facts["sixes"].items()}}

    def correction_values_from_form(self, view: View, form: MultiDict[str, str],
                                    ) -> dict[str, Any]:
        return {"sixes": {p: form.get(f"sixes-{i}", "") for i, p in enumerate(view.players)}}

    def read_correction(self, view: View, form: MultiDict[str, str],
                        old: Mapping[str, Any]) -> dict[str, Any]:
        return {"sixes": {p: whole_number(form.get(f"sixes-{i}"), _("%(player)s's sixes",
                                                                      player=p), 0, 4)
                          for i, p in enumerate(view.players)}}


FLOW = SixesFlow()


@bp.post("/seats/<int:position>/sixes")
@game_action(Who.PLAYER, DefaultPhase.PLAYING, refuse=_l("The game is over."),
             moment=_l("Someone counted a moment ago: look again, then tap."))
def count(act: Act, position: int):
    """A player's sixes this round: from their phone, or the tablet for them."""
    player = act.player_at(position)
    try:
        sixes = whole_number(act.form.get("sixes"), _("Your sixes"), 0, 4)
    except FormError as error:
        abort(400, f"{error}.")
    counted = dict(act.draft.facts.get("sixes") or {}) | {player: sixes}
    round_store.update_facts(act.draft, {"sixes": counted})
