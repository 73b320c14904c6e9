"""One way to act on a game: every scorekeeper and seat action goes through :func:`game_action`.

The sequence is always the same: find the table and its game, check who
may act, lock the round being entered, check that the tap was meant for
this round, this phase and this moment of it (the form was drawn for the
view's ``drawn_for``: a double tap, or two screens at once, acts once), then
(after the view's own change) one commit and one answer: the round region
for an htmx request, a redirect back to the page for a plain form. A view
keeps only what is its own::

    @bp.post("/timer")
    @game_action(Who.KEEPER, Phase.DEAL, refuse="The interrogation is over.",
                 moment="The timer changed a moment ago: look again.")
    def timer(act):
        ...change the facts...

A view returns ``None`` (done: the usual answer), or a response of its own:
one with a status below 400 is committed and sent; a refusal (4xx, or an
``abort`` with a message) is sent with nothing changed: for an htmx tap, the
actor's round region again with the message on top (:func:`refusal`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from functools import wraps
from typing import Any, TypeVar

from flask import Response, abort, make_response, redirect, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import HTTPException

from ..extensions import db
from ..live import locked
from ..request_state import in_place
from ..store import Game, Seat, Table, commits, queries
from ..store import rounds as round_store
from .errors import message_of
from .flow import GameFlow, View, flow_for, flows
from .limits import wrong_codes
from .regions import tap_answer
from .roles import find_table, is_keeper, phone, require_keeper, require_seat_at
from .taps import TAP_HEADER, answer_will_be
from .words import sentence

READS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that only read: a ``find=False`` action answers them without a commit."""


class Who(Enum):
    """Who may take an action."""

    KEEPER = "keeper"
    """The scorekeeper's screen."""
    SEAT = "seat"
    """A seated phone, for its own seat."""
    PLAYER = "player"
    """The scorekeeper (for any seat) or a seated phone (for its own)."""


V = TypeVar("V", bound=View)


@dataclass(frozen=True)
class Act:
    """An action under way: the table, the game, who acts, the locked round, the moment."""

    table: Table
    game: Game
    flow: GameFlow
    draft: round_store.RoundDraft
    view: View
    """The moment before the change (the tablet's, or the acting phone's)."""
    keeper: bool
    """True when the scorekeeper's screen acts."""
    seat: Seat | None
    """The acting phone's seat (None when the scorekeeper acts)."""
    form: MultiDict[str, str]
    after_commit: list[Callable[[], None]] = field(default_factory=list)
    """What to do once the change is committed (a scrub of the sealed slips' traces)."""

    @property
    def player(self) -> str | None:
        """The acting phone's player."""
        return self.seat.name if self.seat is not None else None

    def player_at(self, position: int) -> str:
        """The player of this game in seat ``position`` (a phone's own seat was checked
        before the action); 404 when nobody of this game sits there."""
        seat = self.table.seat_at(position)
        if seat is None or seat.name not in self.game.players:
            abort(404, _("There is no player in seat %(number)s.", number=position))
        return seat.name

    def view_as(self, kind: type[V]) -> V:
        """The moment as the game's own view ``kind``; 409 when it is another moment
        (no hand under way)."""
        if not isinstance(self.view, kind):
            abort(409, _("There is no hand being played now."))
        return self.view

    def fresh(self) -> View:
        """The moment again, after a change made in this action (before the commit)."""
        return self.flow.moment(self.table, self.game, self.player)


def load_game(code: str, number: int, *, to_change: bool = False) -> tuple[Table, Game]:
    """The table and its game ``number``, or a 404 a player can act on (``to_change``: for
    an action, the table's row locked first).

    Under a game's own URL (its blueprint's: ``…/games/<n>/<game>/…``) the game
    must be of that kind: another game's screen on it is a 404 too (:func:`_same_game`).
    """
    table = find_table(code, to_change=to_change)
    if commits.locked_first(table.id):  # the game and its draft, read after the lock
        game = round_store.latest_game_with_draft(table)
    else:
        game = table.latest_game  # usually the one: loaded with the table
    if game is None or game.number != number:
        game = db.session.scalar(queries.game_number(table.id, number))
    if game is None:
        abort(404, _("This table has no game %(number)s.", number=number))
    _same_game(game)
    return table, game


def require_playing(table: Table, game: Game) -> None:
    """Stop with 409 unless ``game`` is the one the table is playing."""
    if table.playing is not game:
        abort(409, _("Game %(number)s is over: its record stays as it is.", number=game.number))


def keeper_game(code: str, number: int) -> tuple[Table, Game]:
    """For a scorekeeper's page of a game being played: the table and the game (or 4xx)."""
    table, game = load_game(code, number)
    require_keeper(table)
    require_playing(table, game)
    return table, game


def _finish(made: Any, default: Callable[[], Response] | None, table: Table | None,
            *rows: object, expected: tuple[int, str | None] = (200, None),
            after_commit: list[Callable[[], None]] = ()) -> Response:
    """One commit and one answer: a refusal (4xx) changes nothing; else commit, then answer
    (what the action read of ``table`` and ``rows`` is not read again for it).

    ``expected``: the status and Location ``default()`` will answer with, said before the
    commit so that a tap's key is kept with its answer in the same write (:mod:`.taps`)."""
    response = make_response(made) if made is not None else None
    if response is not None and response.status_code >= 400:
        db.session.rollback()
        return response
    if response is not None:
        answer_will_be(response.status_code, response.headers.get("Location"))
    else:
        answer_will_be(*expected)
    if table is None:
        db.session.commit()
    else:
        commits.commit_keeping(table, *rows)
    for then in after_commit:
        then()
    return response if response is not None else default()


def table_action(view: Callable[..., Any] | None = None, *, who: Who | None = Who.KEEPER,
                 find: bool = True) -> Any:
    """Make a view a change to a table (its seats, dealer, games, ledger), or the making of
    one: one commit and one answer, as for a game (``@table_action`` or
    ``@table_action(who=None)``).

    The table is found by the URL's code, its row locked first, and ``who`` checked:
    ``Who.KEEPER`` (the default) the scorekeeper's screen; None anyone with the table's
    code (the view checks the rest: a phone's own seat, a payment's payee). The view gets
    the table (and the URL's other values) and returns ``None`` (done: back to the
    scorekeeper's screen) or a response of its own (a page, a redirect, JSON): one with a
    status below 400 is committed and sent; a refusal changes nothing.

    ``find=False``: the URL names no table (making one, taking one over by the codes in the
    form, an import): the view gets the URL's values only, and answers itself; the
    decorated route keeps its own rate limit. A GET there (the form) only reads.
    """
    if view is None:
        return lambda view: table_action(view, who=who, find=find)
    if not find:

        @wraps(view)
        def making(**values: Any) -> Response:
            made = view(**values)
            if request.method in READS:
                return make_response(made)
            return _finish(made, None, None)

        return making

    @wraps(view)
    @wrong_codes
    def action(code: str, **values: Any) -> Response:
        table = find_table(code, to_change=True)
        if who is Who.KEEPER:
            require_keeper(table)
        page = url_for("tables.keeper", code=table.code)
        return _finish(view(table, **values), lambda: redirect(page, code=303), table,
                       expected=(303, page))

    return action


def _actor(table: Table, who: Who, position: int | None) -> tuple[bool, Seat | None]:
    keeper = is_keeper(table)
    from_seat = request.form.get("from") == "seat"
    if who is Who.KEEPER or (who is Who.PLAYER and keeper and not from_seat):
        require_keeper(table)
        return True, None
    if position is None:
        seat = phone(table).seat
        if seat is None:
            if who is Who.PLAYER and keeper:
                return True, None
            abort(403, _("This phone holds no seat at this table. Take a seat from the join "
                         "page, or ask the scorekeeper for yours back."))
        return False, seat
    return False, require_seat_at(table, position)


def _same_round(flow: GameFlow, draft: round_store.RoundDraft) -> None:
    """Refuse a tap meant for another round than the one in progress."""
    if request.form.get("round", "") != str(draft.round_index + 1):
        number = draft.round_index + 1
        if flow.round_word == "hand":
            abort(409, _("That was for another hand: the table is on hand %(number)s now. "
                         "Look again and tap once more.", number=number))
        abort(409, _("That was for another round: the table is on round %(number)s now. "
                     "Look again and tap once more.", number=number))


MOMENT_FIELD = "moment"
"""The form field that says which moment of the round the form was drawn for
(``View.drawn_for``, written by the ``round_fields`` macro)."""


SOMEONE_ELSE = _l("Someone else acted first, on another screen.")
"""The first words of a tap refused because another screen changed the moment it was
drawn for: two devices acting for one seat at once (a phone and the tablet), or another
player's turn taken meanwhile."""

ANOTHER_TAP = _l("Another tap got there first.")
"""The same, for a form sent without JavaScript (it may be this screen's own second tap)."""


def _same_moment(view: View, stale: str | Callable[[View, str], str]) -> None:
    """Refuse a tap drawn for an earlier moment of the round than the view's (409, ``stale``
    or what it makes of the view and the moment sent), or a form that does not say (400)."""
    sent = request.form.get(MOMENT_FIELD)
    if sent is None:
        abort(400, _("The form does not say which moment it was drawn for. Reload the page "
                     "and try again."))
    if sent != str(view.drawn_for):
        said = str(stale(view, sent) if callable(stale) else stale)
        behind = (sent.isascii() and sent.isdigit() and isinstance(view.drawn_for, int)
                  and int(sent) < view.drawn_for)
        if behind:
            # A tap with its key is never this screen's own second tap (that one is answered
            # from the first, .taps): another screen changed the moment since it was drawn.
            first = SOMEONE_ELSE if request.headers.get(TAP_HEADER) else ANOTHER_TAP
            said = f"{first} {sentence(said, full_stop=False)}"
        abort(409, said)


def answer(table: Table, *, keeper: bool) -> Response:
    """The answer to a done action: the round region (htmx), or back to the page."""
    if in_place():
        return make_response(tap_answer(table, keeper=keeper))
    return redirect(_round_page(table, keeper), code=303)


def _round_page(table: Table, keeper: bool) -> str:
    """The round on the page of the screen that acted (a plain or boosted form goes back)."""
    page = "tables.keeper" if keeper else "seats.seat"
    return url_for(page, code=table.code) + "#round"


def _answer_to_come(table: Table, *, keeper: bool) -> tuple[int, str | None]:
    """The status and Location :func:`answer` will give."""
    return (200, None) if in_place() else (303, _round_page(table, keeper))


def refusal(act: Act, message: str, status: int = 409) -> Response:
    """A tap refused with ``message``, changing nothing: for htmx, the actor's round region
    again with the message on top (it stays live); for a plain form, the error page."""
    message = sentence(message)
    if not in_place():
        abort(status, message)
    db.session.rollback()
    return Response(tap_answer(act.table, keeper=act.keeper, error=message), status=status)


def _same_game(game: Game) -> None:
    """Stop with 404 when a game's own URL (its blueprint) is used on another game."""
    owners = {other.blueprint.name: name for name, other in flows().items()
              if other.blueprint is not None}
    meant = owners.get(request.blueprint or "")
    if meant is not None and meant != game.game:
        abort(404, _("Game %(number)s is %(game)s, not %(meant)s: that screen is not for it.",
                     number=game.number, game=flow_for(game.game).title,
                     meant=flows()[meant].title))


def game_action(who: Who, *phases: Enum, refuse: str | Callable[[Any], str] | None = None,
                same_round: bool = True,
                moment: str | Callable[[Any, str], str] | None = None,
                ) -> Callable[[Callable[..., Any]], Callable[..., Response]]:
    """Make a view an action on a game being played (see the module's docstring).

    ``phases``: the phases of the game's view in which the action is taken
    (none given: any). ``refuse``: the message when it is not one of them (or
    what makes it from the view). ``same_round``: the form must carry the round
    it was shown for. ``moment``: the form must carry the moment it was drawn
    for (``View.drawn_for``); the message when it is an earlier one (or what
    makes it from the view and the moment sent).

    Each refusal is a refusal where the player looks (:func:`refusal`), in this
    order: another round, another phase, another moment.
    """

    def decorate(view: Callable[..., Any]) -> Callable[..., Response]:
        @wraps(view)
        @wrong_codes
        def action(code: str, number: int, **values: Any) -> Response:
            table, game = load_game(code, number, to_change=True)
            keeper, seat = _actor(table, who, values.get("position"))
            require_playing(table, game)
            flow = flow_for(game.game)
            draft = round_store.locked_draft(game)
            locked(table)
            now = flow.moment(table, game, seat.name if seat is not None else None)
            act = Act(table=table, game=game, flow=flow, draft=draft, view=now,
                      keeper=keeper, seat=seat, form=request.form)
            try:
                if same_round:
                    _same_round(flow, draft)
                if phases and now.phase not in phases:
                    abort(409, (refuse(now) if callable(refuse) else refuse)
                          or _("That is not for now: the round has moved on. Look again and "
                               "tap once more."))
                if moment is not None:
                    _same_moment(now, moment)
                made = view(act, **values)
            except HTTPException as error:
                if not in_place() or not 400 <= (error.code or 500) < 500:
                    raise
                made = refusal(act, message_of(error), error.code or 400)
            return _finish(made, lambda: answer(table, keeper=keeper), table, game, draft,
                           expected=_answer_to_come(table, keeper=keeper),
                           after_commit=act.after_commit)

        return action

    return decorate


__all__ = ["MOMENT_FIELD", "Act", "Who", "answer", "game_action", "keeper_game", "load_game",
           "refusal", "require_playing", "table_action"]
