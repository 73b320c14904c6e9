"""Clumond's own actions, under ``/t/<code>/games/<n>/clumond/``: going for Clumond, the trump,
taking an answer back, each player's tricks and kept cards (a phone for itself, the tablet for
anyone, with the kept cards or just the declared number), and the working of a declaration as
the cards are picked.

Checklist ticks, confirm, undo and corrections are every game's (``companion.web.rounds``).
"""

from __future__ import annotations

from typing import Any

from flask import abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from companion.rules import RuleError
from companion.store import rounds as round_store
from companion.web.actions import Act, Who, game_action, load_game, require_playing
from companion.web.forms import FormError
from companion.web.limits import wrong_codes
from companion.web.roles import require_keeper, require_seat_at
from companion.web.words import say, sentence

from .. import rules
from . import forms
from .flow import FLOW, Phase, RoundView, bp

PLAYING_ROUND = (Phase.OFFER, Phase.TRUMP, Phase.TRICKS)
NOT_YET = _l("Tricks and kept cards are entered once going for Clumond is settled.")


def _view(act: Act) -> RoundView:
    view = act.view_as(RoundView)
    if view.offers is None:
        abort(409, _("There is no round being played now."))
    return view


def _save_offers(act: Act, offers: rules.Offers) -> None:
    round_store.update_facts(act.draft, {"passed": list(offers.passed) or None,
                                         "declarer": offers.declarer})


# --------------------------------------------------------------------------- going for Clumond


@bp.post("/seats/<int:position>/offer")
@game_action(Who.PLAYER, Phase.OFFER, refuse=_l("Going for Clumond is over for this round."))
def offer(act: Act, position: int):
    """Yes or no to going for Clumond, in turn (a phone for itself, the tablet for anyone)."""
    player = act.player_at(position)
    answer = act.form.get("answer")
    if answer not in ("yes", "no"):
        abort(400, _("Answer yes or no."))
    try:
        offers = _view(act).offers.answer(player, answer == "yes")
    except RuleError as error:
        abort(409, f"{say(error)}.")
    _save_offers(act, offers)


@bp.post("/seats/<int:position>/trump")
@game_action(Who.PLAYER, Phase.TRUMP, refuse=_l("There is no trump to name now."))
def trump(act: Act, position: int):
    """The declarer names the trump suit, or no trumps."""
    player = act.player_at(position)
    declarer = _view(act).declarer
    if player != declarer:
        abort(409, _("%(name)s went for Clumond: %(name)s names the trump.", name=declarer))
    try:
        named = rules.read_trump(act.form.get("trump", ""))
    except RuleError as error:
        abort(400, sentence(error))
    round_store.update_facts(act.draft, {"trump": named})


@bp.post("/take-back")
@game_action(Who.KEEPER, *PLAYING_ROUND, refuse=_l("There is no round in progress."))
def take_back(act: Act):
    """Take back the last answer (or the trump): a tap on the wrong button, put right."""
    view = _view(act)
    if view.declarer is not None and view.trump is not None:
        round_store.update_facts(act.draft, {"trump": None})
        return
    try:
        _save_offers(act, view.offers.take_back())
    except RuleError as error:
        abort(409, f"{say(error)}.")


@bp.post("/seats/<int:position>/take-back")
@game_action(Who.SEAT, Phase.TRUMP,
             refuse=_l("Going for Clumond can be taken back on a phone only until the trump "
                       "is named: ask the scorekeeper."))
def take_back_mine(act: Act, position: int):
    """The declarer's phone takes back its "yes" while the trump is still to be named; after
    that only the scorekeeper can (the phone says so)."""
    view = _view(act)
    if view.declarer != act.player:
        abort(409, _("%(name)s went for Clumond: only %(name)s or the scorekeeper can take it "
                     "back.", name=view.declarer))
    _save_offers(act, view.offers.take_back())


# --------------------------------------------------------------------------- tricks and kept cards


def _enter(act: Act, player: str, tricks: int | None, kept: list[str] | None,
           declared: int | None, *, keep_declared: bool = False) -> None:
    """Put ``player``'s entry in the draft (None takes a part out), seat order kept.

    With ``keep_declared``, a number the tablet gave stays unless kept cards replace it.
    """
    def put(key: str, value: Any) -> dict[str, Any] | None:
        given = {p: v for p, v in (act.draft.facts.get(key) or {}).items() if p != player}
        if value is not None:
            given[player] = value
        return {p: given[p] for p in act.game.players if p in given} or None

    changes = {"tricks": put("tricks", tricks), "kept": put("kept", kept)}
    if not (keep_declared and kept is None):
        changes["declared"] = put("declared", declared)
    round_store.update_facts(act.draft, changes)


def _entry_page(view: RoundView, player: str, *, keeper: bool,
                values: dict[str, Any] | None = None, error: str | None = None,
                status: int = 200):
    """The page of one player's tricks and declaration (a phone's own, or the tablet's):
    filled in with what is saved, or with ``values`` as they were sent."""
    entry = next(e for e in view.entries if e.player == player)
    if values is None:
        values = forms.entry_fields(player, entry.tricks, entry.kept, entry.declared)
    taken = {code for e in view.entries if e.player != player for code in forms.codes_of(e.kept)}
    return render_template(
        "clumond/entry.html", view=view, entry=entry, player=player, keeper=keeper,
        position=view.position_of(player), fields=values, taken=taken, error=error,
        **_working_of(values["tricks"], values["kept"]), **forms.pads()), status


def _save_entry(act: Act, player: str, read: Any, *, keep_declared: bool = False):
    """Save ``player``'s entry as ``read`` reads it from the form, or show the form again."""
    try:
        tricks, kept, declared = read(act.form, player)
    except FormError as error:
        return _entry_page(_view(act), player, keeper=act.keeper, error=f"{error}.",
                           status=400, values=forms.entry_fields_from_form(act.form, player))
    _enter(act, player, tricks, kept, declared, keep_declared=keep_declared)
    return None


def _working_of(tricks: str, kept: list[str]) -> dict[str, str]:
    """What the entry page says as it is filled in: the tricks that count, the working."""
    said = {"counting": "", "working": "", "working_problem": ""}
    if tricks.isdigit() and int(tricks) <= rules.TRICKS:
        said["counting"] = say(rules.counting_phrase(int(tricks)))
    try:
        said["working"] = say(rules.working_phrase(kept))
    except RuleError as error:
        said["working_problem"] = say(error)
    return said


def _tricks_view(code: str, number: int, *, keeper: bool, position: int,
                 ) -> tuple[RoundView | None, str]:
    """The moment for an entry page, and whose page it is (None: the tricks are not now)."""
    table, game = load_game(code, number)
    if keeper:
        require_keeper(table)
        seat = table.seat_at(position)
    else:
        seat = require_seat_at(table, position)
    require_playing(table, game)
    if seat is None or seat.name not in game.players:
        abort(404, _("There is no player in seat %(position)s.", position=position))
    view = FLOW.moment(table, game, None if keeper else seat.name)
    return (view if view.phase is Phase.TRICKS else None), seat.name


@bp.get("/seats/<int:position>/entry")
@wrong_codes
def my_entry_page(code: str, number: int, position: int):
    """A phone's tricks pad and kept-card picker (filled in with what it saved)."""
    view, player = _tricks_view(code, number, keeper=False, position=position)
    if view is None:
        return redirect(url_for("seats.seat", code=code) + "#round", code=303)
    return _entry_page(view, player, keeper=False)


@bp.post("/seats/<int:position>/entry")
@game_action(Who.SEAT, Phase.TRICKS, refuse=NOT_YET)
def my_entry(act: Act, position: int):
    """A phone saves its own tricks and 3 kept cards (a number from the tablet stays if no
    cards are picked)."""
    return _save_entry(act, act.player or "", forms.read_phone_entry, keep_declared=True)


@bp.get("/players/<int:position>")
@wrong_codes
def keeper_entry_page(code: str, number: int, position: int):
    """The tablet's form for any player: tricks, and kept cards or the declared number."""
    view, player = _tricks_view(code, number, keeper=True, position=position)
    if view is None:
        return redirect(url_for("tables.keeper", code=code) + "#round", code=303)
    return _entry_page(view, player, keeper=True)


@bp.post("/players/<int:position>")
@game_action(Who.KEEPER, Phase.TRICKS, refuse=NOT_YET)
def keeper_entry(act: Act, position: int):
    """The tablet enters or corrects any player: kept cards, the declared number, or neither."""
    player = act.player_at(position)
    needed = next(e.needed for e in _view(act).entries if e.player == player)
    return _save_entry(act, player, lambda form, who: forms.read_keeper_entry(
        form, who, needed=needed))


@bp.get("/working")
@wrong_codes
def working(code: str, number: int):
    """The tricks that count and the declaration's working of the cards ticked so far.

    The entry page asks for it as cards are ticked; it reads nothing but the query.
    """
    load_game(code, number)
    return render_template("clumond/_working.html",
                           **_working_of(request.args.get("tricks", "")[:3],
                                         request.args.getlist("kept")[:8]))
