"""Issue 38: no screen ever freezes (static/app/taps-page.js, connection.js, sync.js).

- F1: a tap whose form is drawn again while it is on its way (a poll, a push, another
  phone's claim, the tablet's approve) is still answered, and the next tap goes.
- F2: a tap kept on a dead Wi-Fi (the browser still says it is online) goes by itself once
  the page hears the server again.
- F3: a double tap on a toggle (a checklist tick, a TROMP! call, the dealer's forfeit) is one
  tap: the state is what one tap makes, and one request reached the server, with its key.
- A 2 s blip marks the screen "Reconnecting…" within 5 s, and the mark goes on return.

The network is Playwright's: a route that holds a tap until the test lets it go (the swap
has happened by then: the test waits for it, never for a time), and a route that fails
every request while the Wi-Fi is "dead". The tests wait for what a person would see, with
ceilings that only catch a hang; the one promise about time (the blip's 5 s) is a ceiling.
"""

from __future__ import annotations

import re
import threading
import time

from playwright.sync_api import expect

from tests.browser.games.tromplemond import enter_quick_hand
from tests.browser.screens import LIVE_MS, without_stream
from tests.browser.test_taps import PATIENT

CUT = ("ERR_INTERNET_DISCONNECTED", "net::ERR_FAILED", "htmx:sendError", "htmx:afterRequest",
       "htmx:sendAbort", "Failed to fetch")
"""What a page logs when the test's network fails it on purpose: nothing else may be logged."""


def allow_cut(console_errors) -> None:
    """Forget the console errors the test's own cut network made."""
    console_errors[:] = [e for e in console_errors if not any(x in e for x in CUT)]


def all_answered(page) -> None:
    """Every tap of the page is answered (none on its way, waiting or kept)."""
    expect(page.locator("body")).to_have_attribute("data-taps", "0", timeout=LIVE_MS)


class Held:
    """The next POST of ``page`` to ``pattern`` is held on its way until :meth:`release`;
    the others go. ``posts`` counts every POST to ``pattern`` that left the page."""

    def __init__(self, page, pattern: str) -> None:
        self.page, self.routes, self.posts, self.held = page, [], [], 0
        page.on("request", lambda request: request.method == "POST"
                and re.search(pattern, request.url) and self.posts.append(request))
        page.route(re.compile(pattern), self._route)

    def _route(self, route) -> None:
        if route.request.method == "POST" and not self.held:
            self.held += 1
            self.routes.append(route)
        else:
            route.fallback()

    def tap(self, button) -> None:
        """Tap ``button``: its form is remembered, and its tap is on its way, held."""
        button.evaluate("b => { window.tappedForm = b.closest('form'); }")
        self.page.evaluate(PATIENT)  # (it waits as long as the test holds its tap)
        button.click()
        expect(self.page.locator("body")).to_have_attribute("data-taps", "1")
        for _ in range(LIVE_MS // 50):  # (the route is called while Playwright waits)
            if self.routes:
                break
            self.page.wait_for_timeout(50)
        assert self.routes, "the tap left the page"

    def swapped(self) -> None:
        """Wait until the tapped form has been drawn again (taken out of the page)."""
        self.page.wait_for_function("() => !window.tappedForm.isConnected", polling=100,
                                    timeout=LIVE_MS)

    def release(self) -> None:
        """Let the held tap go on to the server."""
        self.routes.pop().continue_()


# --------------------------------------------------------------------------- F1: phones


def test_a_claim_whose_seats_are_drawn_again_by_a_poll_or_a_push_is_answered(
        new_context, make_table, start_with_defaults, console_errors, monkeypatch):
    cut = mute_streams(monkeypatch)
    tablet = new_context("tablet").new_page()
    join_url = make_table(tablet, "Swaps", ["Rob", "Sam", "Nick"], "trumplestiltskin")
    polling_context = new_context("phone")
    without_stream(polling_context)  # its page polls every 2 s
    polling, hearing, other = (polling_context.new_page(), new_context("phone").new_page(),
                               new_context("phone").new_page())
    for page in (polling, hearing, other):
        page.goto(join_url)
    expect(hearing.locator("body")).to_have_attribute("data-stream", "on")
    expect(polling.locator("body")).to_have_attribute("data-stream", "off")

    # Rob (polling) and Sam (hearing its stream) tap their seats; their taps are held on
    # the way while Nick's phone claims his seat: Rob's poll and Sam's stream (and the poll
    # it makes once behind) draw their seats again meanwhile.
    rob, sam = Held(polling, r"/claim$"), Held(hearing, r"/claim$")
    rob.tap(polling.get_by_test_id("claim-1"))
    sam.tap(hearing.get_by_test_id("claim-2"))
    other.get_by_test_id("claim-3").click()
    expect(other.locator("#you-are")).to_have_text("You are Nick (seat 3)")
    rob.swapped()
    sam.swapped()
    rob.release()
    sam.release()
    for page, said in ((polling, "You are Rob (seat 1)"), (hearing, "You are Sam (seat 2)")):
        expect(page.locator("#you-are")).to_have_text(said, timeout=LIVE_MS)
        all_answered(page)
    assert len(rob.posts) == 1 and len(sam.posts) == 1, "each tap sent once"
    for position in (1, 2, 3):
        expect(tablet.locator(f'li.seat[data-seat="{position}"]')).to_have_attribute(
            "data-joined", "yes", timeout=LIVE_MS)

    # The next tap of each phone is sent: Rob deals, and ticks his first step.
    start_with_defaults(tablet)
    step = polling.locator("#round .tick-button").first
    expect(step).to_have_attribute("aria-pressed", "false", timeout=LIVE_MS)
    step.click()
    expect(step).to_have_attribute("aria-pressed", "true", timeout=LIVE_MS)
    all_answered(polling)
    all_answered(hearing)

    # A 2 s blip on Sam's phone: its stream says nothing, every request fails. Within 5 s
    # it says it may be out of date; once back, it says so no more.
    expect(hearing.locator("body")).to_have_attribute("data-stream", "on")
    expect(hearing.locator("body")).not_to_have_attribute("data-connection", "lost")
    blip(hearing, cut)
    hearing.wait_for_function("() => window.companionMarked > 0", polling=50, timeout=5000)
    expect(hearing.locator("body")).not_to_have_attribute("data-connection", "lost",
                                                          timeout=LIVE_MS)
    expect(hearing.get_by_test_id("connection")).to_be_hidden()
    allow_cut(console_errors)


WATCH_MARK = """() => {
    window.companionMarked = 0;
    new MutationObserver(() => {
        if (document.body.getAttribute("data-connection") === "lost") {
            window.companionMarked += 1;
        }
    }).observe(document.body, { attributes: true, attributeFilter: ["data-connection"] });
}"""
"""Count the times the page marks itself lost (however briefly)."""


class Cut(threading.Event):
    """A blip of the Wi-Fi: set while it lasts; ``at`` is when the last one began."""

    at = float("inf")

    def set(self) -> None:
        """The blip begins."""
        self.at = time.monotonic()
        super().set()


def mute_streams(monkeypatch) -> Cut:
    """Once the :class:`Cut` this returns is set, every event stream then open says nothing
    more (as a stream a Wi-Fi blip killed without a word: its connection open, nothing
    comes through); the streams opened after the blip speak."""
    from companion.live.streams import Streams

    cut = Cut()
    speak = Streams.stream

    def muted(self, *args, **kwargs):
        opened = time.monotonic()
        for message in speak(self, *args, **kwargs):
            if time.monotonic() < cut.at or opened >= cut.at:
                yield message
            elif time.monotonic() - cut.at > 30:
                return  # (its place is given back: its page has opened another by then)

    monkeypatch.setattr(Streams, "stream", muted)
    return cut


def blip(page, cut: Cut, seconds: float = 2.0) -> None:
    """The Wi-Fi of ``page`` blips for ``seconds``: its stream is silent and its requests
    fail, then both come back (by a timer: the test goes on waiting meanwhile)."""
    page.evaluate(WATCH_MARK)
    page.route("**/*", lambda route: route.abort() if cut.is_set() else route.fallback())
    cut.set()
    threading.Timer(seconds, cut.clear).start()


# --------------------------------------------------------------------------- F1: the tablet


def test_an_approve_whose_requests_are_drawn_again_is_answered_and_the_vote_opens(
        new_context, console_errors):
    from tests.browser.games.tromplemond import TromplemondTable, seat_four_phones

    tablet = new_context("tablet").new_page()
    join_url, phones = seat_four_phones(new_context, tablet, seated=("Rob",))
    table = TromplemondTable(tablet, phones, join_url)
    table.start()
    asking = {}
    for position, name in ((2, "Sam"), (3, "Nick")):
        phone = new_context("phone").new_page()
        phone.goto(join_url)
        phone.get_by_test_id(f"claim-{position}").click()
        expect(phone.locator("#waiting")).to_be_visible()
        expect(tablet.locator(f'.request[data-seat="{position}"]')).to_be_visible(
            timeout=LIVE_MS)
        asking[name] = phone

    # The tablet approves Sam's phone; its tap is held while Nick's phone stops asking: the
    # tablet's requests are drawn again (its stream) while the approve is on its way.
    approve = Held(tablet, r"/approve$")
    approve.tap(tablet.locator('.request[data-seat="2"]').get_by_role("button",
                                                                      name="Approve"))
    asking["Nick"].get_by_test_id("withdraw").click()
    expect(asking["Nick"].locator("#waiting")).to_have_count(0)
    approve.swapped()
    approve.release()
    all_answered(tablet)
    expect(asking["Sam"].locator("#you-are")).to_have_text("You are Sam (seat 2)",
                                                           timeout=LIVE_MS)
    assert len(approve.posts) == 1

    # The tablet's next taps are sent: Nick's and Emily's phones in, then the vote.
    emily = new_context("phone").new_page()
    emily.goto(join_url)
    for position, phone in ((3, asking["Nick"]), (4, emily)):
        phone.get_by_test_id(f"claim-{position}").click()
        expect(phone.locator("#waiting")).to_be_visible()
        tablet.locator(f'.request[data-seat="{position}"]').get_by_role(
            "button", name="Approve").click(timeout=LIVE_MS)
        expect(phone.locator("#you-are")).to_be_visible(timeout=LIVE_MS)
    all_answered(tablet)
    tablet.get_by_test_id("open-vote").click()
    expect(tablet.locator("#round")).to_have_attribute("data-phase", "vote", timeout=LIVE_MS)
    for position in (1, 2, 3, 4):
        expect(tablet.locator(f'li.seat[data-seat="{position}"]')).to_have_attribute(
            "data-joined", "yes", timeout=LIVE_MS)
    allow_cut(console_errors)


# --------------------------------------------------------------------------- F3 and F2

GAPS_MS = (50, 150, 300, 600)
"""The time between the two taps of a double tap (the test's input, not a measure)."""

DOUBLE_TAP = """([selector, gap]) => new Promise((done) => {
    document.querySelector(selector).click();
    setTimeout(() => {
        const again = document.querySelector(selector);  // (drawn again meanwhile?)
        if (again) { again.click(); }
        done(again ? "tapped" : "gone");
    }, gap);
})"""
"""Tap ``selector`` twice, ``gap`` ms apart (the page's own timer), as a finger would: the
second tap lands on whatever button is there then (a disabled one takes no tap)."""


UNWIRED_TAP = """(selector) => {
    const form = document.querySelector(selector).closest("form");
    const copy = form.cloneNode(true);  // (htmx's marks and listeners are not copied)
    form.replaceWith(copy);
    copy.querySelector(selector).click();
}"""
"""Draw a button's form again as htmx has not taken it in hand yet, and tap the button."""


class Sent:
    """The requests to ``pattern`` that left ``page`` (taps with their key, plain form posts
    without), from now on."""

    def __init__(self, page, pattern: str) -> None:
        self.taps: list[str] = []
        self.plain: list[str] = []
        page.on("request", self._seen(pattern))

    def _seen(self, pattern: str):
        def seen(request) -> None:
            if request.method != "POST" or not re.search(pattern, request.url):
                return
            key = request.headers.get("x-companion-tap")
            (self.taps if key and not request.is_navigation_request() else self.plain).append(
                request.url)
        return seen

    def once(self) -> None:
        """Exactly one request went since the last look, a tap with its key; then forget."""
        assert (len(self.taps), self.plain) == (1, []), (self.taps, self.plain)
        self.taps.clear()


def double_tap(page, testid: str, gap: int) -> None:
    """Double-tap the button ``testid`` on ``page``, ``gap`` ms apart (once it takes taps);
    wait until its taps are answered and it takes taps again."""
    expect(page.locator("[data-settling]")).to_have_count(0, timeout=LIVE_MS)
    page.evaluate(DOUBLE_TAP, [f'[data-testid="{testid}"]', gap])
    all_answered(page)
    expect(page.locator("[data-settling]")).to_have_count(0, timeout=LIVE_MS)


def test_a_double_tap_on_a_toggle_is_one_tap_and_a_hand_kept_on_dead_wifi_goes_by_itself(
        new_context, console_errors):
    from tests.browser.games.tromplemond import TromplemondTable, seat_four_phones

    tablet = new_context("tablet").new_page()
    tablet.on("dialog", lambda dialog: dialog.accept())  # (the forfeit's "Sure?")
    join_url, phones = seat_four_phones(new_context, tablet)
    table = TromplemondTable(tablet, phones, join_url)
    table.start(tromp_stake="0.50", rounds=1)
    tablet.evaluate("window.companionNoReload = true")

    # F3: a checklist tick, double-tapped: ticked, once.
    ticks = Sent(tablet, r"/tick$")
    for gap in GAPS_MS:
        step = tablet.locator('#round .tick-button[aria-pressed="false"]').first
        testid = step.get_attribute("data-testid")
        double_tap(tablet, testid, gap)
        expect(tablet.get_by_test_id(testid)).to_have_attribute("aria-pressed", "true")
        ticks.once()

    # A tick whose form was drawn before htmx took it in hand (a copy htmx never saw): the
    # tap goes as a tap, with its key and its button, not as a plain post of the page.
    step = tablet.locator('#round .tick-button[aria-pressed="false"]').first
    testid = step.get_attribute("data-testid")
    tablet.evaluate(UNWIRED_TAP, f'[data-testid="{testid}"]')
    expect(tablet.get_by_test_id(testid)).to_have_attribute("aria-pressed", "true")
    all_answered(tablet)
    ticks.once()

    # F3: the dealer's forfeit, double-tapped on its page: turned over once each time (its
    # answer is the round again).
    forfeits = Sent(tablet, r"/forfeit$")
    for turn, gap in enumerate(GAPS_MS):
        tablet.get_by_test_id("penalties").click()
        expect(tablet.get_by_test_id("dealer-forfeit")).to_have_attribute(
            "aria-pressed", "false" if turn % 2 == 0 else "true")
        double_tap(tablet, "dealer-forfeit", gap)
        expect(tablet.get_by_test_id("penalties")).to_contain_text(
            "✓" if turn % 2 == 0 else "Penalties", timeout=LIVE_MS)
        forfeits.once()
    expect(tablet.get_by_test_id("penalties")).not_to_contain_text("✓")

    table.open_vote()
    table.vote({"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Rob"})
    table.wait_phase("hands")

    # F2: Rob saves his hand on a dead Wi-Fi (the browser still says it is online): kept;
    # when the Wi-Fi is back it goes by itself, once.
    rob = phones["Rob"]
    table.pick_hand("Rob", ["J♥", "A♦"], ["J♠", "A♠", "10♥"])  # 1 + 1 jacks: Moyenne
    dead = threading.Event()
    reached: list[str] = []

    def wifi(route) -> None:
        if dead.is_set():
            route.abort("internetdisconnected")
            return
        if route.request.method == "POST" and route.request.url.endswith("/hand"):
            reached.append(route.request.url)
        route.fallback()

    rob.route("**/*", wifi)
    dead.set()
    rob.get_by_test_id("save-hand").click()
    expect(rob.get_by_test_id("tap-note")).to_contain_text("Not sent", timeout=LIVE_MS)
    assert rob.evaluate("navigator.onLine") is True and reached == []
    dead.clear()
    all_answered(rob)
    expect(rob.get_by_test_id("my-hand")).to_have_attribute("data-entered", "yes",
                                                            timeout=LIVE_MS)
    assert len(reached) == 1, reached
    expect(table.hand_row("Rob")).to_have_attribute("data-entered", "yes", timeout=LIVE_MS)

    for position, name, points in ((2, "Sam", "12"), (3, "Nick", "10")):  # (the tablet's)
        enter_quick_hand(table, position, name, points)

    # F3: Rob's TROMP! call, double-tapped: ticked or unticked once each time.
    calls = Sent(tablet, r"/called$")
    call = tablet.get_by_test_id("called-Rob")
    for turn, gap in enumerate(GAPS_MS):
        expect(call).to_have_attribute("aria-pressed", "false" if turn % 2 == 0 else "true",
                                       timeout=LIVE_MS)
        double_tap(tablet, "called-Rob", gap)
        expect(call).to_have_attribute("aria-pressed", "true" if turn % 2 == 0 else "false")
        calls.once()
    assert tablet.evaluate("window.companionNoReload") is True, "no whole page was loaded"
    allow_cut(console_errors)


# --------------------------------------------------------------------------- a late page


def test_a_tap_whose_answer_is_a_page_coming_after_the_next_page_does_not_replace_it(
        new_context, make_table):
    """The scorekeeper sets the dealer (its answer is the table's page again) and taps
    Start at once; the dealer's answer, late, comes after the start page: the start page
    stays, and the dealer was set once."""
    tablet = new_context("tablet", viewport={"width": 800, "height": 1280}).new_page()
    make_table(tablet, "Late answers", ["Ann", "Bo", "Cy"], "clumond")
    held: list = []

    def hold_the_answer(route) -> None:  # the server applies it; its answer waits
        if route.request.method == "POST":
            held.append((route, route.fetch(max_redirects=0)))
        else:
            route.fallback()

    tablet.route(re.compile(r"/dealer$"), hold_the_answer)
    tablet.get_by_test_id("dealer-choice").select_option("3")
    tablet.get_by_test_id("set-dealer").click()
    for _ in range(LIVE_MS // 50):  # (the route is called while Playwright waits)
        if held:
            break
        tablet.wait_for_timeout(50)
    assert held, "the dealer's tap left the page"
    tablet.get_by_test_id("start-game").click()
    expect(tablet.get_by_test_id("options-form")).to_be_visible(timeout=LIVE_MS)
    start_page = tablet.url

    route, answer = held.pop()
    with tablet.expect_response(lambda response: response.request.redirected_from is not None
                                and response.request.redirected_from.url.endswith("/dealer"),
                                timeout=LIVE_MS):
        route.fulfill(response=answer)
    all_answered(tablet)
    expect(tablet.get_by_test_id("options-form")).to_be_visible()
    assert tablet.url == start_page
    tablet.go_back()  # the table's page, with the dealer the tap set
    expect(tablet.locator("#first-dealer")).to_have_text("Cy (seat 3) deals first.",
                                                          timeout=LIVE_MS)
