"""The start form's money select in a real browser: a Norwegian phone that keeps score
finds kroner chosen and first, the usual currencies next and every other one by name, and
the form still fits a 360 px phone at 200 % text with all of them in it (the screenshot
checks it: tests/browser/fit.py); a Japanese tablet finds yen chosen.

Screenshots: test-output/screenshots/test_the_money_select_*.png.
"""

from __future__ import annotations

from playwright.sync_api import expect


def test_the_money_select_offers_the_device_s_currency_first_and_fits_a_phone(
        new_context, make_table, screenshot):
    phone = new_context("phone", locale="nb-NO").new_page()
    join_url = make_table(phone, "Fredag", ["Rob", "Sam", "Nick", "Emily"], "tromplemond")
    code = join_url.rstrip("/").rsplit("/", 1)[-1]
    phone.goto(f"/t/{code}/start")
    unit = phone.get_by_test_id("unit")
    expect(unit).to_have_value("NOK")
    expect(unit.locator("option").first).to_have_text("norske kroner (NOK)")
    expect(unit.locator("optgroup")).to_have_attribute("label", "Andre valutaer")
    assert unit.locator("optgroup option").count() > 100
    screenshot(phone, "phone-nb")
    unit.select_option("AUD")  # one from the list by name
    expect(unit).to_have_value("AUD")
    phone.get_by_test_id("joining-fee").fill("12,50")
    phone.get_by_test_id("start-options").click()  # the seats are not taken yet: refused
    expect(phone.get_by_test_id("unit")).to_have_value("AUD")  # the choice stays on the form
    expect(phone.get_by_test_id("joining-fee")).to_have_value("12,50")

    tablet = new_context("tablet", locale="ja-JP").new_page()
    join_url = make_table(tablet, "金曜日", ["Rob", "Sam", "Nick", "Emily"], "tromplemond")
    tablet.goto(f"/t/{join_url.rstrip('/').rsplit('/', 1)[-1]}/start")
    expect(tablet.get_by_test_id("unit")).to_have_value("JPY")
    screenshot(tablet, "tablet-ja")
