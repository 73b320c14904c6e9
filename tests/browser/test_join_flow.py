"""Issue 3 in a real browser: a tablet makes a table, phones scan its QR and take seats.

"A tablet-sized page creates a table; two phone-sized browser contexts open
the QR's URL, take seats, and appear on the tablet within a few seconds
without a reload; a phone reloads and keeps its seat; the same flow with
JavaScript disabled; screenshots of the tablet and a phone saved with the
test output."
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.screens import in_first_screen
from tests.waiting import HANG_MS

LIVE_MS = HANG_MS  # a wait for the state, up to the hang ceiling
SHELL_PATHS = ("/static/app/", "/static/icons/", "/static/css/", "/offline")


def check_join_hooks(tablet: Page, join_url: str, base_url: str) -> None:
    """The tablet shows the QR, the join link and the short code, all for the same table."""
    assert join_url.startswith(f"{base_url}/j/"), "the QR must hold an address phones can open"
    assert tablet.locator("#join-url").get_attribute("href") == join_url
    expect(tablet.locator(".qr-box svg")).to_be_visible()
    code = tablet.locator("#join-code").get_attribute("data-code")
    assert join_url.endswith(f"/j/{code}")
    shown = re.sub(r"\s", "", tablet.locator("#join-code").inner_text())
    assert shown == code, "the short code under the QR is the one in the link"


def seat_row(page: Page, position: int):
    """The row of seat ``position`` in a page's list of seats."""
    return page.locator(f'li.seat[data-seat="{position}"]')


def take_named_seat(phone: Page, join_url: str, position: int) -> None:
    """Open the join page and tap the free seat ``position``, named by the scorekeeper."""
    phone.goto(join_url)
    phone.get_by_test_id(f"claim-{position}").click()


def take_blank_seat(phone: Page, join_url: str, position: int, name: str) -> None:
    """Open the join page, tap blank seat ``position`` and type ``name`` into it."""
    phone.goto(join_url)
    phone.get_by_test_id(f"claim-{position}").click()
    phone.get_by_test_id("your-name").fill(name)
    phone.get_by_test_id("take-seat").click()


def stored_by_service_worker(page: Page) -> list[str]:
    """The paths of everything in the page's Cache Storage."""
    return page.evaluate("""async () => {
        const paths = [];
        for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const request of await cache.keys()) paths.push(new URL(request.url).pathname);
        }
        return paths;
    }""")


def test_phones_take_seats_and_appear_on_the_tablet_without_a_reload(
        new_context, live_server, make_table, screenshot):
    tablet = new_context("tablet").new_page()
    join_url = make_table(tablet, "Friday night", ["Rob", "Sam", None], "trumplestiltskin")
    check_join_hooks(tablet, join_url, live_server)
    for position in (1, 2, 3):
        expect(seat_row(tablet, position)).to_have_attribute("data-joined", "no")
    screenshot(tablet, "tablet-made")
    # Set on the tablet's window: a reload would lose it.
    tablet.evaluate("window.companionNoReload = true")

    rob = new_context("phone").new_page()
    take_named_seat(rob, join_url, 1)
    expect(rob.locator("#you-are")).to_have_text("You are Rob (seat 1)")

    nick = new_context("phone").new_page()
    take_blank_seat(nick, join_url, 3, "Nick")
    expect(nick.locator("#you-are")).to_have_text("You are Nick (seat 3)")

    # The tablet shows both phones by itself, within a few seconds.
    expect(seat_row(tablet, 1)).to_have_attribute("data-joined", "yes", timeout=LIVE_MS)
    expect(seat_row(tablet, 3)).to_have_attribute("data-joined", "yes", timeout=LIVE_MS)
    expect(seat_row(tablet, 3).locator(".name")).to_have_text("Nick", timeout=LIVE_MS)
    expect(seat_row(tablet, 1).locator(".joined")).to_contain_text("joined")
    expect(seat_row(tablet, 2)).to_have_attribute("data-joined", "no")
    assert tablet.evaluate("window.companionNoReload") is True, "the tablet was reloaded"
    # Rob's phone sees Nick sit down too.
    expect(seat_row(rob, 3)).to_have_attribute("data-joined", "yes", timeout=LIVE_MS)

    # A phone that reloads (or sleeps and wakes) keeps its seat ...
    rob.reload()
    expect(rob.locator("#you-are")).to_have_text("You are Rob (seat 1)")
    # ... and scanning the QR again cannot give it a second one.
    rob.goto(join_url)
    expect(rob.locator("#you-are")).to_have_text("You are Rob (seat 1)")
    expect(seat_row(tablet, 2)).to_have_attribute("data-joined", "no")

    # Pages, partials and seats went through the service worker; it kept only the shell.
    strays = [p for p in stored_by_service_worker(rob) if not p.startswith(SHELL_PATHS)]
    assert not strays, f"the service worker stored more than the app shell: {strays}"

    screenshot(tablet, "tablet-seated", docs="tablet")
    screenshot(rob, "phone-seated", docs="phone")


def test_the_same_flow_works_without_javascript(new_context, live_server, make_table,
                                                 screenshot):
    tablet = new_context("tablet", js=False).new_page()
    join_url = make_table(tablet, "No-script night", ["Ann", "Bo", "Cy"], "trumplestiltskin")
    check_join_hooks(tablet, join_url, live_server)
    # Without JavaScript the scorekeeper's screen refreshes itself every few seconds.
    assert tablet.locator('noscript meta[http-equiv="refresh"], '
                          'meta[http-equiv="refresh"]').count() >= 1

    ann = new_context("phone", js=False).new_page()
    take_named_seat(ann, join_url, 1)
    expect(ann.locator("#you-are")).to_have_text("You are Ann (seat 1)")
    cy = new_context("phone", js=False).new_page()
    take_named_seat(cy, join_url, 3)
    expect(cy.locator("#you-are")).to_have_text("You are Cy (seat 3)")

    tablet.reload()
    expect(seat_row(tablet, 1)).to_have_attribute("data-joined", "yes")
    expect(seat_row(tablet, 3)).to_have_attribute("data-joined", "yes")
    expect(seat_row(tablet, 2)).to_have_attribute("data-joined", "no")

    ann.reload()
    expect(ann.locator("#you-are")).to_have_text("You are Ann (seat 1)")
    expect(seat_row(ann, 3)).to_have_attribute("data-joined", "yes")
    screenshot(tablet, "tablet-seated")
    screenshot(ann, "phone-seated")


def test_a_phone_that_lost_its_cookie_gets_its_seat_back_with_one_tap(
        new_context, make_table, screenshot):
    tablet = new_context("tablet").new_page()
    join_url = make_table(tablet, "Lost cookie", ["Rob", "Sam", "Nick"], "trumplestiltskin")

    phone_context = new_context("phone")
    sam = phone_context.new_page()
    take_named_seat(sam, join_url, 2)
    expect(sam.locator("#you-are")).to_have_text("You are Sam (seat 2)")
    expect(seat_row(tablet, 2)).to_have_attribute("data-joined", "yes", timeout=LIVE_MS)

    # The browser forgot everything (private tab closed, cookies cleared).
    phone_context.clear_cookies()
    sam.goto(join_url)
    expect(seat_row(sam, 2)).to_contain_text("taken")
    sam.once("dialog", lambda dialog: dialog.accept())
    sam.get_by_test_id("ask-2").click()
    expect(sam.locator("#waiting")).to_be_visible()
    screenshot(sam, "phone-waiting")

    # The request shows up on the tablet by itself; one tap approves it.
    request = tablet.locator('.request[data-seat="2"]')
    expect(request).to_be_visible(timeout=LIVE_MS)
    screenshot(tablet, "tablet-asked")
    request.get_by_role("button", name="Approve").click()
    expect(tablet.locator(".request")).to_have_count(0, timeout=LIVE_MS)

    # The phone's page notices by itself and holds the seat again, for good.
    expect(sam.locator("#you-are")).to_have_text("You are Sam (seat 2)", timeout=LIVE_MS)
    sam.reload()
    expect(sam.locator("#you-are")).to_have_text("You are Sam (seat 2)")
    expect(seat_row(tablet, 2)).to_have_attribute("data-joined", "yes")
    held = [p for p in (1, 2, 3) if seat_row(tablet, p).get_attribute("data-joined") == "yes"]
    assert held == [2], "the phone holds its one seat, and no other"


def test_a_free_seat_mid_game_is_the_scorekeeper_s_to_give(new_context, make_table,
                                                          start_with_defaults, screenshot):
    tablet = new_context("tablet", viewport={"width": 800, "height": 1280}).new_page()
    join_url = make_table(tablet, "Mid-game", ["Rob", "Sam", "Nick"], "trumplestiltskin")
    rob = new_context("phone").new_page()
    take_named_seat(rob, join_url, 1)
    expect(rob.locator("#you-are")).to_have_text("You are Rob (seat 1)")
    start_with_defaults(tablet)
    tablet.evaluate("window.companionNoReload = true")
    expect(tablet.get_by_test_id("requests")).to_be_hidden()

    # Another phone (Rob's second browser, or Sam) taps Sam's free seat: it waits.
    sam = new_context("phone").new_page()
    sam.goto(join_url)
    expect(sam.get_by_test_id("join-hint")).to_contain_text("the scorekeeper lets you in")
    # A tap on the wrong seat first: the phone stops asking, and the tablet forgets it.
    sam.get_by_test_id("claim-3").click()
    expect(sam.locator("#waiting")).to_be_visible()
    expect(tablet.locator('.request[data-seat="3"]')).to_be_visible(timeout=LIVE_MS)
    sam.get_by_test_id("withdraw").click()
    expect(tablet.get_by_test_id("requests")).to_be_hidden(timeout=LIVE_MS)
    sam.get_by_test_id("claim-2").click()
    expect(sam.locator("#waiting")).to_be_visible()
    expect(sam.locator("#you-live")).to_contain_text("tap Approve at the top of the big screen")
    screenshot(sam, "phone-waiting")

    # The tablet shows who asks for which seat at the top of its page, by itself.
    request = tablet.locator('.request[data-seat="2"]')
    expect(request).to_contain_text("A phone asks for Sam's seat (seat 2).", timeout=LIVE_MS)
    expect(request).to_contain_text("No phone holds this seat: the tablet plays for Sam now.")
    in_first_screen(tablet, tablet.get_by_test_id("requests"), "the request")
    screenshot(tablet, "tablet-request-800x1280")
    tablet.set_viewport_size({"width": 360, "height": 740})
    in_first_screen(tablet, request.get_by_role("button", name="Approve"), "Approve at 360 px")
    screenshot(tablet, "tablet-request-360")
    tablet.set_viewport_size({"width": 800, "height": 1280})
    expect(seat_row(tablet, 2)).to_have_attribute("data-joined", "no")
    assert tablet.evaluate("window.companionNoReload") is True, "the tablet was reloaded"

    # One tap approves: the phone's page turns into its seat page by itself.
    request.get_by_role("button", name="Approve").click()
    expect(tablet.get_by_test_id("requests")).to_be_hidden(timeout=LIVE_MS)
    expect(sam.locator("#you-are")).to_have_text("You are Sam (seat 2)", timeout=LIVE_MS)
    expect(seat_row(tablet, 2)).to_have_attribute("data-joined", "yes", timeout=LIVE_MS)
    expect(seat_row(rob, 2)).to_have_attribute("data-joined", "yes", timeout=LIVE_MS)
    screenshot(sam, "phone-seated")
