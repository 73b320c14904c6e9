"""What every browser test of a game at a table shares: the tablet, the phones, their waits,
and the new-table form that makes the table.

A plain module (not ``conftest.py``), so the game test modules and each game's browser
helper (``tests/browser/games/<game>.py``) can build on it:
``from tests.browser.screens import TableScreens``.
"""

from __future__ import annotations

import re
from typing import ClassVar

from companion.rules import GAMES
from tests.waiting import HANG_MS

try:
    from playwright.sync_api import expect
except ImportError:  # reported by the ``browser`` fixture in conftest.py
    expect = None

LIVE_MS = HANG_MS
"""How long something may take to show up "without a reload": the hang ceiling
(tests/waiting.py). Tests wait for the state, never a time."""

SCORE_ROWS = '[data-testid="score-table"] tbody tr[data-round]:not([data-round="0"])'
"""The played rounds (or hands) of a score table; a chip game's row 0 is the starting stacks."""

SUIT_LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}

FULL = "event: full\ndata: \n\n"
"""What a server holding as many event streams as it may says (companion.live.streams.FULL)."""


def in_first_screen(page, locator, what: str = "") -> None:
    """``locator`` shows whole on the page's first screen, scrolled to the top: it waits
    for that (a live update may be swapping the region in at that moment)."""
    page.evaluate("window.scrollTo(0, 0)")
    expect(locator, f"{what or locator} whole in the first screen of {page.url}"
           ).to_be_in_viewport(ratio=1, timeout=LIVE_MS)


def touch_sized(locator, what: str = "", least: int = 1) -> None:
    """Every visible element of ``locator`` is at least 44×44 px (a thumb's width), and there
    are at least ``least`` of them.

    The boxes are measured in one step inside the page, so a live update swapping the
    region in between two measurements cannot leave one button half-measured."""
    boxes = locator.evaluate_all("""els => els
        .filter(e => e.checkVisibility ? e.checkVisibility() : e.offsetParent !== null)
        .map(e => { const r = e.getBoundingClientRect();
                    return {text: e.innerText.trim(), width: r.width, height: r.height}; })""")
    assert len(boxes) >= least, (what, boxes)
    small = [box for box in boxes if box["width"] < 44 or box["height"] < 44]
    assert not small, (what, small)


EVENTS = re.compile(r"/t/[^/?]+/events(\?.*)?$")
"""A table's event stream (its page's id and pulse after the ``?``)."""


def without_stream(context) -> None:
    """The server refuses this device's event streams, as one holding all it may: its pages
    poll every 2 s (as with no stream at all). Pages opened or reloaded after this."""
    context.route(EVENTS, lambda route: route.fulfill(
        status=200, content_type="text/event-stream", body=FULL))


def without_push(context) -> None:
    """This device's event streams say the version only (its pages open them without their
    pulse): its pages poll at each change, as before streams brought the answers. Pages
    opened or reloaded after this."""
    context.route(EVENTS, lambda route: route.continue_(url=route.request.url.split("?")[0]))


def card_code(card: str) -> str:
    """A card as the pickers' checkboxes name it: ``10♦`` → ``10D``, ``K♥`` → ``KH``."""
    return card[:-1] + SUIT_LETTERS[card[-1]]


class TableScreens:
    """A game at a table in the browser: the scorekeeper's tablet and a phone per player.

    ``phones`` maps each player's name to their phone's page. Subclasses add their game's
    taps; like these, they tap as people at a table would and wait for what a person would
    wait for (a live update on their own screen); the tests assert the rest.
    """

    live_ms: ClassVar[int] = LIVE_MS
    """How long :meth:`wait_phase` waits on each page."""

    def __init__(self, tablet, phones: dict) -> None:
        self.tablet = tablet
        self.phones = phones

    def pages(self) -> list:
        """The tablet and every phone."""
        return [self.tablet, *self.phones.values()]

    def wait_phase(self, phase: str, pages=None) -> None:
        """Wait until the round region of every page (default: all of them) is in ``phase``."""
        for page in pages or self.pages():
            expect(page.locator("#round")).to_have_attribute("data-phase", phase,
                                                             timeout=self.live_ms)

    def rows(self, page=None):
        """The played rounds in a page's score table (the tablet by default)."""
        return (page or self.tablet).locator(SCORE_ROWS)

    def confirm_round(self, testid: str = "confirm-round") -> None:
        """The scorekeeper confirms the round (the button waits until it can be confirmed);
        the score table gets its row."""
        rows = self.rows()
        count = rows.count()
        button = self.tablet.get_by_test_id(testid)
        expect(button).to_be_enabled(timeout=LIVE_MS)
        button.click()
        expect(rows).to_have_count(count + 1, timeout=LIVE_MS)


def accept_next_dialog(page) -> None:
    """Answer OK to the next "are you sure?" the page asks."""
    page.once("dialog", lambda dialog: dialog.accept())


def end_game(tablet) -> None:
    """The scorekeeper ends the game: while it is under way, "End the game" (answering its
    "are you sure?"); once the rules have finished it, its one next step, "Close game N and
    go on" (the table's next game left as it is)."""
    end, close = tablet.get_by_test_id("end-game"), tablet.get_by_test_id("close-and-next")
    expect(end.or_(close)).to_be_visible(timeout=LIVE_MS)
    if close.is_visible():
        expect(end).to_have_count(0)  # one next step, not two
        close.click()
        expect(close).to_have_count(0, timeout=LIVE_MS)
        return
    accept_next_dialog(tablet)
    end.click()
    expect(end).to_have_count(0, timeout=LIVE_MS)


def at_once(pages, selector: str, *, delay_ms: int = 400) -> None:
    """Tap ``selector`` on every page in the same instant, as four hands at a table would.

    Each page is told the same moment on the shared clock and clicks by itself
    then (a timer in the page), so the requests really race at the server. The
    call returns once every page has tapped.
    """
    moment = pages[0].evaluate("Date.now()") + delay_ms
    for page in pages:
        page.evaluate("""([selector, moment]) => {
            window.companionTapped = "waiting";
            setTimeout(() => {
                const target = document.querySelector(selector);
                window.companionTapped = target ? "tapped" : "missing";
                if (target) { target.click(); }
            }, Math.max(0, moment - Date.now()));
        }""", [selector, moment])
    for page in pages:
        # Polled on a timer, not on animation frames (which a busy machine may starve).
        page.wait_for_function("() => window.companionTapped !== 'waiting'", polling=100)
        assert page.evaluate("window.companionTapped") == "tapped", f"{selector} on {page.url}"


def fill_new_table(tablet, name: str, players, game: str, *, dealer: str | None = None) -> None:
    """Fill in the tablet's create-table form and make the table.

    The form is drawn again when the game or the number of seats changes (by
    htmx, or by its "Update" button without JavaScript): each redraw is waited
    for before typing on, so nothing typed is lost to it.
    """
    tablet.goto("/")
    tablet.get_by_test_id("start-table").click()
    tablet.get_by_test_id("table-name").fill(name)
    update = tablet.get_by_test_id("update-form")  # shown only without JavaScript

    def choose(testid: str, value: str) -> None:
        field = tablet.get_by_test_id(testid)
        if field.input_value() == value:
            return
        if update.is_visible():
            field.select_option(value)
            update.click()
        else:
            with tablet.expect_response(lambda answer: "/new?" in answer.url):
                field.select_option(value)
            expect(tablet.locator(".htmx-added, .htmx-settling, .htmx-request")).to_have_count(0)
        expect(tablet.get_by_test_id(testid)).to_have_value(value)

    choose("game", game)
    choose("seat-count", str(len(players)))
    expect(tablet.locator('input[name="player"]')).to_have_count(len(players))
    for position, player in enumerate(players, 1):
        tablet.get_by_test_id(f"player-{position}").fill(player or "")
    tablet.get_by_test_id("phone-names").set_checked(None in players)
    if dealer is not None:
        tablet.get_by_test_id("dealer").select_option(dealer)
    tablet.get_by_test_id("create-table").click()
    tablet.wait_for_url(re.compile(r"/t/[^/]+$"))


def make_table(tablet, name: str, players: list[str | None], game: str | None = None) -> str:
    """Fill in the tablet's create-table form; return the join URL the tablet then shows.

    A ``None`` player leaves the seat blank for a phone to name; the game is the registry's
    first unless ``game`` names one (as ``tests/conftest.py``'s tables).
    """
    fill_new_table(tablet, name, players, game or GAMES[0])
    expect(tablet.locator("#keeper-live")).to_be_visible()
    return tablet.locator("#join-url").inner_text().strip()


def start_with_defaults(tablet) -> None:
    """The scorekeeper taps Start, keeps the game's default options and starts it."""
    tablet.get_by_test_id("start-game").click()
    expect(tablet.get_by_test_id("options-form")).to_be_visible()
    tablet.get_by_test_id("start-options").click()
    expect(tablet.get_by_test_id("end-game")).to_be_visible()
