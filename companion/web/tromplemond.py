"""Tromplemond at a real table: the options, the round on the tablet and on the phones.

The scorekeeper's tablet and each phone show the round in progress as live
partials: the deck and deal checklists, the claims and the interrogation
timer, the secret vote (the ballot's own partials), the hands, the scores,
TROMP! and the end of the game. Every number comes from ``companion.rules``
(``replay`` of the record plus the round in progress, and its pure helpers);
this module reads forms, stores facts and picks what to show.

Every form of the round carries the round it was shown for (``round``): a
tap that arrives after the round moved on is refused (409) instead of
landing on the next round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from ..extensions import db
from ..rules import RuleError, settle_up
from ..rules import tromplemond as rules
from ..rules.cards import SuitCard, parse_card
from ..rules.common import and_list
from ..store import PLAYING, Game, Table, ballots, changes, queries
from ..store import tromplemond as round_store
from . import vote as vote_web
from .charts import score_chart
from .forms import (
    UNITS,
    FormError,
    check_unit,
    money_text,
    read_money,
    whole_number,
)
from .limits import wrong_codes
from .live import live_table
from .roles import find_table, is_keeper, phone, require_keeper, require_seat_at

bp = Blueprint("tromplemond", __name__)

GAME = "tromplemond"
OFF_HOW = {"vote": ("was voted off", "were voted off"),
           "early": ("showed cards early", "showed cards early"),
           "cut": ("went off by a card cut", "went off by a card cut")}
"""How the player who went off went off, said of them and to them."""

END, CUT = "end", "cut"
"""The round pages' phases beyond the stored ones: the game is over; a card cut is due."""


DECK_ROWS: tuple[tuple[tuple[str, str], ...], ...] = tuple(
    tuple((c.ascii, str(c)) for c in rules.DECK if c.suit is suit)
    for suit in dict.fromkeys(c.suit for c in rules.DECK)
)
"""The 26 cards by suit, as (code, card) pairs (``KH``, ``K♥``): the card picker's rows."""
_BY_CODE = {code: text for row in DECK_ROWS for code, text in row}


def codes_of(cards: Any) -> list[str]:
    """The picker codes of cards as a record spells them (``K♥`` or ``kh``: ``KH``)."""
    codes = []
    for text in cards or ():
        try:
            card = parse_card(text)
        except RuleError:
            continue
        if isinstance(card, SuitCard):
            codes.append(card.ascii)
    return codes

CARD_POINTS_ROWS: tuple[tuple[str, str], ...] = (
    ("A", str(rules.CARD_POINTS[rules.Rank.ACE])),
    ("K", str(rules.CARD_POINTS[rules.Rank.KING])),
    ("Q", str(rules.CARD_POINTS[rules.Rank.QUEEN])),
    ("10", str(rules.CARD_POINTS[rules.Rank.TEN])),
    ("4 3 2", str(rules.CARD_POINTS[rules.Rank.TWO])),
    ("J", f"{rules.CARD_POINTS[rules.Rank.JACK]} to its holder, "
          f"−{rules.JACK_PENALTY} to every other survivor"),
)
"""The card points table the tablet always shows (the numbers are the rules')."""


# --------------------------------------------------------------------------- loading


def _table_game(code: str, number: int) -> tuple[Table, Game]:
    table = find_table(code)
    game = db.session.scalar(queries.game_number(table.id, number))
    if game is None or game.game != GAME:
        abort(404, f"This table has no Tromplemond game {number}.")
    return table, game


def _playing(table: Table, game: Game) -> None:
    if table.playing is not game:
        abort(409, f"Game {game.number} is over: its record stays as it is.")


def _keeper_game(code: str, number: int) -> tuple[Table, Game]:
    table, game = _table_game(code, number)
    require_keeper(table)
    _playing(table, game)
    return table, game


def _form_round(draft: round_store.RoundDraft) -> None:
    """Refuse a tap meant for another round than the one in progress."""
    shown = request.form.get("round", "")
    if shown != str(draft.round_index + 1):
        abort(409, f"That was for another round: the table is on round "
                   f"{draft.round_index + 1} now. Look again and tap once more.")


def _to_keeper(table: Table):
    return redirect(url_for("tables.keeper", code=table.code) + "#round", code=303)


def _to_seat(table: Table):
    return redirect(url_for("seats.seat", code=table.code) + "#round", code=303)


def _money(table: Table):
    unit = table.unit

    def write(amount: int) -> str:
        return money_text(amount, unit)

    return write


# --------------------------------------------------------------------------- what a screen shows


@dataclass(frozen=True)
class HandLine:
    """One player's hand in the round in progress, as the screens show it."""

    player: str
    data: Mapping[str, Any] | None
    """The hand as entered (record form), or None."""
    hand: rules.FullHand | rules.QuickHand | None
    """The hand read by the rules (None: not entered, or it has a problem of its own)."""
    off: bool
    call: rules.TrompCall | None
    called: bool
    conflicts: tuple[str, ...]
    """The messages of the conflicts that concern this player."""

    @property
    def entered(self) -> bool:
        """True once a hand is entered for this player."""
        return self.data is not None

    @property
    def public(self) -> list[str]:
        """The face-up cards entered (a full hand)."""
        return list((self.data or {}).get("public") or [])

    @property
    def secret(self) -> list[str]:
        """The face-down cards entered (a full hand)."""
        return list((self.data or {}).get("secret") or [])

    @property
    def quick(self) -> bool:
        """True for a hand entered the quick way (points and jacks)."""
        return self.data is not None and "points" in self.data


def round_view(table: Table, game: Game, *, seat_name: str | None = None) -> dict[str, Any]:
    """Everything the round's partials show, for the tablet or for ``seat_name``'s phone."""
    record = game.record()
    view: dict[str, Any] = {
        "table": table, "game": game, "players": list(game.players), "me": seat_name,
        "unit": table.unit, "card_points": CARD_POINTS_ROWS, "problem": None,
        "my_position": next((s.position for s in table.seats if s.name == seat_name), None),
    }
    try:
        now = rules.progress(record)
        options = rules.read_options(record["options"])
    except RuleError as error:
        view["problem"] = str(error)
        view["phase"] = END
        return view
    draft = round_store.current_draft(game)
    status = ballots.vote_status(game, draft.round_index)
    result = now.result
    view.update(now=now, options=options, draft=draft, status=status, result=result,
                round_label=("Extra round" if now.extra_round
                             else f"Round {now.round_number} of {options.rounds}"))

    # The phase: the end, a card cut, or the stored phase (the ballot settles the vote).
    off, how = draft.shown_early or draft.voted_off, None
    if draft.shown_early:
        how = "early"
    elif draft.voted_off:
        how = "vote"
    elif status.settled_off:
        off = status.settled_off
        how = "cut" if status.how == ballots.CUT else "vote"
    if now.finished or game.status != PLAYING:
        phase = END
    elif now.cut_due:
        phase = CUT
    elif off is not None:
        phase = round_store.HANDS
    elif status.opened or draft.phase != round_store.DEAL:
        phase = round_store.VOTE
    else:
        phase = round_store.DEAL
    view.update(phase=phase, off=off if phase == round_store.HANDS else None,
                off_how=OFF_HOW.get(how, ("", ""))[0], off_how_you=OFF_HOW.get(how, ("", ""))[1])

    money = _money(table)
    if phase not in (END, CUT):
        deal = rules.deal_steps(game.players, now.dealer, record["options"], money)
        view["deal_steps"] = [(f"deal:{i}", text, draft.ticked(f"deal:{i}"))
                              for i, text in enumerate(deal.steps)]
        view["deal_title"] = deal.title
        if now.round_index == 0:
            deck = rules.deck_prep(game.players, record["options"], money)
            view["deck_steps"] = [(f"deck:{i}", text, draft.ticked(f"deck:{i}"))
                                  for i, text in enumerate(deck.steps)]
            view["deck_title"] = deck.title
        view["timer"] = _timer(draft)

    if phase == round_store.HANDS:
        _hands(view, record, draft, off)
    if phase in (END, CUT):
        _end(view, record, result, now)
    view["rounds_list"] = _rounds_list(game, result)
    view["chart"] = score_chart(result)
    return view


def _timer(draft: round_store.RoundDraft) -> dict[str, Any]:
    left = draft.seconds_left()
    minutes, seconds = divmod(left, 60)
    return {"state": draft.timer, "seconds": left, "clock": f"{minutes}:{seconds:02d}",
            "running": draft.timer == round_store.RUNNING,
            # Red "time's up" only while the clock runs out, not once the vote has ended it.
            "up": left == 0 and draft.timer in (round_store.RUNNING, round_store.PAUSED)}


def _hands(view: dict[str, Any], record: dict[str, Any], draft: round_store.RoundDraft,
           off: str) -> None:
    """The hands, their conflicts, the TROMP! calls and the scores preview."""
    conflicts = rules.hand_conflicts(draft.hands)
    lines = []
    for player in record["players"]:
        data = draft.hands.get(player)
        hand = None
        if data is not None:
            try:
                hand = rules.read_hand(player, data)
            except RuleError:
                hand = None
        lines.append(HandLine(
            player=player, data=data, hand=hand, off=player == off,
            call=hand.call if hand is not None else None, called=player in draft.called,
            conflicts=tuple(c.message for c in conflicts if player in c.players)))
    missing = [line.player for line in lines if not line.off and not line.entered]
    view.update(hands=lines, conflicts=[c.message for c in conflicts], missing=missing,
                survivors=[p for p in record["players"] if p != off])
    preview = preview_problem = None
    if not missing and not conflicts:
        facts = round_store.round_facts(draft, off)
        try:
            preview = rules.replay(record | {"rounds": [*record["rounds"], facts]})
        except RuleError as error:
            preview_problem = str(error)
    view.update(preview=preview, preview_problem=preview_problem,
                preview_round=preview["rounds"][-1] if preview else None,
                can_confirm=preview is not None)


def _end(view: dict[str, Any], record: dict[str, Any], result: dict[str, Any],
         now: rules.Progress) -> None:
    """The end screen: standings, the fee payout, the kitty, the money and who pays whom."""
    end = result["rounds"][-1]["breakdown"].get("end") if result["rounds"] else None
    if end is None and (record.get("void") or record.get("banned")):
        # Void or abandoned before any round: the flags say so (replay has no round to tell).
        end = {"how": "void" if record.get("void") else "banned", "winners": [],
               "returned": True, "banned": record.get("banned")}
    view["end"] = end
    view["standings"] = rules.standings(result["totals"])
    view["winners"] = result["winners"]
    view["money"] = result["money"]
    # Settled only at the end: while a card cut is due the money is still in the pots.
    view["transfers"] = (settle_up(result["money"]) if result["money"] and result["finished"]
                         else [])
    view["tied"] = list(now.tied)


def _rounds_list(game: Game, result: dict[str, Any]) -> list[dict[str, Any]]:
    """The confirmed rounds for the score table: dealer, who went off, scores, totals."""
    rows = []
    for number, (facts, done) in enumerate(zip(game.rounds, result["rounds"], strict=True), 1):
        off = done["breakdown"]["off"]
        rows.append({"number": number, "dealer": done["dealer"], "off": off["player"],
                     "off_how": off["reason"], "scores": done["scores"],
                     "totals": done["totals"], "forfeit": bool(facts.get("dealer_forfeit")),
                     "extra": done["breakdown"]["extra_round"], "tromp": done["tromp"],
                     "kitty": done["breakdown"]["pot"]["kitty"]})
    return rows


def vote_context(table: Table, game: Game, view: Mapping[str, Any],
                 seat_name: str | None = None) -> dict[str, Any]:
    """The ballot's own context for its partials: at the vote, and at the reveal after it."""
    status = view.get("status")
    if view.get("phase") not in (round_store.VOTE, round_store.HANDS) or status is None \
            or not status.opened:
        return {}
    return vote_web.vote_context(table, game, view["draft"].round_index, seat_name=seat_name,
                                 status=status)


def waiting_view(table: Table, seat_name: str | None = None) -> dict[str, Any]:
    """A Tromplemond table whose first game has not started yet."""
    return {"table": table, "game": None, "me": seat_name, "phase": None, "problem": None}


def scores_context(table: Table, game: Game | None, live_url: str) -> dict[str, Any] | None:
    """The Tromplemond score table's context (None: not a Tromplemond table or game)."""
    if game is None and table.game != GAME or game is not None and game.game != GAME:
        return None
    keeper = is_keeper(table)
    if game is None:
        view = waiting_view(table)
    else:
        seat = None if keeper else phone(table).seat
        view = round_view(table, game, seat_name=seat.name if seat is not None else None)
    return {"tp": view, "keeper": keeper, "live_url": live_url}


def keeper_context(table: Table) -> dict[str, Any]:
    """What the tablet shows of the table's Tromplemond game (``{}`` for another game)."""
    game = table.current_game
    if game is None or game.game != GAME:
        return {}
    view = round_view(table, game)
    return {"tp": view, **vote_context(table, game, view)}


def phone_context(table: Table) -> dict[str, Any]:
    """What a phone shows of the table's Tromplemond game (``{}`` for another game)."""
    game = table.current_game
    if table.game != GAME and (game is None or game.game != GAME):
        return {}
    me = phone(table)
    name = me.seat.name if me.seat is not None else None
    if game is None or game.game != GAME:
        return {"tp": waiting_view(table, name)}
    view = round_view(table, game, seat_name=name)
    return {"tp": view, **vote_context(table, game, view, name)}


# --------------------------------------------------------------------------- the options


OPTION_FIELDS = ("unit", "joining_fee", "payout_winner", "payout_runner_up", "tromp_stake",
                 "rounds", "target")


def read_options_form(form: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
    """The money unit and the record's options from the start form (FormError, RuleError)."""
    unit = check_unit(form.get("unit"))
    fee = read_money(form.get("joining_fee"), unit, "The joining fee")
    stake = read_money(form.get("tromp_stake"), unit, "The TROMP! stake")
    winner = whole_number(form.get("payout_winner"), "The winner's share", 0, 100)
    runner_up = whole_number(form.get("payout_runner_up"), "The runner-up's share", 0, 100)
    options = {
        "joining_fee": fee, "payout": [winner, runner_up], "tromp_stake": stake,
        "rounds": whole_number(form.get("rounds"), "The number of rounds", 1, 99),
        "target": whole_number(form.get("target"), "The target", 1, 9999),
    }
    rules.read_options(options)
    return unit, options


def _options_form_values(table: Table, form: Mapping[str, str] | None) -> dict[str, str]:
    if form is not None:
        return {name: str(form.get(name, "")) for name in OPTION_FIELDS}
    defaults = rules.DEFAULTS
    return {"unit": table.unit, "joining_fee": "", "tromp_stake": "",
            "payout_winner": str(defaults["payout"][0]),
            "payout_runner_up": str(defaults["payout"][1]),
            "rounds": str(defaults["rounds"]), "target": str(defaults["target"])}


@bp.route("/t/<code>/tromplemond/new", methods=["GET", "POST"])
@wrong_codes
def new_game(code: str):
    """The Tromplemond options (GET) and starting the game with them (POST)."""
    from .tables import start_problems  # tables imports this module: import when used

    table = find_table(code)
    require_keeper(table)
    if table.game != GAME:
        abort(404, "This table does not play Tromplemond.")
    problems = start_problems(table)
    context = {"table": table, "units": UNITS, "problems": problems}
    if request.method == "GET":
        return render_template("tromplemond/new.html",
                               values=_options_form_values(table, None), **context)
    values = _options_form_values(table, request.form)
    if problems:
        return render_template("tromplemond/new.html", values=values,
                               error=" ".join(problems), **context), 409
    try:
        unit, options = read_options_form(request.form)
    except (FormError, RuleError) as error:
        message = str(error)
        return render_template("tromplemond/new.html", values=values,
                               error=message[:1].upper() + message[1:], **context), 400
    changes.set_unit(table, unit)
    game = changes.start_game(table, options=options)
    try:
        rules.replay(game.record())
    except RuleError as error:
        db.session.rollback()
        abort(400, f"The game cannot start: {error}.")
    round_store.start_draft(game)
    db.session.commit()
    return _to_keeper(table)


# --------------------------------------------------------------------------- live regions


@bp.get("/t/<code>/tromplemond/round")
@wrong_codes
def tablet_round(code: str):
    """The tablet's live round region (the scorekeeper's screen only)."""
    table = live_table(code, "tables.keeper", keeper=True)
    context = keeper_context(table)
    if not context:
        abort(404, "This table plays no Tromplemond game.")
    return render_template("tromplemond/_round.html", **context)


@bp.get("/t/<code>/tromplemond/phone")
@wrong_codes
def phone_round(code: str):
    """A phone's live round region: the checklist, its slip, its hand, the scores, the end."""
    table = live_table(code, "seats.seat")
    context = phone_context(table)
    if not context:
        abort(404, "This table plays no Tromplemond game.")
    return render_template("tromplemond/_phone.html", **context)


# --------------------------------------------------------------------------- the round so far


def _locked(game: Game) -> round_store.RoundDraft:
    draft = round_store.locked_draft(game)
    _form_round(draft)
    return draft


def _phase_of(table: Table, game: Game) -> dict[str, Any]:
    return round_view(table, game)


@bp.post("/t/<code>/games/<int:number>/tick")
@wrong_codes
def tick(code: str, number: int):
    """Tick (or untick) a step of the deck or deal checklist: the tablet or any seated phone."""
    table, game = _table_game(code, number)
    keeper = is_keeper(table)
    seat = phone(table).seat
    if not keeper and seat is None:
        abort(403, "Only the scorekeeper and the seated players tick the checklist.")
    _playing(table, game)
    draft = _locked(game)
    view = _phase_of(table, game)
    key = request.form.get("step", "")
    steps = [k for k, _text, _done in view.get("deal_steps", []) + view.get("deck_steps", [])]
    if key not in steps:
        abort(400, "There is no such step on this round's checklist.")
    round_store.toggle_tick(draft, key)
    db.session.commit()
    if request.form.get("from") == "seat" and seat is not None:
        return _to_seat(table)
    return _to_keeper(table) if keeper else _to_seat(table)


@bp.post("/t/<code>/games/<int:number>/timer")
@wrong_codes
def timer(code: str, number: int):
    """Start, pause or end the 5-minute interrogation (the scorekeeper)."""
    table, game = _keeper_game(code, number)
    draft = _locked(game)
    if _phase_of(table, game)["phase"] != round_store.DEAL:
        abort(409, "The interrogation is over: the round has moved on to the vote.")
    action = request.form.get("action")
    if action == "start":
        round_store.start_timer(draft)
    elif action == "pause":
        round_store.pause_timer(draft)
    elif action == "end":
        round_store.end_timer(draft)
    else:
        abort(400, "Start, pause or end the timer.")
    db.session.commit()
    return _to_keeper(table)


@bp.post("/t/<code>/games/<int:number>/vote")
@wrong_codes
def open_vote(code: str, number: int):
    """End the interrogation and open the secret vote (the scorekeeper)."""
    table, game = _keeper_game(code, number)
    draft = _locked(game)
    if _phase_of(table, game)["phase"] != round_store.DEAL:
        abort(409, "The vote of this round is already open.")
    round_store.to_vote(draft)
    ballots.open_vote(game, draft.round_index)
    db.session.commit()
    return _to_keeper(table)


@bp.post("/t/<code>/games/<int:number>/shown-early")
@wrong_codes
def shown_early(code: str, number: int):
    """Someone showed cards before the vote was settled: they go off, no vote is held."""
    table, game = _keeper_game(code, number)
    draft = _locked(game)
    view = _phase_of(table, game)
    player = request.form.get("player", "")
    if player == "" and draft.shown_early is not None:
        if draft.hands:
            abort(409, "Hands are entered already: correct who went off after the round is "
                       "confirmed, or clear the hands first.")
        round_store.set_shown_early(draft, None)
        db.session.commit()
        return _to_keeper(table)
    if player not in game.players:
        abort(400, "Pick the player who showed their cards.")
    if view["phase"] not in (round_store.DEAL, round_store.VOTE) or draft.shown_early:
        abort(409, "The vote is settled already: cards shown now are the reveal.")
    ballots.discard(game, draft.round_index)
    round_store.set_shown_early(draft, player)
    db.session.commit()
    return _to_keeper(table)


@bp.post("/t/<code>/games/<int:number>/forfeit")
@wrong_codes
def forfeit(code: str, number: int):
    """The dealer erred after public cards were dealt: their round score is 0 (or undo it)."""
    table, game = _keeper_game(code, number)
    draft = _locked(game)
    if _phase_of(table, game)["phase"] in (END, CUT):
        abort(409, "There is no round in progress.")
    round_store.toggle_forfeit(draft)
    db.session.commit()
    return _to_keeper(table)


@bp.post("/t/<code>/games/<int:number>/called")
@wrong_codes
def called(code: str, number: int):
    """Tick (or untick) a survivor who shouted their TROMP! call correctly."""
    table, game = _keeper_game(code, number)
    draft = _locked(game)
    view = _phase_of(table, game)
    if not view["options"].tromp_stake:
        abort(409, "TROMP! betting is off in this game.")
    if view["phase"] != round_store.HANDS:
        abort(409, "TROMP! calls are ticked once the hands are revealed.")
    player = request.form.get("player", "")
    line = next((h for h in view["hands"] if h.player == player), None)
    if line is None:
        abort(400, "Pick a player.")
    if line.off:
        abort(409, f"{player} went off and cannot win a TROMP! call.")
    if line.call is None and player not in draft.called:
        abort(409, f"{player}'s hand makes no TROMP! call"
                   f"{'' if line.entered else ': it is not entered yet'}.")
    round_store.toggle_called(draft, player)
    db.session.commit()
    return _to_keeper(table)


# --------------------------------------------------------------------------- hands


def _picked(form: MultiDict[str, str], row: str, size: int, what: str) -> list[str]:
    codes = form.getlist(row)
    cards = []
    for code in codes:
        if code not in _BY_CODE:
            raise FormError(f"{code[:6]!r} is not a card of the Tromplemond deck")
        cards.append(_BY_CODE[code])
    if len(cards) != size:
        raise FormError(f"Pick {size} {what} cards (you picked {len(cards)})")
    return cards


def read_picker(form: MultiDict[str, str], player: str) -> dict[str, Any]:
    """A full hand from the card picker: 2 face-up and 3 face-down cards (FormError)."""
    hand = {"public": _picked(form, "public", rules.PUBLIC_CARDS, "face-up"),
            "secret": _picked(form, "secret", rules.SECRET_CARDS, "face-down")}
    try:
        rules.read_hand(player, hand)
    except RuleError as error:
        raise FormError(str(error)) from None
    return hand


def read_quick(form: Mapping[str, str], player: str, prefix: str = "") -> dict[str, Any]:
    """A hand in the quick form: points, jacks on show, jacks in the back row (FormError)."""
    hand = {
        "points": whole_number(form.get(prefix + "points"), f"{player}'s points", 0, 48),
        "public_jacks": whole_number(form.get(prefix + "public_jacks") or "0",
                                     f"{player}'s jacks on show", 0, rules.PUBLIC_CARDS),
        "secret_jacks": whole_number(form.get(prefix + "secret_jacks") or "0",
                                     f"{player}'s jacks in the back row", 0,
                                     rules.SECRET_CARDS),
    }
    try:
        rules.read_hand(player, hand)
    except RuleError as error:
        raise FormError(str(error)) from None
    return hand


def _hand_page(table: Table, game: Game, player: str, template: str,
               picked: MultiDict[str, str] | None = None, **extra: Any):
    view = round_view(table, game, seat_name=player)
    line = next((h for h in view.get("hands", []) if h.player == player), None)
    data = dict(line.data or {}) if line is not None else {}
    if picked is not None:
        public, secret = picked.getlist("public"), picked.getlist("secret")
        quick = {k: picked.get(k, "") for k in ("points", "public_jacks", "secret_jacks")}
    else:
        public, secret = codes_of(data.get("public")), codes_of(data.get("secret"))
        quick = {k: data.get(k, "") for k in ("points", "public_jacks", "secret_jacks")}
    return render_template(template, tp=view, line=line, player=player, deck_rows=DECK_ROWS,
                           picked_public=public, picked_secret=secret, quick=quick, **extra)


def _hands_phase(table: Table, game: Game) -> dict[str, Any]:
    view = round_view(table, game)
    if view["phase"] != round_store.HANDS:
        abort(409, "Hands are entered after the vote, when everyone reveals.")
    return view


@bp.route("/t/<code>/games/<int:number>/seats/<int:position>/hand", methods=["GET", "POST"])
@wrong_codes
def my_hand(code: str, number: int, position: int):
    """A phone enters its own 5 cards from the picker (2 face up, 3 face down)."""
    table, game = _table_game(code, number)
    seat = require_seat_at(table, position)
    _playing(table, game)
    player = seat.name or ""
    if request.method == "GET":
        view = round_view(table, game, seat_name=player)
        if view["phase"] != round_store.HANDS:
            return _to_seat(table)
        return _hand_page(table, game, player, "tromplemond/hand.html")
    draft = _locked(game)
    _hands_phase(table, game)
    try:
        hand = read_picker(request.form, player)
    except FormError as error:
        return _hand_page(table, game, player, "tromplemond/hand.html", request.form,
                          error=f"{error}."), 400
    round_store.set_hand(draft, player, hand)
    db.session.commit()
    return _to_seat(table)


@bp.route("/t/<code>/games/<int:number>/hands/<int:position>", methods=["GET", "POST"])
@wrong_codes
def keeper_hand(code: str, number: int, position: int):
    """The scorekeeper enters or corrects any hand: cards, the quick form, or clears it."""
    table, game = _keeper_game(code, number)
    seat = table.seat_at(position)
    if seat is None or seat.name not in game.players:
        abort(404, f"There is no player in seat {position}.")
    player = seat.name
    template = "tromplemond/keeper_hand.html"
    if request.method == "GET":
        _hands_phase(table, game)
        return _hand_page(table, game, player, template, position=position)
    draft = _locked(game)
    _hands_phase(table, game)
    how = request.form.get("how")
    try:
        if how == "cards":
            hand = read_picker(request.form, player)
        elif how == "quick":
            hand = read_quick(request.form, player)
        elif how == "clear":
            hand = None
        else:
            raise FormError("Enter the cards, the quick form, or clear the hand")
    except FormError as error:
        return _hand_page(table, game, player, template, request.form, position=position,
                          error=f"{error}."), 400
    round_store.set_hand(draft, player, hand)
    db.session.commit()
    return _to_keeper(table)


# --------------------------------------------------------------------------- confirm, undo


@bp.post("/t/<code>/games/<int:number>/confirm")
@wrong_codes
def confirm(code: str, number: int):
    """Confirm the round: its facts join the record; the next dealer is shown."""
    table, game = _keeper_game(code, number)
    draft = _locked(game)
    view = round_view(table, game)
    if view["phase"] != round_store.HANDS:
        abort(409, "There is no round to confirm yet: the vote comes first.")
    if view["missing"]:
        abort(409, f"Waiting for {and_list(view['missing'])}'s hand.")
    if view["conflicts"]:
        abort(409, f"The hands do not add up: {view['conflicts'][0]}.")
    if not view["can_confirm"]:
        abort(409, f"The rules refuse this round: {view['preview_problem']}.")
    round_store.confirm_round(draft, round_store.round_facts(draft, view["off"]))
    db.session.commit()
    return _to_keeper(table)


@bp.post("/t/<code>/games/<int:number>/undo")
@wrong_codes
def undo(code: str, number: int):
    """Undo the last confirmed round: it goes back to being the round in progress."""
    table, game = _keeper_game(code, number)
    draft = round_store.locked_draft(game)
    if request.form.get("rounds") != str(len(game.rounds)):
        abort(409, "The rounds changed a moment ago. Look again and tap once more.")
    if not game.rounds:
        abort(409, "No round has been confirmed yet.")
    ballots.discard(game, draft.round_index)
    round_store.undo_round(draft)
    db.session.commit()
    return _to_keeper(table)


# --------------------------------------------------------------------------- past rounds


def _facts_from_form(form: MultiDict[str, str], game: Game,
                     old: Mapping[str, Any]) -> dict[str, Any]:
    """A corrected round from the correction form (FormError)."""
    hands: dict[str, Any] = {}
    for index, player in enumerate(game.players, 1):
        how = form.get(f"h{index}-how", "none")
        if how == "cards":
            public = [form.get(f"h{index}-public-{k}", "") for k in range(rules.PUBLIC_CARDS)]
            secret = [form.get(f"h{index}-secret-{k}", "") for k in range(rules.SECRET_CARDS)]
            if any(code not in _BY_CODE for code in public + secret):
                raise FormError(f"Pick all five of {player}'s cards, or use the quick form")
            hands[player] = {"public": [_BY_CODE[c] for c in public],
                             "secret": [_BY_CODE[c] for c in secret]}
        elif how == "quick":
            hands[player] = read_quick(form, player, f"h{index}-")
        elif how != "none":
            raise FormError(f"Enter {player}'s cards, the quick form, or nothing")
    off = form.get("off", "")
    if off not in game.players:
        raise FormError("Pick the player who went off")
    early = form.get("shown_early") == "on"
    facts: dict[str, Any] = {
        "hands": hands, "voted_off": None if early else off,
        "shown_early": off if early else None,
        "dealer_forfeit": form.get("dealer_forfeit") == "on",
        "called": [p for i, p in enumerate(game.players, 1) if form.get(f"called-{i}") == "on"],
    }
    if "cut_winner" in old or form.get("cut_winner"):
        cut = form.get("cut_winner") or None
        if cut is not None and cut not in game.players:
            raise FormError("Pick the winner of the card cut")
        facts["cut_winner"] = cut
    return facts


def _fields_from_facts(game: Game, facts: Mapping[str, Any]) -> dict[str, Any]:
    """The correction form's values from a round's facts."""
    hands = facts.get("hands") or {}
    fields = []
    for index, player in enumerate(game.players, 1):
        hand = hands.get(player) or {}
        how = "none" if not hand else "quick" if "points" in hand else "cards"
        public, secret = codes_of(hand.get("public")), codes_of(hand.get("secret"))
        fields.append({
            "index": index, "player": player, "how": how,
            "public": (public + ["", ""])[:2], "secret": (secret + ["", "", ""])[:3],
            "points": hand.get("points", ""), "public_jacks": hand.get("public_jacks", ""),
            "secret_jacks": hand.get("secret_jacks", ""),
            "called": player in (facts.get("called") or [])})
    shown = facts.get("shown_early")
    return {"fields": fields, "off": shown or facts.get("voted_off"),
            "shown_early": shown is not None, "dealer_forfeit": bool(facts.get("dealer_forfeit")),
            "cut": facts.get("cut_winner")}


def _fields_from_form(game: Game, form: MultiDict[str, str]) -> dict[str, Any]:
    """The correction form's values as they were sent (to show them again with a message)."""
    fields = []
    for index, player in enumerate(game.players, 1):
        fields.append({
            "index": index, "player": player, "how": form.get(f"h{index}-how", "none"),
            "public": [form.get(f"h{index}-public-{k}", "") for k in range(2)],
            "secret": [form.get(f"h{index}-secret-{k}", "") for k in range(3)],
            "points": form.get(f"h{index}-points", ""),
            "public_jacks": form.get(f"h{index}-public_jacks", ""),
            "secret_jacks": form.get(f"h{index}-secret_jacks", ""),
            "called": form.get(f"called-{index}") == "on"})
    return {"fields": fields, "off": form.get("off"),
            "shown_early": form.get("shown_early") == "on",
            "dealer_forfeit": form.get("dealer_forfeit") == "on",
            "cut": form.get("cut_winner") or None}


def _round_page(table: Table, game: Game, number: int, values: Mapping[str, Any],
                **extra: Any):
    view = round_view(table, game)
    done = view["result"]["rounds"][number - 1] if view.get("result") else None
    facts = game.rounds[number - 1]
    cut_possible = "cut_winner" in facts or (number == len(game.rounds)
                                             and view.get("phase") == CUT)
    return render_template("tromplemond/round.html", tp=view, number=number, done=done,
                           deck_rows=DECK_ROWS, cut_possible=cut_possible, **values, **extra)


@bp.route("/t/<code>/games/<int:number>/rounds/<int:round_number>", methods=["GET", "POST"])
@wrong_codes
def past_round(code: str, number: int, round_number: int):
    """Open a confirmed round and correct its facts; the rules recompute everything after."""
    table, game = _keeper_game(code, number)
    if not 1 <= round_number <= len(game.rounds):
        abort(404, f"Round {round_number} has not been played.")
    if request.method == "GET":
        return _round_page(table, game, round_number,
                           _fields_from_facts(game, game.rounds[round_number - 1]))
    round_store.locked_draft(game)
    if request.form.get("rounds") != str(len(game.rounds)):
        abort(409, "The rounds changed a moment ago. Look again and correct once more.")
    old = game.rounds[round_number - 1]
    try:
        facts = _facts_from_form(request.form, game, old)
        record = game.record()
        record["rounds"][round_number - 1] = facts
        rules.replay(record)
    except (FormError, RuleError) as error:
        message = str(error)
        return _round_page(table, game, round_number, _fields_from_form(game, request.form),
                           error=message[:1].upper() + message[1:] + "."), 400
    round_store.replace_round(game, round_number - 1, facts)
    db.session.commit()
    return _to_keeper(table)


# --------------------------------------------------------------------------- the end


@bp.post("/t/<code>/games/<int:number>/cut-winner")
@wrong_codes
def cut_winner(code: str, number: int):
    """Still tied after the extra round: record who won the card cut."""
    table, game = _keeper_game(code, number)
    round_store.locked_draft(game)
    view = round_view(table, game)
    if view["phase"] != CUT:
        abort(409, "No card cut is due: the top total is not shared after an extra round.")
    winner = request.form.get("player", "")
    if winner not in view["now"].tied:
        abort(400, f"The card cut is between {and_list(view['now'].tied)}: pick one.")
    facts = dict(game.rounds[-1]) | {"cut_winner": winner}
    round_store.replace_round(game, len(game.rounds) - 1, facts)
    rules.replay(game.record())
    db.session.commit()
    return _to_keeper(table)


@bp.post("/t/<code>/games/<int:number>/penalty")
@wrong_codes
def penalty(code: str, number: int):
    """Shown on purpose (banned: the game is abandoned) or void; or take either back."""
    table, game = _keeper_game(code, number)
    round_store.locked_draft(game)
    what = request.form.get("what")
    if what == "banned":
        player = request.form.get("player", "")
        if player not in game.players:
            abort(400, "Pick the player who showed their cards on purpose.")
        round_store.set_flag(game, "banned", player)
    elif what == "void":
        round_store.set_flag(game, "void", True)
    elif what == "clear":
        round_store.set_flag(game, "banned", None)
        round_store.set_flag(game, "void", None)
    else:
        abort(400, "Pick a penalty.")
    try:
        rules.replay(game.record())
    except RuleError as error:
        db.session.rollback()
        abort(400, f"{error}.")
    db.session.commit()
    return _to_keeper(table)




@bp.get("/t/<code>/games/<int:number>/penalties")
@wrong_codes
def penalties(code: str, number: int):
    """The penalties, each behind a confirm: shown early, dealer error, banned, void."""
    table, game = _keeper_game(code, number)
    view = round_view(table, game)
    if view["phase"] in (END, CUT):
        return _to_keeper(table)
    return render_template("tromplemond/penalties.html", tp=view)


@bp.get("/tromplemond/rules")
def rules_help():
    """The rules in short, with the house decisions marked so players can argue with them."""
    calls = [(call.display_name, call.hand, call.wins) for call in rules.TrompCall]
    return render_template("tromplemond/rules.html", card_points=CARD_POINTS_ROWS,
                           calls=calls, jack_penalty=rules.JACK_PENALTY,
                           back=request.args.get("back", ""))
