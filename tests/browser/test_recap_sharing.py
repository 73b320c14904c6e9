"""The night's recap sent on from the table, in a real browser.

An evening (imported through the API, as a table's exported record would be): a
Tromplemond for a €2.00 fee (Ana wins) and a Trumplestiltskin for points (Ben wins).

* A phone on the table's Wi-Fi opens the recap over plain http at a name that is not this
  machine (``lan_url``: Chromium resolves the made-up name to 127.0.0.1, so the page is
  not a secure context, as ``http://192.168.1.20:5000`` is not on a real phone). Even
  with a share sheet stubbed into the page, it offers no Share and no Copy button (neither
  works there), says why, and offers what does: the PNG, the SVG and the text as
  downloads (each saved as a file here), and a QR code of the recap's address.
* The same recap at 127.0.0.1 (a secure context) keeps Share and Copy, and the downloads.
* In Norwegian, French and German, at 200 % text on a 360 px phone, the page does not
  scroll sideways (the Norwegian "Del oppsummeringen" button did: 369 px in 360).

Screenshots: test-output/screenshots/test_recap_*.png; with ``COMPANION_FIT_SHOTS=1``
each state at 360 px and 800 px, light and dark, under test-output/fit/.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.fit import OVERFLOW, ROOT_FONT
from tests.waiting import HANG_MS

PLAYERS = ["Ana", "Ben", "Cleo", "Dev"]
SHARE_STUB = """
window.__shared = [];
Object.defineProperty(navigator, "canShare", {configurable: true, value: () => true});
Object.defineProperty(navigator, "share", {configurable: true, value: async (data) => {
  window.__shared.push({text: data.text, files: (data.files || []).length});
}});
"""


def evening() -> dict:
    """Ana wins a one-round Tromplemond for a €2.00 fee; Ben a Trumplestiltskin for points."""
    def quick(points: int) -> dict:
        return {"points": points, "public_jacks": 0, "secret_jacks": 0}

    fee = {"game": "tromplemond", "players": PLAYERS,
           "options": {"rounds": 1, "joining_fee": 200},
           "rounds": [{"hands": {"Ana": quick(30), "Ben": quick(20), "Cleo": quick(10)},
                       "voted_off": "Dev"}]}
    points = {"game": "trumplestiltskin", "players": PLAYERS, "first_dealer": "Ana",
              "options": {"target": 5},
              "rounds": [{"bids": [["Ben", 10], ["Cleo", "pass"], ["Dev", 12],
                                   ["Ana", "pass"], ["Ben", "pass"]],
                          "looked": ["Cleo"], "gnome": "9♥",
                          "points": {"Ana": 3, "Ben": 5, "Cleo": 2, "Dev": 6}}]}
    return {"unit": "EUR", "games": [fee, points]}


@pytest.fixture
def recap_path(new_context, live_server) -> str:
    """The path of the imported evening's recap (``/t/<code>/evenings/1/recap``)."""
    answer = new_context("tablet").request.post(
        f"{live_server}/api/evenings", data=json.dumps(evening()),
        headers={"Content-Type": "application/json"})
    assert answer.status == 201, answer.text()
    return answer.json()["evening_url"].removeprefix(live_server) + "/recap"


def saved(page, testid: str):
    """Tap the download ``testid``; the file the browser saves."""
    with page.expect_download(timeout=HANG_MS) as download:
        page.get_by_test_id(testid).click()
    return download.value


def test_recap_on_plain_http_at_the_table_offers_downloads_and_a_qr_code(
        new_context, lan_url, live_server, recap_path, screenshot):
    phone = new_context("phone", base_url=lan_url)
    phone.add_init_script(SHARE_STUB)  # a share sheet the page must still not trust
    page = phone.new_page()
    page.goto(lan_url + recap_path)
    assert page.evaluate("window.isSecureContext") is False
    recap = page.get_by_test_id("recap")
    expect(recap).to_have_attribute("data-ways", "download", timeout=HANG_MS)
    expect(page.get_by_test_id("share-recap")).to_be_hidden()
    expect(page.get_by_test_id("copy-recap")).to_be_hidden()
    expect(page.get_by_test_id("no-share")).to_be_visible()
    expect(page.get_by_test_id("download-png")).to_be_visible(timeout=HANG_MS)  # PNG drawn
    expect(page.get_by_test_id("recap-here").locator("svg#recap-qr")).to_be_visible()
    expect(page.get_by_test_id("recap-address")).to_have_text(live_server + recap_path)
    expect(page.get_by_test_id("no-link")).to_be_visible()  # a LAN address: not in the text

    code = recap_path.split("/")[2].lower()
    text = saved(page, "download-text")
    assert text.suggested_filename == f"recap-{code}-1.txt"
    said = open(text.path(), encoding="utf-8").read()
    assert "1. Tromplemond: won by Ana" in said and "Cleo pays Ana €2.00" in said
    assert "2. Trumplestiltskin: Ben 5 · Ana 0 · Cleo 0 · Dev −12" in said
    assert "http" not in said
    svg = saved(page, "download-svg")
    assert svg.suggested_filename == f"recap-{code}-1.svg"
    assert open(svg.path(), "rb").read().startswith(b"<svg")
    png = saved(page, "download-png")
    assert png.suggested_filename == f"recap-{code}-1.png"
    picture = open(png.path(), "rb").read()
    assert picture.startswith(b"\x89PNG\r\n\x1a\n") and len(picture) > 1000
    print(f"LAN recap: text {len(said.encode())} bytes, PNG {len(picture)} bytes")
    assert page.evaluate("window.__shared") == []
    screenshot(page, "lan-360")


def test_recap_on_a_secure_page_keeps_share_and_copy_and_the_downloads(
        new_context, live_server, recap_path, screenshot):
    phone = new_context("phone")
    phone.add_init_script(SHARE_STUB)
    page = phone.new_page()
    page.goto(live_server + recap_path)
    assert page.evaluate("window.isSecureContext") is True
    expect(page.get_by_test_id("recap")).to_have_attribute("data-ways", "share copy",
                                                           timeout=HANG_MS)
    for testid in ("share-recap", "copy-recap", "download-svg", "download-text"):
        expect(page.get_by_test_id(testid)).to_be_visible()
    expect(page.get_by_test_id("download-png")).to_be_visible(timeout=HANG_MS)
    expect(page.get_by_test_id("no-share")).to_be_hidden()
    page.get_by_test_id("share-recap").click()
    page.wait_for_function("window.__shared.length > 0", timeout=HANG_MS)
    shared = page.evaluate("window.__shared")[0]
    assert shared["files"] == 1 and "Trumplestiltskin: won by Ben" in shared["text"]
    screenshot(page, "secure-360")
    tablet = new_context("tablet", viewport={"width": 800, "height": 1280}).new_page()
    tablet.goto(live_server + recap_path)
    expect(tablet.get_by_test_id("download-png")).to_be_visible(timeout=HANG_MS)
    screenshot(tablet, "tablet-800")


@pytest.mark.parametrize("lang", ["nb", "fr", "de"])
def test_recap_fits_a_360_px_phone_at_200_percent_text(new_context, live_server, recap_path,
                                                       screenshot, lang):
    phone = new_context("phone", locale=lang, viewport={"width": 360, "height": 780})
    phone.add_init_script(SHARE_STUB)  # a phone's share sheet: its big button shows
    page = phone.new_page()
    page.goto(live_server + recap_path)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.get_by_test_id("share-recap")).to_be_visible(timeout=HANG_MS)
    expect(page.get_by_test_id("download-png")).to_be_visible(timeout=HANG_MS)
    page.evaluate(ROOT_FONT, "200%")
    wide, width, culprits = page.evaluate(OVERFLOW)
    print(f"{lang} recap at 200 % text: {wide} px wide in {width}")
    assert wide <= width, f"{lang}: {wide} px wide in {width} ({culprits})"
    page.evaluate(ROOT_FONT, "")
    screenshot(page, f"{lang}-360")  # and light, dark, 200 % (tests/browser/fit.py)
