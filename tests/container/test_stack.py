"""A table played on the compose stack, through Caddy over HTTPS (CI's container step).

The image built from the Dockerfile, its migrations applied by its entrypoint on the
stack's PostgreSQL, a gunicorn worker per core, the rate limits in one Redis and the
sealing keys in another, Caddy in front with a certificate from its own authority: a
tablet makes a Tromplemond table, four phones take their seats, vote (a sealed ballot:
the private key in the keys' Redis), the hands are entered and the game ends. Every table
screen hears its event stream through Caddy (it spoke: Caddy passes it unbuffered). The
ledger then shows what the evening's record says, and a payment marked on the tablet
reaches the payee's phone without a reload.

Skipped outside CI's container step (tests/container/conftest.py).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import expect

from companion.rules import evening as ledger_of
from tests.browser.games.tromplemond import (
    TromplemondTable,
    one_round_tromplemond,
    seat_four_phones,
)
from tests.waiting import HANG_MS


def transfer(page, payer: str, payee: str):
    """A transfer's line on a ledger page."""
    return page.locator(f'li.transfer[data-payer="{payer}"][data-payee="{payee}"]')


def test_a_table_is_played_through_the_proxy(new_context, stack_url):
    tablet = new_context("tablet").new_page()
    answer = tablet.goto("/")
    assert answer is not None and answer.ok
    assert urlsplit(tablet.url).scheme == "https"
    # A secure context: the certificate checked against Caddy's authority.
    assert tablet.evaluate("window.isSecureContext") is True

    # The seats: the join address is the stack's public one (COMPANION_PUBLIC_URL).
    join_url, phones = seat_four_phones(new_context, tablet)
    assert join_url.startswith(stack_url + "/")
    table = TromplemondTable(tablet, phones, join_url)
    # Each screen hears its table's event stream through the proxy (it spoke: not buffered).
    for page in table.pages():
        expect(page.locator("body")).to_have_attribute("data-stream", "on", timeout=HANG_MS)

    # The vote, the hands and the end of a one-round game for a £2.00 fee.
    one_round_tromplemond(table)

    # The ledger on the tablet shows what the evening's record says.
    tablet.get_by_test_id("ledger-link").click()
    expect(tablet.locator("#ledger")).to_have_attribute("data-evening", "1", timeout=HANG_MS)
    href = tablet.get_by_test_id("evening-json").get_attribute("href")
    # (fetched by the page: Playwright's own requests do not use Chromium's trust)
    record = tablet.evaluate("href => fetch(href).then(answer => answer.json())", href)
    assert record["games"][0]["players"] == ["Rob", "Sam", "Nick", "Emily"]
    result = ledger_of(record)
    for player, amount in result["net"].items():
        expect(tablet.locator(f'td[data-net="{player}"]')).to_have_attribute(
            "data-amount", str(amount), timeout=HANG_MS)
    assert result["owing"], "a £2.00 game leaves someone owing"
    payer, payee, amount = result["owing"][0]

    # The payee opens the ledger on their phone; the tablet marks the payment: the phone
    # follows without a reload.
    phone = phones[payee]
    phone.get_by_test_id("ledger-link").click()
    expect(transfer(phone, payer, payee)).to_have_attribute("data-amount", str(amount),
                                                            timeout=HANG_MS)
    tablet.get_by_test_id(f"mark-paid-{payer}-{payee}").click()
    expect(transfer(phone, payer, payee)).to_have_count(0, timeout=HANG_MS)
    expect(phone.locator(
        f'ul.payments-list li[data-payer="{payer}"][data-payee="{payee}"]')).to_be_visible(
        timeout=HANG_MS)


RESTART_NOISE = ("502", "ERR_", "htmx:sendError", "htmx:responseError")
"""What a page logs while the app it talks to is down (Caddy answers 502)."""


def test_a_vote_goes_on_across_a_restart_of_the_app(new_context, restart_app):
    tablet = new_context("tablet").new_page()
    join_url, phones = seat_four_phones(new_context, tablet)
    table = TromplemondTable(tablet, phones, join_url)
    table.start()
    table.open_vote()
    table.vote({"Rob": "Emily", "Sam": "Emily"})
    screens = table.pages()
    for page in screens:
        expect(page.get_by_test_id("slips-in")).to_contain_text("2 of 4", timeout=HANG_MS)
    assert new_context.errors == []

    restart_app()
    # Every screen hears the new server (its stream opened again and spoke).
    for page in screens:
        expect(page.locator("body")).to_have_attribute("data-stream", "on", timeout=HANG_MS)
    new_context.errors[:] = [error for error in new_context.errors
                             if not any(noise in error for noise in RESTART_NOISE)]

    # The two slips dropped before it still count: the last two make the count.
    for page in screens:
        expect(page.get_by_test_id("slips-in")).to_contain_text("2 of 4", timeout=HANG_MS)
    table.vote({"Nick": "Emily", "Emily": "Rob"})
    table.expect_counts({"Rob": 1, "Sam": 0, "Nick": 0, "Emily": 3})
    for page in screens:
        expect(page.locator("#round")).not_to_contain_text("The server restarted")
