"""Issue 27: a tap is never silently lost or doubled, and a screen says when it has lost the
table (static/app/taps-page.js, companion/web/taps.py).

Each phone is its own browser context. The network is Playwright's: ``set_offline`` (the
Wi-Fi gone: it fails every new request, but leaves an event stream that is open alone), a
route that holds a request (a slow link: it goes on when the test lets it), and a route
that lets a request reach the server and then drops its answer (the answer lost after the
server applied it). The tests wait for what a person would see, never for a time, except
where the case is a time: the 30 s the phone is offline.

Screenshots: test-output/screenshots/test_*-<step>.png, at 360 px and at tablet size.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.screens import LIVE_MS, without_stream

NOT_SENT = "Not sent: no connection — will send when you're back"
PHONE_360 = {"viewport": {"width": 360, "height": 740}}
TABLET_SIZE = {"viewport": {"width": 800, "height": 1280}}
EXPECTED_WHEN_CUT = ("ERR_INTERNET_DISCONNECTED", "net::ERR_FAILED", "htmx:sendError",
                     "htmx:afterRequest", "htmx:sendAbort")
"""What a page logs when the network fails it on purpose (Chromium's failed request, htmx's
note of it): nothing else may be logged."""
OFFLINE_S = 30
PATIENT = "htmx.config.timeout = 10 * 60 * 1000"
"""A page that waits for a tap's answer as long as a test holds it (not a time: a ceiling)."""


def all_answered(page) -> None:
    """Wait until every tap of the page is answered (none on its way, waiting or kept)."""
    expect(page.locator("body")).to_have_attribute("data-taps", "0", timeout=LIVE_MS)


def allow_network_errors(console_errors) -> None:
    console_errors[:] = [e for e in console_errors
                         if not any(x in e for x in EXPECTED_WHEN_CUT)]


def posts_to(page, pattern: str) -> list[str]:
    """The POSTs ``page`` sends to URLs matching ``pattern`` from now on (that left it)."""
    sent: list[str] = []
    page.on("request", lambda request: request.method == "POST"
            and re.search(pattern, request.url) and sent.append(request.url))
    return sent


def losing_the_first_answer(page, pattern: str) -> list[int]:
    """The first request of ``page`` to ``pattern`` reaches the server, which applies it,
    and its answer never comes back; the later ones go through. The requests that reached
    the server, one entry each."""
    reached: list[int] = []

    def lose_the_first_answer(route) -> None:
        reached.append(1)
        if len(reached) == 1:
            route.fetch()  # the server applies it ...
            route.abort()  # ... and its answer never comes back
        else:
            route.continue_()

    page.route(re.compile(pattern), lose_the_first_answer)
    return reached


# --------------------------------------------------------------------------- a Trefeltromp table


class Tarot:
    """A Trefeltromp table of Ann, Bo and Cy; only Bo has a phone (the tablet acts for the
    others). Ann deals: Bo acts first."""

    def __init__(self, new_context, make_table, phone_options=None, *, stream=True) -> None:
        self.tablet = new_context("tablet").new_page()
        join_url = make_table(self.tablet, "Tarot night", ["Ann", "Bo", "Cy"],
                              game="trefeltromp")
        self.code = join_url.rstrip("/").rsplit("/", 1)[-1]
        self.tablet.get_by_test_id("dealer-choice").select_option("1")
        self.tablet.get_by_test_id("set-dealer").click()
        expect(self.tablet.get_by_test_id("first-dealer")).to_be_visible()
        self.context = new_context("phone", **(phone_options or {}))
        if not stream:
            without_stream(self.context)
        self.bo = self.context.new_page()
        self.bo.goto(join_url)
        self.bo.get_by_test_id("claim-2").click()
        expect(self.bo.locator("#you-are")).to_have_text("You are Bo (seat 2)")
        tablet = self.tablet
        tablet.get_by_test_id("start-game").click()
        expect(tablet.get_by_test_id("options-form")).to_be_visible()
        tablet.get_by_test_id("stack").fill("100")
        tablet.get_by_test_id("start-options").click()
        expect(tablet.locator("#round")).to_have_attribute("data-phase", "ready",
                                                           timeout=LIVE_MS)
        tablet.locator("#round").get_by_test_id("deal").click()
        for page in (tablet, self.bo):
            expect(page.locator("#round")).to_have_attribute("data-phase", "fyrsturkalla",
                                                             timeout=LIVE_MS)
        expect(self.bo.get_by_test_id("your-turn")).to_be_visible(timeout=LIVE_MS)

    def acts(self) -> int:
        """How many actions the server holds for this hand (the tablet's moment, read now)."""
        answer = self.tablet.context.request.get(f"/t/{self.code}/pulse",
                                                 headers={"HX-Request": "true"})
        return int(re.search(r'name="moment" value="(\d+)"', answer.text()).group(1))

    def pick_bet(self, amount: int) -> None:
        self.bo.locator(f'label.chip:has(> [data-testid="amount-{amount}"])').click()
        expect(self.bo.get_by_test_id(f"amount-{amount}")).to_be_checked()

    def act_for(self, player: str, verb: str) -> None:
        """The tablet acts for ``player`` (the tablet's own panel, or "Act for" a phone)."""
        tablet = self.tablet
        expect(tablet.get_by_test_id("to-act")).to_contain_text(player, timeout=LIVE_MS)
        here = tablet.locator("details.act-here")
        if here.count():
            here.locator("summary").click()
        before = tablet.locator("#round").get_attribute("data-version")
        tablet.locator("#round").get_by_test_id(f"act-{verb}").first.click()
        expect(tablet.locator("#round")).not_to_have_attribute("data-version", before,
                                                                timeout=LIVE_MS)


def test_a_bet_made_offline_is_kept_at_its_button_and_sent_once_when_back(
        new_context, make_table, console_errors, screenshot):
    table = Tarot(new_context, make_table, PHONE_360)
    bo, before = table.bo, table.acts()
    sent = posts_to(bo, r"/seats/2/act$")
    table.pick_bet(10)

    table.context.set_offline(True)
    bo.get_by_test_id("act-bet").click()
    note = bo.locator("#round").get_by_test_id("tap-note")
    expect(note).to_contain_text(NOT_SENT)
    expect(note.get_by_test_id("send-again")).to_be_visible()
    expect(bo.get_by_test_id("your-turn")).to_be_visible()  # nothing was sent: still his turn
    expect(bo.get_by_test_id("connection")).to_be_visible()
    assert sent == [] and table.acts() == before
    screenshot(bo, "not-sent-360")

    table.context.set_offline(False)  # back: it goes by itself, once
    all_answered(bo)
    expect(bo.get_by_test_id("your-turn")).to_have_count(0, timeout=LIVE_MS)
    expect(bo.get_by_test_id("tap-note")).to_have_count(0)
    expect(bo.get_by_test_id("connection")).to_be_hidden(timeout=LIVE_MS)
    expect(table.tablet.get_by_test_id("to-act")).to_contain_text("Cy", timeout=LIVE_MS)
    assert table.acts() == before + 1, "the bet is counted once"
    assert len(sent) == 1, sent
    allow_network_errors(console_errors)


def test_a_bet_whose_answer_was_lost_is_sent_again_and_answered_from_the_first(
        new_context, make_table, console_errors):
    table = Tarot(new_context, make_table)
    bo, before = table.bo, table.acts()
    reached = losing_the_first_answer(bo, r"/seats/2/act$")
    table.pick_bet(10)
    bo.get_by_test_id("act-bet").click()

    # The page hears the table again (its stream, a poll): the bet goes again, same key.
    all_answered(bo)
    expect(bo.get_by_test_id("your-turn")).to_have_count(0, timeout=LIVE_MS)
    expect(bo.get_by_test_id("tap-note")).to_have_count(0)
    assert len(reached) == 2, "sent again once"
    assert table.acts() == before + 1, "counted once"
    round_ = bo.locator("#round")
    expect(round_.locator('[data-testid="error"]')).to_have_count(0)  # no "not your turn"
    expect(table.tablet.get_by_test_id("to-act")).to_contain_text("Cy", timeout=LIVE_MS)
    allow_network_errors(console_errors)


def test_a_phone_offline_30_s_while_the_table_moves_on_says_so_then_catches_up(
        new_context, make_table, console_errors, screenshot):
    # Chromium's offline mode leaves an event stream that is open open (it reaches
    # 127.0.0.1): this phone polls instead, as with no stream. With the Wi-Fi gone, both go.
    table = Tarot(new_context, make_table, PHONE_360, stream=False)
    bo, before = table.bo, table.acts()
    table.context.set_offline(True)
    gone = bo.evaluate("Date.now()")
    line = bo.get_by_test_id("connection")
    expect(line).to_be_visible(timeout=LIVE_MS)
    expect(line).to_contain_text("Reconnecting…")
    expect(bo.locator("body")).to_have_attribute("data-connection", "lost")
    screenshot(bo, "reconnecting-360")
    # Bo taps Check meanwhile: it shows as not sent, not as done.
    bo.get_by_test_id("act-check").click()
    expect(bo.locator("#round").get_by_test_id("tap-note")).to_contain_text(NOT_SENT)

    # The tablet checks for Bo, and for Cy; the table moves on without Bo's phone.
    table.act_for("Bo", "check")
    table.act_for("Cy", "check")
    expect(bo.get_by_test_id("your-turn")).to_be_visible()  # what it showed: marked as old
    # The case is 30 s offline: the phone's own clock says when they are over.
    bo.wait_for_function(f"() => Date.now() - {gone} >= {OFFLINE_S * 1000}", polling=500,
                         timeout=(OFFLINE_S + 30) * 1000)
    expect(line).to_be_visible()
    expect(bo.locator("body")).to_have_attribute("data-connection", "lost")

    table.context.set_offline(False)
    expect(line).to_be_hidden(timeout=LIVE_MS)
    all_answered(bo)
    expect(bo.get_by_test_id("your-turn")).to_have_count(0, timeout=LIVE_MS)
    expect(bo.locator("body")).not_to_have_attribute("data-connection", "lost")
    # Bo's late Check was for a moment that is over: refused, with the reason, not applied.
    expect(bo.locator("#round").get_by_test_id("error")).to_contain_text("moved on")
    assert table.acts() == before + 2
    expect(table.tablet.get_by_test_id("to-act")).to_contain_text("Ann")
    allow_network_errors(console_errors)
    console_errors[:] = [e for e in console_errors if "409 (CONFLICT)" not in e]  # (that)


# --------------------------------------------------------------------------- a checklist tick


def deck_step(new_context, make_table, **options):
    """A tablet with a Trumplestiltskin table started: its first checklist step's button."""
    tablet = new_context("tablet", **options).new_page()
    make_table(tablet, "Tick night", ["Rob", "Sam", "Nick"], "trumplestiltskin")
    tablet.get_by_test_id("start-game").click()
    expect(tablet.get_by_test_id("options-form")).to_be_visible()
    tablet.get_by_test_id("start-options").click()
    expect(tablet.get_by_test_id("end-game")).to_be_visible()
    button = tablet.locator("#round .tick-button").first
    expect(button).to_have_attribute("aria-pressed", "false")
    return tablet, button


def test_a_double_tap_on_a_tick_and_a_tick_sent_twice_leave_it_ticked(
        new_context, make_table, console_errors):
    tablet, button = deck_step(new_context, make_table)
    sent = posts_to(tablet, r"/tick$")
    step = button.evaluate("b => b.closest('li').dataset.step")
    button.dblclick()
    mine = tablet.locator(f'#round li[data-step="{step}"]')
    expect(mine).to_have_attribute("data-done", "yes", timeout=LIVE_MS)
    expect(tablet.locator(".tap-note")).to_have_count(0, timeout=LIVE_MS)
    assert len(sent) == 1, "the second tap found the button on its way"

    # A tick sent twice: its answer is lost after the server ticked it, and the page sends
    # it again (the same key, "tick it" again): it stays ticked.
    reached = losing_the_first_answer(tablet, r"/tick$")
    other = tablet.locator("#round .tick-button[aria-pressed=false]").first
    second = other.evaluate("b => b.closest('li').dataset.step")
    other.click()
    expect(tablet.locator(f'#round li[data-step="{second}"]')).to_have_attribute(
        "data-done", "yes", timeout=LIVE_MS)
    all_answered(tablet)
    expect(tablet.locator(".tap-note")).to_have_count(0)
    assert len(reached) == 2, "sent twice"
    expect(tablet.locator(f'#round li[data-step="{second}"]')).to_have_attribute(
        "data-done", "yes")
    expect(mine).to_have_attribute("data-done", "yes")
    allow_network_errors(console_errors)


def test_on_a_slow_link_a_tap_shows_it_is_on_its_way_and_goes_once(
        new_context, make_table, screenshot):
    tablet, button = deck_step(new_context, make_table)
    # The link is as slow as the test holds it (however busy the machine): the page waits
    # as long, instead of giving the tap up after its usual 12 s.
    tablet.evaluate(PATIENT)
    held = []
    tablet.route(re.compile(r"/tick$"), lambda route: held.append(route))
    sent = posts_to(tablet, r"/tick$")
    step = button.evaluate("b => b.closest('li').dataset.step")
    button.click()
    expect(button).to_be_disabled()
    expect(button).to_have_class(re.compile(r"\btap-sending\b"))
    note = tablet.locator("#round").get_by_test_id("tap-note")
    expect(note).to_have_text(re.compile("Sending…"))
    expect(note).to_be_visible()
    button.click(force=True)  # tapped again while it is on its way: nothing more is sent
    button.dispatch_event("click")
    screenshot(tablet, "sending")
    assert len(held) == 1 and len(sent) == 1
    held[0].continue_()  # the link delivers it at last (2 s on the link)
    all_answered(tablet)
    expect(tablet.locator(f'#round li[data-step="{step}"]')).to_have_attribute(
        "data-done", "yes", timeout=LIVE_MS)
    expect(tablet.locator(".tap-note")).to_have_count(0)
    assert len(sent) == 1


# --------------------------------------------------------------------------- a slip


@pytest.mark.parametrize("size", ["360", "tablet"])
def test_a_slip_dropped_offline_is_kept_and_dropped_once_when_back(
        new_context, size, console_errors, screenshot):
    from tests.browser.games.tromplemond import TromplemondTable, seat_four_phones

    tablet = new_context("tablet").new_page()
    join_url, phones = seat_four_phones(new_context, tablet, seated=("Rob",))
    table = TromplemondTable(tablet, phones, join_url)
    rob = phones["Rob"]
    rob.set_viewport_size(PHONE_360["viewport"] if size == "360" else TABLET_SIZE["viewport"])
    table.start()
    tablet.get_by_test_id("open-vote").click()
    expect(rob.locator(".vote-slip")).to_have_attribute("data-step", "choose",
                                                        timeout=LIVE_MS)
    sent = posts_to(rob, r"/sealed/vote$")
    table.tap_slip(rob, "Emily")

    rob.context.set_offline(True)
    rob.get_by_test_id("slip-confirm").click()
    note = rob.get_by_test_id("tap-note")
    expect(note).to_contain_text(NOT_SENT)
    expect(rob.get_by_test_id("slip-Emily")).to_be_checked()  # the choice is kept
    expect(rob.get_by_test_id("connection")).to_be_visible()
    screenshot(rob, f"slip-not-sent-{size}")
    assert sent == []

    rob.context.set_offline(False)
    all_answered(rob)
    expect(rob.get_by_test_id("slip-in")).to_be_visible(timeout=LIVE_MS)
    expect(rob.get_by_test_id("tap-note")).to_have_count(0)
    assert len(sent) == 1
    expect(tablet.locator("#round")).to_contain_text("1 of 4", timeout=LIVE_MS)
    allow_network_errors(console_errors)


# --------------------------------------------------------------------------- a hand


def test_a_hand_saved_offline_is_kept_and_saved_once_when_back(
        new_context, console_errors, screenshot):
    from tests.browser.games.tromplemond import TromplemondTable, seat_four_phones

    tablet = new_context("tablet").new_page()
    join_url, phones = seat_four_phones(new_context, tablet)
    table = TromplemondTable(tablet, phones, join_url)
    table.start()
    table.open_vote()
    table.vote({"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Rob"})
    table.wait_phase("hands")
    rob = phones["Rob"]
    rob.set_viewport_size(PHONE_360["viewport"])
    table.pick_hand("Rob", ["K♥", "10♠"], ["Q♥", "J♦", "K♠"])
    sent = posts_to(rob, r"/hand$")

    rob.context.set_offline(True)
    rob.get_by_test_id("save-hand").click()
    expect(rob.get_by_test_id("tap-note")).to_contain_text(NOT_SENT)
    expect(rob.get_by_test_id("picker-form")).to_be_visible()  # the picked cards stay
    screenshot(rob, "hand-not-sent-360")
    assert sent == []

    rob.context.set_offline(False)
    all_answered(rob)
    expect(rob.get_by_test_id("my-hand")).to_have_attribute("data-entered", "yes",
                                                            timeout=LIVE_MS)
    assert len(sent) == 1
    expect(table.hand_row("Rob")).to_have_attribute("data-entered", "yes", timeout=LIVE_MS)
    allow_network_errors(console_errors)


# --------------------------------------------------------------------------- a boosted form


def test_a_form_that_changes_the_page_made_offline_goes_once_when_back(
        new_context, make_table, console_errors):
    # "Add a seat" is a plain form, boosted: its answer is the whole page again.
    context = new_context("tablet")
    tablet = context.new_page()
    make_table(tablet, "Seat night", ["Rob", "Sam", "Nick"], "trumplestiltskin")
    seats = tablet.locator("li.seat")
    expect(seats).to_have_count(3)
    sent = posts_to(tablet, r"/seats/add$")

    context.set_offline(True)
    tablet.get_by_test_id("add-seat").click()
    expect(tablet.get_by_test_id("tap-note")).to_contain_text(NOT_SENT)
    tablet.get_by_test_id("add-seat").click()  # tapped again meanwhile: the same tap
    expect(tablet.get_by_test_id("tap-note")).to_have_count(1)
    assert sent == []

    context.set_offline(False)
    all_answered(tablet)
    expect(seats).to_have_count(4, timeout=LIVE_MS)
    assert len(sent) == 1, sent
    tablet.reload()
    expect(tablet.locator("li.seat")).to_have_count(4)  # one seat more, on the server too
    allow_network_errors(console_errors)


# --------------------------------------------------------------------------- a link, no connection


def test_a_link_tapped_with_no_connection_on_plain_http_keeps_the_page(
        new_context, lan_url, console_errors, screenshot):
    context = new_context("phone", base_url=lan_url)
    page = context.new_page()
    page.goto("/")
    assert page.evaluate("'serviceWorker' in navigator") is False  # plain http, not localhost
    context.set_offline(True)
    page.get_by_test_id("start-table").click()
    news = page.get_by_test_id("tap-news")
    expect(news).to_contain_text("No connection")
    assert page.url.rstrip("/") == lan_url.rstrip("/"), "the page stays"
    expect(page.locator("#start-heading")).to_be_visible()
    screenshot(page, "link-no-connection")
    context.set_offline(False)
    page.get_by_test_id("start-table").click()
    expect(page.get_by_test_id("table-name")).to_be_visible(timeout=LIVE_MS)
    allow_network_errors(console_errors)
