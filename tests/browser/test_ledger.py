"""Issue 12 in a real browser: an evening's ledger on the tablet and on two phones.

Rob, Sam, Nick and Emily play a Tromplemond of one round for a £2.00 joining
fee (Emily goes off; Rob wins, Sam is runner-up). The scorekeeper then picks
Clumond as the next game, takes Emily's seat away (she sits out) and starts a
Clumond of one round, Nick dealing first, with no chip value. Rob, Sam and Nick
say no to going for Clumond on their phones, then save their tricks and kept
cards there (3, 4 and 6 tricks; declarations 3, 8 and 1), and the tablet
confirms the round, which ends the game (Rob +9 chips, Sam −4, Nick −5).
Emily's seat is added back and her phone takes it again.

The scorekeeper sets the chip value (5p) on the ledger page, and the grid
follows. Emily and Rob open the ledger on their phones: each sees their own
row and transfers picked out. Rob's phone marks Emily's £2.00 paid, the
scorekeeper marks Nick's, then takes it back; every screen follows without a
reload. The scorekeeper closes the evening and finds it again under the past
evenings.

Screenshots: test-output/screenshots/test_an_evening_*.png.
"""

from __future__ import annotations

from playwright.sync_api import expect

from companion.rules import evening as ledger_of
from tests.browser.games.tromplemond import one_round_tromplemond
from tests.browser.screens import accept_next_dialog, end_game
from tests.waiting import HANG_MS

WAIT_MS = HANG_MS  # a wait for the state, up to the hang ceiling
CLUMOND_ROUND = {"Rob": (3, ["3♥", "7♠", "4♦"]),   # declares 2 + 1 + 0 = 3: made it
                 "Sam": (4, ["A♣", "2♣", "K♥"]),   # declares 3 + 3 + 2 = 8: 4 off
                 "Nick": (6, ["5♦", "6♦", "Q♠"])}  # declares 0 + 0 + 1 = 1: 5 off


def play_clumond(table, clumond_table):
    """Between games the tablet turns the table to a Clumond of Rob, Sam and Nick, which they
    play on their phones (one round, Nick dealing), and Emily's seat comes back after it."""
    tablet, phones = table.tablet, table.phones
    tablet.get_by_test_id("next-game").select_option("clumond")
    tablet.get_by_test_id("set-next-game").click()
    expect(tablet.get_by_test_id("start-problems")).to_contain_text(
        "Clumond is for 3 players, not 4", timeout=WAIT_MS)
    accept_next_dialog(tablet)  # "Take seat 4 away? Emily sits out the next game."
    tablet.get_by_test_id("remove-4").click()
    expect(tablet.locator("li.seat")).to_have_count(3, timeout=WAIT_MS)
    expect(tablet.get_by_test_id("start-problems")).to_have_count(0, timeout=WAIT_MS)
    expect(phones["Emily"].get_by_test_id("lost-seat")).to_be_visible(timeout=WAIT_MS)
    tablet.get_by_test_id("dealer-choice").select_option("3")
    tablet.get_by_test_id("set-dealer").click()
    expect(tablet.locator("#first-dealer")).to_have_text("Nick (seat 3) deals first.",
                                                         timeout=WAIT_MS)

    # The options: one round, and no chip value yet (the ledger sets it).
    tablet.get_by_test_id("start-game").click()
    expect(tablet.get_by_test_id("options-form")).to_be_visible(timeout=WAIT_MS)
    tablet.get_by_test_id("rounds").fill("1")
    tablet.get_by_test_id("unit").select_option("GBP")
    expect(tablet.get_by_test_id("chip-value")).to_have_value("")
    tablet.get_by_test_id("start-options").click()
    clumond = clumond_table(tablet, {name: phones[name] for name in CLUMOND_ROUND})
    clumond.wait_phase("offer")
    for page in clumond.pages():
        expect(page.get_by_test_id("dealer")).to_contain_text("Nick deals", timeout=WAIT_MS)

    # Nobody goes for Clumond (asked from the dealer's left); the phones save the round.
    clumond.nobody_goes(["Rob", "Sam", "Nick"])
    clumond.enter_all(CLUMOND_ROUND)
    expect(tablet.get_by_test_id("ends-game")).to_be_visible(timeout=WAIT_MS)
    clumond.confirm_round()
    # 100 each, 5 ante each: pot 15, +4 and +5 paid = 24; Rob made it: ⅓ = 8; the 16 left
    # are shared out at the end, 6 to Rob (left of the dealer) and 5 each to Sam and Nick.
    clumond.wait_phase("end")
    clumond.expect_stacks({"Rob": 109, "Sam": 96, "Nick": 95})
    end_game(tablet)  # the one next step: "Close game 2 and go on"

    # Emily's seat comes back (for the next game); her phone takes it again.
    tablet.get_by_test_id("add-seat").click()
    expect(tablet.locator("li.seat")).to_have_count(4, timeout=WAIT_MS)
    tablet.get_by_test_id("rename-4").click()
    tablet.get_by_test_id("seat-name").fill("Emily")
    tablet.get_by_test_id("save-name").click()
    expect(tablet.locator('li.seat[data-seat="4"]')).to_contain_text("Emily", timeout=WAIT_MS)
    emily = phones["Emily"]
    emily.goto(table.join_url)
    emily.get_by_test_id("claim-4").click()
    # The table has played a game: the scorekeeper lets her in.
    expect(emily.locator("#waiting")).to_be_visible(timeout=WAIT_MS)
    tablet.locator('.request[data-seat="4"]').get_by_role("button", name="Approve").click()
    expect(emily.locator("#you-are")).to_have_text("You are Emily (seat 4)", timeout=WAIT_MS)
    # The tablet sees her seated again.
    expect(tablet.locator('li.seat[data-seat="4"]')).to_have_attribute("data-joined", "yes",
                                                                      timeout=WAIT_MS)


def transfer(page, payer: str, payee: str):
    return page.locator(f'li.transfer[data-payer="{payer}"][data-payee="{payee}"]')


def payment(page, payer: str, payee: str):
    return page.locator(f'ul.payments-list li[data-payer="{payer}"][data-payee="{payee}"]')


def cell(page, player: str, game: int):
    return page.locator(f'table.ledger-grid tr[data-player="{player}"] td[data-game="{game}"]')


def record_of(page) -> dict:
    """The evening's record, exported from the ledger page's own link."""
    href = page.get_by_test_id("evening-json").get_attribute("href")
    return page.context.request.get(href).json()


def test_an_evening_on_the_ledger(tromplemond_table, clumond_table, screenshot):
    table = tromplemond_table()
    tablet, phones = table.tablet, table.phones

    # A Tromplemond for a £2.00 fee, one round: Emily goes off, the tablet enters the hands.
    one_round_tromplemond(table)

    # Then a Clumond of Rob, Sam and Nick, for chips, on their screens.
    play_clumond(table, clumond_table)

    # The ledger on the tablet: the Clumond's chips are not money until they have a value.
    tablet.get_by_test_id("ledger-link").click()
    expect(tablet.locator("#ledger")).to_have_attribute("data-evening", "1", timeout=WAIT_MS)
    expect(tablet.get_by_test_id("no-chip-value-note")).to_be_visible(timeout=WAIT_MS)
    expect(cell(tablet, "Rob", 2)).to_have_attribute("data-chips", "9", timeout=WAIT_MS)
    tablet.get_by_test_id("chip-value-2").fill("0.05")
    tablet.get_by_test_id("set-chip-value-2").click()
    expect(cell(tablet, "Rob", 2)).to_have_attribute("data-amount", "45", timeout=WAIT_MS)
    expect(tablet.get_by_test_id("no-chip-value-note")).to_have_count(0, timeout=WAIT_MS)

    record = record_of(tablet)
    clumond = record["games"][1]  # as the screens made it
    assert clumond["game"] == "clumond" and clumond["players"] == ["Rob", "Sam", "Nick"]
    assert clumond["first_dealer"] == "Nick" and clumond["options"]["rounds"] == 1
    assert clumond["options"]["chip_value"] == 5
    assert clumond["rounds"][0]["tricks"] == {"Rob": 3, "Sam": 4, "Nick": 6}
    assert {name: sorted(cards) for name, cards in clumond["rounds"][0]["kept"].items()} == {
        name: sorted(kept) for name, (_, kept) in CLUMOND_ROUND.items()}
    result = ledger_of(record)
    assert result["net"] == {"Rob": 445, "Sam": -20, "Nick": -225, "Emily": -200}
    for index, game in enumerate(result["games"], 1):
        for player, amount in game["money"].items():
            expect(cell(tablet, player, index)).to_have_attribute("data-amount", str(amount),
                                                                  timeout=WAIT_MS)
    for player, amount in result["net"].items():
        expect(tablet.locator(f'td[data-net="{player}"]')).to_have_attribute(
            "data-amount", str(amount), timeout=WAIT_MS)
    owing = {(payer, payee): amount for payer, payee, amount in result["owing"]}
    assert owing[("Emily", "Rob")] == 200 and ("Nick", "Rob") in owing
    expect(tablet.locator("li.transfer")).to_have_count(len(owing), timeout=WAIT_MS)
    screenshot(tablet, "tablet-ledger")

    # Two phones open it: each sees its own row and its own transfers.
    for name in ("Emily", "Rob"):
        phones[name].get_by_test_id("ledger-link").click()
        expect(phones[name].locator("#ledger")).to_be_visible(timeout=WAIT_MS)
        expect(phones[name].locator(f'table.ledger-grid tr.mine[data-player="{name}"]')
               ).to_be_visible(timeout=WAIT_MS)
    emily, rob = phones["Emily"], phones["Rob"]
    expect(transfer(emily, "Emily", "Rob")).to_have_class("transfer mine", timeout=WAIT_MS)
    expect(transfer(emily, "Emily", "Rob")).to_contain_text("You pay Rob £2.00", timeout=WAIT_MS)
    expect(transfer(emily, "Nick", "Rob")).to_have_class("transfer", timeout=WAIT_MS)
    expect(transfer(rob, "Emily", "Rob")).to_contain_text("Emily pays you £2.00", timeout=WAIT_MS)
    expect(emily.get_by_test_id("mark-paid-Emily-Rob")).to_have_count(0, timeout=WAIT_MS)
    screenshot(emily, "emily-ledger")

    # Rob, the payee, marks Emily's £2.00 paid on his phone: every screen follows.
    rob.get_by_test_id("mark-paid-Emily-Rob").click()
    for page in (rob, emily, tablet):
        expect(transfer(page, "Emily", "Rob")).to_have_count(0, timeout=WAIT_MS)
        expect(payment(page, "Emily", "Rob")).to_be_visible(timeout=WAIT_MS)
    screenshot(rob, "rob-marked-paid")

    # The scorekeeper marks Nick's transfer paid, then takes it back.
    nick_owes = owing[("Nick", "Rob")]
    tablet.get_by_test_id("mark-paid-Nick-Rob").click()
    expect(payment(rob, "Nick", "Rob")).to_have_attribute("data-amount", str(nick_owes),
                                                         timeout=WAIT_MS)
    expect(transfer(rob, "Nick", "Rob")).to_have_count(0, timeout=WAIT_MS)
    assert record_of(tablet)["paid"] == [["Emily", "Rob", 200], ["Nick", "Rob", nick_owes]]
    undo = payment(tablet, "Nick", "Rob").get_by_role("button", name="Undo")
    accept_next_dialog(tablet)
    undo.click()
    for page in (tablet, rob, emily):
        expect(payment(page, "Nick", "Rob")).to_have_count(0, timeout=WAIT_MS)
        expect(transfer(page, "Nick", "Rob")).to_have_attribute(
            "data-amount", str(nick_owes), timeout=WAIT_MS)
    record = record_of(tablet)
    assert record["paid"] == [["Emily", "Rob", 200]]
    still = ledger_of(record)["owing"]
    rows = tablet.locator("li.transfer")
    expect(rows).to_have_count(len(still), timeout=WAIT_MS)
    assert [[row.get_attribute("data-payer"), row.get_attribute("data-payee"),
             int(row.get_attribute("data-amount"))] for row in rows.all()] == still
    expect(tablet.get_by_test_id("square")).to_have_count(0, timeout=WAIT_MS)

    # The scorekeeper closes the evening; the phones see it closed.
    accept_next_dialog(tablet)
    tablet.get_by_test_id("close-evening").click()
    expect(tablet.locator("#ledger")).to_have_attribute("data-closed", "yes", timeout=WAIT_MS)
    for page in (rob, emily):
        expect(page.get_by_test_id("evening-closed")).to_be_visible(timeout=WAIT_MS)
    screenshot(tablet, "tablet-closed")

    # Found again under the past evenings, with its ledger and each player's balance.
    tablet.get_by_test_id("past-evenings").click()
    expect(tablet.get_by_test_id("evening-1")).to_be_visible(timeout=WAIT_MS)
    expect(tablet.locator('td[data-balance="Rob"]')).to_have_attribute("data-amount", "445",
                                                                      timeout=WAIT_MS)
    tablet.get_by_test_id("evening-1").click()
    expect(tablet.get_by_test_id("evening-title")).to_contain_text("Evening 1", timeout=WAIT_MS)
    expect(tablet.get_by_test_id("evening-closed")).to_be_visible(timeout=WAIT_MS)
    expect(cell(tablet, "Rob", 2)).to_have_attribute("data-amount", "45", timeout=WAIT_MS)
    assert record_of(tablet) == record
    screenshot(tablet, "tablet-past-evening")
