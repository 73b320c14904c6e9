"""How a game plugs into the app: its **flow**.

Every game the app offers has one flow object, found from the game registry
(``companion.rules.games``) by its record name. The generic pages (the
new-table form, the tablet, the phone, the score page, the record, the rules
help) know nothing of any game: they ask the table's flow, and include the
templates it names. A flow provides:

- its rules (``rules``, the pure module in ``companion.rules``), the player
  counts it allows, and ``replay``;
- the options form (``options_template``) and how to read it
  (:meth:`GameFlow.read_options`), and what happens when a game starts
  (:meth:`GameFlow.started`);
- the moment: :meth:`GameFlow.moment` builds one frozen :class:`View`
  (its ``phase`` an enum of the game's own), from which the tablet's region
  (``tablet_template``) and the phone's (``phone_template``) are drawn;
- the live scoreboard (``scoreboard_template`` and :meth:`GameFlow.scoreboard`);
- what confirming a round appends (:meth:`GameFlow.round_to_confirm`), and
  the form that corrects a past round (``correction_template``,
  :meth:`GameFlow.read_correction`);
- its own blueprint (``blueprint``), registered under
  ``/t/<code>/games/<number>/<name>``, so two games never share a URL.

:class:`DefaultFlow` serves a game without a flow of its own yet: its
options are the rules' defaults, and its screens are the deck-prep and
dealing checklists and the scoreboard.
"""

from __future__ import annotations

import json
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence, Set
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from flask import Blueprint, abort, current_app, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from ..live import at_version
from ..rules import RuleError, game_module
from ..rules.contract import GameRules
from ..rules.records import Record
from ..store import Game, Table
from ..store import rounds as round_store
from ..store.sealed import SealedStatus
from .charts import score_chart
from .device import locale_name
from .filters import number
from .forms import MAX_SEATS, FormError, money_text
from .words import and_list, counts_said, say

FLOWS_EXTENSION = "companion.flows"

STYLESHEET_ENDPOINT = "game_stylesheet"
"""The endpoint that serves a game's own stylesheet (``/static/css/<game>.css``)."""

T = TypeVar("T")


# --------------------------------------------------------------------------- replayed results


class Results:
    """The rules' results of recent records, by their content, shared by every screen.

    A record is keyed by its JSON text: the same facts give the same key, so a
    changed round, option or flag is a new key and an unchanged record is
    replayed once however many screens poll it. A refusal (``RuleError``) is
    kept too. At most ``size`` records are kept, the least recently used going.
    """

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[Any, str], Any] = OrderedDict()
        self._lock = threading.Lock()
        self.made = 0
        """How many results were made (not found kept): one per record and rules."""

    def get(self, replay: Callable[[Mapping[str, Any]], dict[str, Any]],
            record: Mapping[str, Any]) -> dict[str, Any]:
        """``replay(record)``, made once and then shared."""
        key = (replay, json.dumps(record, ensure_ascii=False, separators=(",", ":"),
                                  default=str))
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
        if kept is None:
            try:
                kept = replay(record)
            except RuleError as error:
                kept = error
            with self._lock:
                self.made += 1
                self._kept[key] = kept
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
        if isinstance(kept, RuleError):
            raise kept
        return kept


RESULTS = Results()
"""The results of this process: one worker process serves every screen (gunicorn.conf.py)."""


# --------------------------------------------------------------------------- what a screen shows


@dataclass(frozen=True)
class Step:
    """One step of a checklist, and whether it is ticked."""

    key: str
    text: str
    done: bool


@dataclass(frozen=True)
class Checklist:
    """A checklist on the screens (deck prep, dealing), with its ticks shared by every screen."""

    name: str
    title: str
    steps: tuple[Step, ...]

    @property
    def done(self) -> bool:
        """True once every step is ticked: the checklist folds away."""
        return all(step.done for step in self.steps)

    @property
    def ticked(self) -> int:
        """How many steps are ticked."""
        return sum(step.done for step in self.steps)


def corrected_from(draft: round_store.RoundDraft) -> tuple[Any, ...] | None:
    """The confirmed rounds as they stood before the corrections since the last confirm."""
    return tuple(draft.corrected_from) if draft.corrected_from is not None else None


def checklist(name: str, title: str, steps: Sequence[str],
              draft: round_store.RoundDraft) -> Checklist:
    """A checklist whose steps are keyed ``<name>:<index>`` and ticked in the round's draft."""
    return Checklist(name, title, tuple(Step(f"{name}:{i}", text, draft.ticked(f"{name}:{i}"))
                                        for i, text in enumerate(steps)))


@dataclass(frozen=True)
class Correction:
    """What a correction of past rounds changed for one player (or team): "22 → 26"."""

    rounds: tuple[int, ...]
    """The rounds corrected, as players count them."""
    before: Any
    after: Any


@dataclass(frozen=True, kw_only=True)
class View:
    """The moment of one game, for the tablet (``me`` None) or for one player's phone.

    Each flow subclasses it with what its screens show; ``phase`` is a
    member of the game's own phase enum. Every number in it comes from the
    rules; the templates only lay it out.
    """

    table: Table
    game: Game
    me: str | None
    phase: Enum
    result: dict[str, Any] | None
    """``replay`` of the record (None when the rules refuse it: see ``problem``)."""
    problem: RuleError | None = None
    """Why the rules refuse the record (or the round in progress): a fact, said in each
    screen's language where it is shown (``|say``)."""
    round_index: int = 0
    """The round in progress (0-based): the number of confirmed rounds."""
    dealer: str | None = None
    """Who deals the round in progress (None once the game is over)."""
    checklists: tuple[Checklist, ...] = ()
    corrected_from: tuple[Any, ...] | None = None
    """The confirmed rounds as they stood before the corrections since the last confirm."""
    correction: Correction | None = None
    """For a phone: what the latest correction of past rounds changed for this player."""

    @property
    def keeper(self) -> bool:
        """True for the scorekeeper's tablet."""
        return self.me is None

    @property
    def round_number(self) -> int:
        """The round in progress as players count it."""
        return self.round_index + 1

    @property
    def players(self) -> list[str]:
        """The game's players, clockwise."""
        return list(self.game.players)

    @property
    def winners(self) -> list[str]:
        """The winners (empty before the end; in a team game, both partners)."""
        return list(self.result["winners"]) if self.result else []

    @property
    def drawn_for(self) -> int | None:
        """Which moment of the round this is: how many things were done in it so far (None:
        the game does not tell its moments apart). Every form of the round carries it
        (``round_fields``) and an action that asks (``game_action(moment=…)``) refuses a
        tap drawn for an earlier one: a double tap, or two screens at once, acts once."""
        return None

    @property
    def mid_choice(self) -> bool:
        """True while this screen's player is making a choice the page must not wipe.

        A page without JavaScript then does not reload itself every few seconds.
        """
        return False

    def tick_keys(self) -> set[str]:
        """The checklist steps that may be ticked now."""
        return {step.key for c in self.checklists for step in c.steps}

    def money(self, amount: object, sign: bool = False) -> str:
        """An amount in the table's unit (``£2.50``, ``15 chips``)."""
        return money_text(amount, self.table.unit, sign)


class DefaultPhase(Enum):
    """The phases of a game without a flow of its own."""

    PLAYING = "playing"
    OVER = "end"


# --------------------------------------------------------------------------- sealed choices


class SealedStep:
    """One kind of sealed choice a game holds (a secret vote, a simultaneous reveal).

    The generic pages (``companion.web.vote``) draw the slip, take it from a
    phone or from the tablet's private screen, and never send anything of a
    choice back: the step says what may be chosen and what a choice does.
    """

    name: ClassVar[str]
    """The step's part of the URL: ``/t/<code>/games/<n>/sealed/<name>``."""
    slip_template: ClassVar[str]
    """The choice widget inside the generic slip (``choices``, ``slip`` in its context)."""
    phases: ClassVar[tuple[Enum, ...]] = ()
    """The phases in which slips are dropped."""
    drop_text: ClassVar[str] = _l("Drop my slip")
    """The button that seals the choice (these texts are said in the device's language:
    ``_l()``)."""
    in_text: ClassVar[str] = _l("Your slip is in.")
    """What the chooser sees once their choice is sealed (never the choice)."""
    remind_text: ClassVar[str] = ""
    """What the chooser's own device says of its choice once sealed (``{}``: the choice, as
    the device remembers it: the server never has it); empty: nothing (a secret vote)."""
    restart_text: ClassVar[str] = _l("The server restarted: please choose again.")
    """What the slip says when a restart lost the sealed choices (empty: the game's own
    status says it)."""

    def waiting_text(self, status: SealedStatus) -> str:
        """What a screen with no choice to make says while the others choose."""
        return _("Waiting for %(names)s\u2026", names=and_list(status.waiting_for))

    def status(self, view: View) -> SealedStatus | None:
        """The sealed choice of the moment (open, or the last one revealed)."""
        raise NotImplementedError

    def choices(self, view: View, chooser: str) -> Sequence[Any]:
        """What ``chooser`` may choose now, for the widget."""
        raise NotImplementedError

    def drop(self, act: Any, chooser: str, choice: str, stage: int | None,
             blob: bytes | None = None) -> bool:
        """Check and seal ``chooser``'s choice (SealError); True when it revealed the choices.

        ``blob`` is the slip as the device sealed it (opened and checked already): it is
        kept as sent (see ``companion.store.sealed.seal``)."""
        raise NotImplementedError


# --------------------------------------------------------------------------- the flow


@dataclass(frozen=True)
class RecordSaid:
    """One of the table's records as the record book and the night's recap say it, in the
    device's language (:meth:`GameFlow.say_record`)."""

    label: str
    """What the record is ("Highest round")."""
    value: str
    """Its value ("68 points")."""
    holders: str
    """Who holds it, as the book says ("Rob, Sam"; "the Gnome")."""
    night: str
    """The recap's line ("Longest game: 7 hands")."""


class GameFlow:
    """A game's flow: what the generic pages need of it, and nothing more.

    Subclasses set the class attributes and override what their game does
    differently; everything has a default that works for any game whose
    rules module follows the usual shape (``PLAYERS``, ``DEFAULTS``,
    ``replay``, ``deck_prep``, ``deal_steps``).
    """

    name: ClassVar[str]
    """The game's record name (its folder's under ``companion/games/``)."""
    blueprint: ClassVar[Blueprint | None] = None
    tablet_template: ClassVar[str] = "rounds/_default.html"
    """The inside of the tablet's round region."""
    phone_template: ClassVar[str] = "rounds/_default.html"
    """The inside of a phone's round region."""
    scoreboard_template: ClassVar[str] = "games/_scoreboard.html"
    options_template: ClassVar[str | None] = None
    """The fields of the start form (None: nothing to ask, the game starts at once)."""
    correction_template: ClassVar[str | None] = None
    """The fields that correct a past round (None: past rounds are not corrected here)."""
    round_word: ClassVar[str] = "round"
    """What players call a round of the game (``hand``), in refusals."""
    default_unit: ClassVar[str] = "chips"
    """The money unit a new table of this game starts with: ``chips``, or a currency for a
    game played for money; the table then starts in the device's own currency, this one
    when its browser names no country (``companion.web.currencies.starting_unit``)."""
    stylesheet: ClassVar[Path | None] = None
    """The game's own stylesheet (``companion/games/<game>/web/<game>.css``), if it has one:
    served at ``/static/css/<game>.css`` (``companion.web.games.install``)."""
    dealer_ticks: ClassVar[bool] = False
    """True when the checklists are the dealer's job: only the dealer's phone (or the
    tablet) ticks the dealing steps, and the other phones show the checklists folded."""
    sealed_steps: ClassVar[Mapping[str, SealedStep]] = {}
    """The game's sealed choices, by the name in their URL."""

    def __init_subclass__(cls, *, folder: str | None = None, stylesheet: bool = False,
                          **kwargs: Any) -> None:
        """``class SomeFlow(GameFlow, folder="<game>", stylesheet=True)``: the game's
        template folder (``templates/<game>/`` in its package, its blueprint's
        ``template_folder``) holds the usual parts (``_tablet``, ``_phone``, ``_scores``,
        ``_options``, ``_correct``), and ``<game>.css`` beside the flow is its stylesheet."""
        super().__init_subclass__(**kwargs)
        if folder is not None:
            cls.tablet_template = f"{folder}/_tablet.html"
            cls.phone_template = f"{folder}/_phone.html"
            cls.scoreboard_template = f"{folder}/_scores.html"
            cls.options_template = f"{folder}/_options.html"
            cls.correction_template = f"{folder}/_correct.html"
        if folder is not None and stylesheet:
            module = sys.modules[cls.__module__].__file__
            cls.stylesheet = Path(module or ".").parent / f"{folder}.css"

    # -- the rules

    @property
    def rules(self) -> GameRules:
        """The game's pure rules module."""
        return game_module(self.name)

    @property
    def title(self) -> str:
        """The game's name as players say it."""
        return self.name.capitalize()

    def allowed_players(self) -> list[int]:
        """How many players the game allows, within the app's seats."""
        counts = self.rules.PLAYERS
        return [n for n in range(1, MAX_SEATS + 1) if n in counts]

    def check_player_count(self, count: int) -> None:
        """Refuse (``FormError``) a number of players the game does not take."""
        counts = self.allowed_players()
        if count not in counts:
            raise FormError(_("%(game)s is for %(counts)s players, not %(count)s",
                              game=self.title, counts=counts_said(counts), count=count))

    def replay(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """The record's result (``RuleError`` when the rules refuse it), made once per record.

        Every screen that shows the same record (the tablet, the phones, the
        scoreboard, each poll) shares one result: see :data:`RESULTS`. The
        result is shared, so it is read, never changed.
        """
        return RESULTS.get(self.rules.replay, record)

    # -- starting a game

    def options_values(self, table: Table, form: Mapping[str, str] | None) -> dict[str, str]:
        """The start form's values: as sent, or the game's defaults."""
        return dict(form or {})

    def read_options(self, table: Table, form: MultiDict[str, str],
                     ) -> tuple[dict[str, Any], str | None]:
        """The record's options and the table's money unit from the start form.

        Raises ``FormError`` or ``RuleError`` with a message for the scorekeeper.
        """
        return {}, None

    def started(self, game: Game) -> None:
        """What happens when a game starts: its first round's draft is made."""
        round_store.start_draft(game)

    # -- the moment

    def moment(self, table: Table, game: Game, me: str | None = None) -> View:
        """The game now, for the tablet (``me`` None) or ``me``'s phone.

        What every screen of the table sees (:meth:`table_moment`) is made once
        per version of the table and language, and shared by the screens reading that
        language (a moment may hold words: a French phone's must not be the English
        tablet's); each screen then gets its own (:meth:`personal`): see
        :mod:`companion.live.versions`.
        """
        shared = at_version(table, ("moment", game.id, locale_name()),
                            lambda: self.table_moment(table, game))
        return self.personal(shared, table, game, me)

    @staticmethod
    def per_version(table: Table, what: Hashable, make: Callable[[], T],
                    depends_on: Set[str] | None = None) -> T:
        """``make()``, made once for the table's version and shared by every screen that
        asks (``what`` names it among the table's values); with ``depends_on`` (the
        database tables it is made from), kept for later versions while no change writes
        to them (:func:`companion.live.at_version`). For a part of a moment that not every
        moment needs (a vote's tally, a timer)."""
        return at_version(table, what, make, depends_on)

    def table_moment(self, table: Table, game: Game) -> View:
        """The game now as every screen of the table sees it (the tablet's view).

        Made from the table's facts alone (never from who asks, nor the clock):
        it is shared by every screen until the table's version changes.
        """
        record = game.record()
        draft = round_store.current_draft(game)
        try:
            result = self.replay(record)
        except RuleError as error:
            return View(table=table, game=game, me=None, phase=DefaultPhase.OVER, result=None,
                        problem=error)
        over = result["finished"] or not self.playing(game)
        dealer = None if over else self.dealer_now(record, result)
        lists = () if over else self.checklists(game, draft, dealer)
        return View(table=table, game=game, me=None, result=result,
                    phase=DefaultPhase.OVER if over else DefaultPhase.PLAYING,
                    round_index=len(game.rounds), dealer=dealer, checklists=lists,
                    corrected_from=corrected_from(draft))

    def personal(self, view: View, table: Table, game: Game, me: str | None) -> View:
        """The table's moment ``view`` for one screen: this request's table and game, and
        what only ``me``'s phone shows (a game adds its own: a slip, a team)."""
        mine = replace(view, table=table, game=game, me=me)
        return replace(mine, correction=self.correction(game, mine, me))

    @staticmethod
    def playing(game: Game) -> bool:
        """True while the game is being played (not closed by the scorekeeper)."""
        return game.status == "playing"

    def dealer_now(self, record: Mapping[str, Any], result: Mapping[str, Any]) -> str | None:
        """Who deals the round in progress (the rules' ``next_dealer``)."""
        return self.rules.next_dealer(record)

    def checklists(self, game: Game, draft: round_store.RoundDraft,
                   dealer: str | None) -> tuple[Checklist, ...]:
        """The deck-prep checklist (first round only) and the dealing steps of this round."""
        lists = []
        if not game.rounds:
            deck = self.rules.deck_prep(game.players, game.options)
            lists.append(checklist("deck", deck.title, deck.steps, draft))
        if dealer is not None:
            deal = self.rules.deal_steps(game.players, dealer, game.options)
            lists.append(checklist("deal", deal.title, deal.steps, draft))
        return tuple(lists)

    def total_of(self, result: Mapping[str, Any], me: str, game: Game) -> Any:
        """``me``'s total in a result (a team game finds the player's team)."""
        return result["totals"].get(me)

    def correction(self, game: Game, view: View, me: str | None) -> Correction | None:
        """What the corrections since the last confirm changed for ``me`` (None: nothing)."""
        before_rounds = view.corrected_from
        if (me is None or view.result is None or before_rounds is None
                or len(before_rounds) != len(game.rounds)):
            return None
        changed = tuple(i + 1 for i, (old, new) in enumerate(zip(before_rounds, game.rounds,
                                                                 strict=True)) if old != new)
        if not changed:
            return None
        def replay_before() -> Any:
            try:
                return self.replay(game.record() | {"rounds": list(before_rounds)})
            except RuleError:
                return None

        # The same for every phone: replayed once per version (companion.live.versions).
        before = at_version(view.table, ("corrected", game.id), replay_before)
        if before is None:
            return None
        old, new = self.total_of(before, me, game), self.total_of(view.result, me, game)
        if old == new:
            return None
        return Correction(changed, old, new)

    # -- the scoreboard

    def scoreboard(self, table: Table, game: Game | None, *, me: str | None = None,
                   keeper: bool = False, view: View | None = None) -> dict[str, Any]:
        """What the scoreboard template shows: the replayed result as rounds × players, and
        the moment (``view``, for this device) when the record replays.

        A page that has the moment already (its round region's) passes it as ``view``.
        """
        result = problem = None
        if game is not None:
            try:
                result = self.replay(game.record())
            except RuleError as error:
                problem = say(error)
        if game is None or problem is not None:
            view = None
        elif view is None:
            view = self.moment(table, game, me)
        return {"table": table, "game": game, "game_title": self.title, "result": result,
                "columns": list(result["totals"]) if result else [], "problem": problem,
                "me": me, "keeper": keeper, "chart": score_chart(result) if result else "",
                "view": view}

    # -- rounds

    def round_to_confirm(self, view: View, draft: round_store.RoundDraft) -> dict[str, Any]:
        """The facts confirming the round appends; ``abort(409)`` when it is not ready."""
        abort(409, _("%(game)s rounds are not entered on this screen yet.", game=self.title))

    def correction_values(self, view: View, facts: Mapping[str, Any]) -> dict[str, Any]:
        """The correction form's values from a round's facts."""
        return {"facts": facts}

    def correction_values_from_form(self, view: View, form: MultiDict[str, str],
                                    ) -> dict[str, Any]:
        """The correction form's values as they were sent (to show them again with a message)."""
        return {"facts": {}, "form": form}

    def read_correction(self, view: View, form: MultiDict[str, str],
                        old: Mapping[str, Any]) -> dict[str, Any]:
        """A round's corrected facts from the correction form (``FormError``)."""
        raise FormError(_("This game's past rounds cannot be corrected here"))

    def rules_help(self) -> str | None:
        """The template of the rules help page (None: the game's rules text, where its
        registry entry says it is)."""
        return None

    def round_label(self, number: int) -> str:
        """A round of the game by its number, inside a sentence ("round 3", "hand 3": the
        game's :attr:`round_word`), in the device's language."""
        if self.round_word == "hand":
            return _("hand %(number)s", number=number)
        return _("round %(number)s", number=number)

    def say_record(self, kind: str, record: Record, unit: str | None,
                   holders: str) -> RecordSaid:
        """One of the game's table records (a kind of its rules' ``RECORDS``) in words:
        ``unit`` is the money unit of a kind per unit (else None), ``holders`` the
        holders' names as the page writes them. A game says its own kinds; this default
        says the kind's name and the number."""
        label = kind.replace("_", " ").capitalize()
        value = money_text(record.value, unit) if unit else number(record.value)
        return RecordSaid(label, value, holders, f"{label}: {value}")


class DefaultFlow(GameFlow):
    """The flow of a game that has none of its own yet: checklists and the scoreboard."""

    def __init__(self, name: str) -> None:
        self.name = name


# --------------------------------------------------------------------------- finding flows


def flows() -> Mapping[str, GameFlow]:
    """The app's flows, by game name (``companion.web.games.load_flows`` when the app was made)."""
    return current_app.extensions[FLOWS_EXTENSION]


def game_stylesheets() -> dict[str, Path]:
    """The app's games' own stylesheets, by URL (none in an app without the games).

    Every page links them all: one cached file each, so a screen moving to another game
    never waits for one, and the service worker keeps them with the app shell."""
    found: Mapping[str, GameFlow] = current_app.extensions.get(FLOWS_EXTENSION, {})
    return {url_for(STYLESHEET_ENDPOINT, game=name): flow.stylesheet
            for name, flow in found.items() if flow.stylesheet is not None}


def flow_for(game: str) -> GameFlow:
    """The flow of ``game``; 404 for a game the app does not know."""
    flow = flows().get(game)
    if flow is None:
        abort(404, _("This app does not know the game %(game)s.", game=repr(game[:20])))
    return flow


__all__ = ["FLOWS_EXTENSION", "STYLESHEET_ENDPOINT", "Checklist", "Correction", "DefaultFlow",
           "DefaultPhase", "GameFlow", "RecordSaid", "SealedStep", "Step", "View", "checklist",
           "corrected_from", "flow_for", "flows", "game_stylesheets"]
