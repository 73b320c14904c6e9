"""Issue 32 in a real browser: two evenings at one table, the record book and the recap.

Rob, Sam, Nick and Emily play a Tromplemond of one round for a £2.00 fee (Emily goes off;
Rob wins) and the scorekeeper closes the evening. At the end of the night each phone
leaves its seat. The next evening each phone opens the join link again and is offered its
player in one tap ("I'm Rob"), without the scorekeeper approving it; they play another
such game and the evening is closed. The record book (a tap from the ledger) shows the
figures ``companion.rules.records.record_book`` gives for the two evenings' exported
records; the recap of the second night is shared from a phone (the Web Share API, stubbed
in the page, gets the PNG and the text that names the winner and the transfers). The
record book and the recap fit a 360 px screen and axe-core finds no violation on them, of
any impact.

Screenshots: test-output/screenshots/test_two_evenings_*.png (360 px and 800 × 1280).
"""

from __future__ import annotations

from playwright.sync_api import expect

from companion.rules import evening as ledger_of
from companion.rules.records import record_book
from tests.browser.fit import _axe
from tests.browser.games.tromplemond import one_round_tromplemond
from tests.browser.screens import accept_next_dialog
from tests.waiting import HANG_MS

WAIT_MS = HANG_MS  # a wait for the state, up to the hang ceiling

SHARE_STUB = """
window.__shared = [];
Object.defineProperty(navigator, "canShare", {configurable: true,
  value: (data) => Boolean(data && data.files && data.files.every((f) => f.type === "image/png"))});
Object.defineProperty(navigator, "share", {configurable: true, value: async (data) => {
  window.__shared.push({text: data.text, title: data.title,
    files: (data.files || []).map((f) => ({name: f.name, type: f.type, size: f.size}))});
}});
"""


def close_evening(tablet, number: int) -> dict:
    """The scorekeeper closes the evening on its ledger; its exported record."""
    tablet.get_by_test_id("ledger-link").click()
    expect(tablet.locator("#ledger")).to_have_attribute("data-evening", str(number),
                                                        timeout=WAIT_MS)
    accept_next_dialog(tablet)
    tablet.get_by_test_id("close-evening").click()
    expect(tablet.locator("#ledger")).to_have_attribute("data-closed", "yes", timeout=WAIT_MS)
    href = tablet.get_by_test_id("evening-json").get_attribute("href")
    return tablet.context.request.get(href).json()


def fits_360(page) -> None:
    """No sideways scrolling on a 360 px wide phone."""
    page.set_viewport_size({"width": 360, "height": 740})
    width = page.evaluate("document.scrollingElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, f"{page.url}: {width} px wide on a {inner} px screen"


def no_axe_violation(page) -> None:
    """axe-core finds nothing on the page, of any impact (every rule: tests/browser/fit.py)."""
    found = _axe(page)
    assert found == [], f"{page.url}: {found}"


def test_two_evenings_at_one_table(tromplemond_table, new_context, screenshot):
    table = tromplemond_table()
    tablet, phones = table.tablet, table.phones

    # Evening 1.
    one_round_tromplemond(table)
    first = close_evening(tablet, 1)

    # The night ends: each phone leaves its seat.
    base, code = table.join_url.split("/j/")
    code = code.strip("/").split("?")[0]
    for page in phones.values():
        page.goto(f"{base}/t/{code}/seat")
        accept_next_dialog(page)
        page.get_by_test_id("leave-seat").click()
        expect(page.get_by_test_id("claim-1")).to_be_visible(timeout=WAIT_MS)

    # Evening 2: each phone opens the join link and is offered its player, one tap.
    for position, (name, page) in enumerate(phones.items(), 1):
        page.goto(table.join_url)
        offer = page.get_by_test_id("sit-again")
        expect(offer).to_contain_text(f"I'm {name}", timeout=WAIT_MS)
        offer.click()
        expect(page.locator("#you-are")).to_have_text(f"You are {name} (seat {position})",
                                                      timeout=WAIT_MS)
    tablet.goto(f"{base}/t/{code}")
    for position in range(1, 5):
        expect(tablet.locator(f'li.seat[data-seat="{position}"]')).to_have_attribute(
            "data-joined", "yes", timeout=WAIT_MS)
    expect(tablet.locator(".request")).to_have_count(0)  # nobody had to be let in
    one_round_tromplemond(table)
    second = close_evening(tablet, 2)
    assert first["player_ids"] == second["player_ids"]

    # The record book, a tap from the ledger on a phone: the rules' figures.
    book = record_book([first, second])
    rob = phones["Rob"]
    rob.goto(f"{base}/t/{code}/evenings/2")
    rob.get_by_test_id("record-book").click()
    expect(rob.get_by_test_id("table-records")).to_be_visible(timeout=WAIT_MS)
    for player in book.players:
        section = rob.locator(f'[data-testid="book-player"][data-player="{player.id}"]')
        figures = player.games["tromplemond"]
        expect(section.get_by_test_id("player-name")).to_have_text(player.name)
        expect(section.locator('[data-testid="played"] .value')).to_have_text("2")
        expect(section.locator('[data-testid="won"] .value')).to_have_text(
            str(figures.won.value))
    expect(rob.locator('[data-testid="book-player"].mine')).to_have_attribute(
        "data-player", first["player_ids"]["Rob"])
    fits_360(rob)
    screenshot(rob, "book-360")
    no_axe_violation(rob)

    # The recap of the second night, shared from Sam's phone.
    sam = phones["Sam"]
    sam.context.add_init_script(SHARE_STUB)
    sam.goto(f"{base}/t/{code}/evenings/2/recap")
    expect(sam.get_by_test_id("recap-picture").locator("svg")).to_be_visible(timeout=WAIT_MS)
    expect(sam.get_by_test_id("download-png")).to_be_visible(timeout=WAIT_MS)  # PNG drawn
    sam.get_by_test_id("share-recap").click()
    sam.wait_for_function("window.__shared.length > 0", timeout=WAIT_MS)
    shared = sam.evaluate("window.__shared")[0]
    assert shared["files"][0]["type"] == "image/png" and shared["files"][0]["size"] > 1000
    print(f"recap PNG: {shared['files'][0]['size']} bytes")
    assert "Tromplemond: won by Rob" in shared["text"]
    owing = ledger_of(second)["owing"]
    assert owing
    for payer, payee, _amount in owing:
        assert f"{payer} pays {payee}" in shared["text"]
    fits_360(sam)
    screenshot(sam, "recap-360")
    no_axe_violation(sam)

    # The same pages on a tablet-sized screen.
    big = new_context("tablet", viewport={"width": 800, "height": 1280}).new_page()
    for path, step in ((rob.url, "book-800"), (sam.url, "recap-800")):
        big.goto(path)
        expect(big.locator("h1")).to_be_visible()
        screenshot(big, step)

