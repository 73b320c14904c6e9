"""Issue 8 in a real browser: a whole Clumond game, played by three phones and the tablet.

Ann, Bo and Cy sit clockwise; the scorekeeper first lets the app draw a dealer, then chooses
Cy. They play four rounds for 100 chips each, a 5-chip ante, one chip worth £0.10:

- round 1 (Cy deals): nobody goes for Clumond; the three phones save their tricks and kept
  cards in the same instant, Cy with Ann's 3♥: both are told, naming the card, the tablet
  cannot confirm until Cy fixes it. Ann and Bo make their declarations: ⅓ of the pot each;
- round 2 (Ann deals): the tricks first add up to 14, refused everywhere until fixed; nobody
  makes it, so the pot carries;
- round 3 (Bo deals): Cy goes for Clumond with ♠ trumps on the phone and takes the whole pot;
- round 1 is corrected from the tablet's score table (Bo's 6♦ was the 6♠): every stack after
  it follows, and each phone is told how its stack changed;
- round 4 (Cy deals): Bo goes for Clumond with no trumps and misses: the pot is split between
  Ann and Cy, the odd chip stays, and, the game being over, it is shared out to Ann;
- the end: the winner, the share-out, the final stacks, net chips, net money and who pays whom,
  on the tablet and on every phone (each highlighting its own line), the same numbers as
  ``replay`` of the exported record.

Screenshots of the steps: test-output/screenshots/test_a_whole_clumond_game_*.png.
"""

from __future__ import annotations

import html

from playwright.sync_api import expect

from companion.rules import replay, settle_up
from tests.browser.screens import touch_sized
from tests.waiting import HANG_MS

WAIT_MS = HANG_MS  # a wait for the state, up to the hang ceiling
PLAYERS = ("Ann", "Bo", "Cy")


def test_a_whole_clumond_game(new_context, make_table, clumond_table, screenshot):
    tablet = new_context("tablet", viewport={"width": 800, "height": 1280}).new_page()
    join_url = make_table(tablet, "Clumond night", list(PLAYERS), "clumond")
    expect(tablet.locator("#first-dealer")).to_contain_text("drawn at random")
    tablet.get_by_test_id("dealer-choice").select_option("3")
    tablet.get_by_test_id("set-dealer").click()
    expect(tablet.locator("#first-dealer")).to_have_text("Cy (seat 3) deals first.")
    phones = {}
    for position, player in enumerate(PLAYERS, 1):
        phone = new_context("phone").new_page()
        phone.goto(join_url)
        phone.get_by_test_id(f"claim-{position}").click()
        expect(phone.locator("#you-are")).to_have_text(f"You are {player} (seat {position})")
        phones[player] = phone
    table = clumond_table(tablet, phones)
    above_the_fold, said = table.above_the_fold, table.said
    for position in (1, 2, 3):
        expect(tablet.locator(f'li.seat[data-seat="{position}"]')).to_have_attribute(
            "data-joined", "yes", timeout=WAIT_MS)

    # --- The options: 4 rounds, a chip worth £0.10 ---------------------------------------------
    tablet.get_by_test_id("start-game").click()
    expect(tablet.get_by_test_id("options-form")).to_be_visible()
    expect(tablet.get_by_test_id("stack")).to_have_value("100")
    expect(tablet.get_by_test_id("ante")).to_have_value("5")
    tablet.get_by_test_id("rounds").fill("4")
    tablet.get_by_test_id("unit").select_option("GBP")
    tablet.get_by_test_id("chip-value").fill("0.10")
    tablet.get_by_test_id("start-options").click()
    table.wait_phase("offer")

    # --- Round 1: the deck, the antes, the offers -------------------------------------------
    for page in table.pages():
        expect(page.get_by_test_id("round-head")).to_contain_text("Round 1 of 4")
        expect(page.get_by_test_id("dealer")).to_contain_text("Cy deals")
        expect(page.get_by_test_id("dealer-how")).to_have_text("(chosen by the scorekeeper)")
        expect(page.get_by_test_id("deck-steps")).to_contain_text("Remove the four 10s")
    expect(tablet.get_by_test_id("pot")).to_have_text("Pot 0 → 15 with the antes (5 each)")
    expect(phones["Bo"].get_by_test_id("pot")).to_contain_text(
        "Your stack 100 · you ante 5 · pot 15 after the antes")
    expect(phones["Ann"].get_by_test_id("go-for-clumond")).to_be_visible()
    above_the_fold(phones["Ann"], phones["Ann"].get_by_test_id("offer-no"))
    touch_sized(phones["Ann"].locator("#round button:visible"))
    above_the_fold(tablet, tablet.get_by_test_id("next-action"))
    expect(phones["Bo"].get_by_test_id("offer-turn")).to_contain_text("Ann is deciding")
    expect(tablet.locator('[data-testid="offers"] li[data-said="now"]')).to_contain_text("Ann")
    screenshot(tablet, "01-tablet-offer")
    screenshot(phones["Ann"], "01-ann-offer")
    table.nobody_goes(["Ann", "Bo", "Cy"])
    expect(tablet.get_by_test_id("round-line")).to_have_text(
        "Nobody went for Clumond: no trumps · Ann leads.")

    # --- Round 1: three phones save at once, Cy with Ann's 3♥ ---------------------------------
    above_the_fold(phones["Cy"], phones["Cy"].get_by_test_id("enter-mine"))
    table.open_entry("Ann")
    above_the_fold(phones["Ann"], phones["Ann"].get_by_test_id("save-entry"))
    touch_sized(phones["Ann"].locator("label.tile, label.pick"))
    table.pick("Ann", 3, ["3♥", "7♠", "4♦"])
    expect(phones["Ann"].get_by_test_id("working")).to_contain_text(
        "3 tricks: 3 count · declaration 3♥ 7♠ 4♦: 2 + 1 + 0 = 3")
    screenshot(phones["Ann"], "02-ann-entry")
    table.open_entry("Bo")
    table.pick("Bo", 4, ["A♣", "5♠", "6♦"])
    table.open_entry("Cy")
    table.pick("Cy", 6, ["5♦", "Q♠", "3♥"])
    table.save_at_once(PLAYERS)
    conflict = "3♥ is in both Ann's and Cy's kept cards"
    for name in ("Ann", "Cy"):
        expect(phones[name].get_by_test_id("my-problems")).to_contain_text(conflict,
                                                                          timeout=WAIT_MS)
    expect(phones["Bo"].get_by_test_id("problem-elsewhere")).to_be_visible(timeout=WAIT_MS)
    expect(tablet.get_by_test_id("problems")).to_contain_text(conflict, timeout=WAIT_MS)
    expect(tablet.get_by_test_id("confirm-round")).to_be_disabled()
    above_the_fold(tablet, tablet.get_by_test_id("confirm-round"))
    above_the_fold(phones["Cy"], phones["Cy"].get_by_test_id("my-problems"))
    screenshot(phones["Cy"], "03-cy-conflict")
    screenshot(tablet, "03-tablet-conflict")
    form = tablet.locator('form:has([data-testid="confirm-round"])')
    refused = tablet.context.request.post(
        form.get_attribute("action"),
        form={"csrf_token": form.locator('input[name="csrf_token"]').input_value(),
              "round": form.locator('input[name="round"]').input_value()},
        max_redirects=0)
    assert refused.status == 409 and conflict in html.unescape(refused.text())
    table.open_entry("Cy")
    expect(phones["Cy"].get_by_test_id("problems")).to_contain_text(conflict)
    table.pick("Cy", 6, ["5♦", "Q♠", "2♦"])
    table.save_at_once(["Cy"])
    expect(tablet.get_by_test_id("problems")).to_have_count(0, timeout=WAIT_MS)
    expect(phones["Ann"].get_by_test_id("my-problems")).to_have_count(0, timeout=WAIT_MS)

    # --- Round 1: the scores, on the tablet and each phone's own line -------------------------
    preview = tablet.get_by_test_id("preview")
    expect(preview).to_be_visible(timeout=WAIT_MS)
    expect(tablet.get_by_test_id("pot-story")).to_contain_text("→ 20 after the payments")
    expect(tablet.get_by_test_id("pot-story")).to_contain_text(
        "⅓ of that each to whoever made it: Ann 6 Bo 6")
    expect(tablet.get_by_test_id("pot-story")).to_contain_text("8 stay in the pot")
    expect(tablet.locator('[data-explain="Cy"]')).to_contain_text(
        "6 tricks: 6 count, declared 1: 5 off, pays 5")
    expect(phones["Ann"].get_by_test_id("my-explain")).to_have_text(
        "3 tricks: 3 count, declared 3: made it, takes ⅓ of the pot: 6", timeout=WAIT_MS)
    expect(phones["Cy"].get_by_test_id("my-stack-after")).to_have_text("90", timeout=WAIT_MS)
    expect(tablet.get_by_test_id("next-dealer")).to_have_text("Then Ann deals.")
    expect(phones["Bo"].get_by_test_id("my-round")).to_be_visible(timeout=WAIT_MS)
    screenshot(tablet, "04-tablet-round-1")
    screenshot(phones["Bo"], "04-bo-round-1")
    table.confirm_round()
    table.expect_stacks({"Ann": 101, "Bo": 101, "Cy": 90})
    table.wait_phase("offer")
    for page in table.pages():
        expect(page.get_by_test_id("dealer")).to_contain_text("Ann deals", timeout=WAIT_MS)

    # --- Round 2: the tricks add up to 14, refused; nobody makes it, the pot carries ----------
    expect(tablet.get_by_test_id("pot")).to_have_text("Pot 8 → 23 with the antes (5 each)")
    table.nobody_goes(["Bo", "Cy", "Ann"])
    table.enter_all({"Ann": (4, ["K♥", "2♦", "3♦"]), "Bo": (5, ["A♣", "K♣", "Q♣"]),
                     "Cy": (5, ["4♦", "5♦", "7♦"])})
    wrong = "The tricks add up to 14, not 13"
    for page in table.pages():
        expect(page.locator("#round")).to_contain_text(wrong, timeout=WAIT_MS)
    expect(tablet.get_by_test_id("confirm-round")).to_be_disabled()
    screenshot(phones["Bo"], "05-bo-tricks-wrong")
    table.open_entry("Cy")
    table.pick("Cy", 4, ["4♦", "5♦", "7♦"])
    table.save_at_once(["Cy"])
    expect(tablet.locator("#round")).not_to_contain_text(wrong, timeout=WAIT_MS)
    expect(tablet.get_by_test_id("pot-story")).to_contain_text("nobody made it",
                                                               timeout=WAIT_MS)
    expect(tablet.get_by_test_id("pot-story")).to_contain_text("33 stay in the pot")
    table.confirm_round()
    table.expect_stacks({"Ann": 94, "Bo": 92, "Cy": 81})
    expect(tablet.locator('[data-testid="score-table"] tfoot td[data-pot="now"]')
           ).to_have_text("33")

    # --- Round 3: Cy goes for Clumond with ♠ trumps, and makes it -----------------------------
    table.wait_phase("offer")
    expect(tablet.get_by_test_id("pot")).to_have_text("Pot 33 → 48 with the antes (5 each)")
    table.goes([], "Cy", "♠")
    expect(tablet.get_by_test_id("round-line")).to_contain_text("Cy went for Clumond: ♠ trumps")
    expect(phones["Ann"].get_by_test_id("round-line")).to_contain_text("you lead")
    table.enter_all({"Ann": (1, []), "Bo": (0, []), "Cy": (12, ["K♥", "3♦", "4♦"])})
    expect(phones["Cy"].get_by_test_id("my-explain")).to_have_text(
        "went for Clumond, 12 tricks: 2 count, declared 2: made it, takes the whole pot: 48",
        timeout=WAIT_MS)
    screenshot(phones["Cy"], "06-cy-clumond-made")
    table.confirm_round()
    table.expect_stacks({"Ann": 89, "Bo": 87, "Cy": 124})
    expect(tablet.locator('tr[data-round="3"] td.declarer')).to_contain_text("Cy ♠ ✓")

    # --- Round 1 corrected: Bo's 6♦ was the 6♠; every round after follows ----------------------
    table.wait_phase("offer")
    tablet.get_by_test_id("correct-1").click()
    expect(tablet.get_by_test_id("correct-form")).to_be_visible()
    tablet.locator('details.entry-fields-box[data-player="Bo"] > summary').click()
    tablet.locator('label.pick:has(> input[name="p2-kept"][value="6D"])').click()
    tablet.locator('label.pick:has(> input[name="p2-kept"][value="6S"])').click()
    tablet.get_by_test_id("preview-round").click()
    compare = tablet.get_by_test_id("correction-preview")
    expect(compare.locator('td[data-total="Cy"]')).to_have_text("124 → 130")
    screenshot(tablet, "07-tablet-correct-round-1")
    tablet.get_by_test_id("save-round").click()
    expect(tablet.locator("#round")).to_be_visible()
    corrected = {"Ann": 90, "Bo": 80, "Cy": 130}
    table.expect_stacks(corrected)
    for phone in phones.values():
        table.expect_stacks(corrected, phone)
    expect(phones["Bo"].get_by_test_id("corrected")).to_have_text(
        "Round 1 was corrected: your total 87 → 80.", timeout=WAIT_MS)

    # --- Round 4: Bo goes for Clumond (no trumps) and misses: the pot is split ----------------
    table.goes(["Ann"], "Bo", "none")
    table.enter_all({"Ann": (4, []), "Bo": (9, ["A♣", "K♥", "Q♦"]), "Cy": (0, [])})
    story = tablet.get_by_test_id("pot-story")
    expect(story).to_contain_text("Bo missed: the pot is split between the other two",
                                  timeout=WAIT_MS)
    expect(story).to_contain_text("(the odd chip stays)")
    expect(story).to_contain_text("the game ends (after 4 rounds), so it is shared out")
    expect(tablet.get_by_test_id("ends-game")).to_be_visible()
    table.confirm_round()

    # --- The end ----------------------------------------------------------------------------
    final = {"Ann": 93, "Bo": 75, "Cy": 132}
    money = {"Ann": "−£0.70", "Bo": "−£2.50", "Cy": "+£3.20"}
    for page in table.pages():
        end = page.get_by_test_id("end")
        expect(end).to_be_visible(timeout=WAIT_MS)
        expect(end.get_by_test_id("winner")).to_have_text("Winner: Cy")
        expect(end.get_by_test_id("share-out")).to_contain_text(
            "The 1 chip left in the pot was shared out evenly in the last round")
        expect(end.locator('[data-share="Ann"]')).to_have_text("1")
        above_the_fold(page, end.get_by_test_id("winner"))
        for name, amount in final.items():
            expect(end.locator(f'td[data-total="{name}"]')).to_have_text(str(amount))
            expect(end.locator(f'td[data-money="{name}"]')).to_have_text(said(money[name]))
        expect(end.locator('[data-testid="settle-up"] li')).to_have_text(
            ["Bo pays Cy £2.50", "Ann pays Cy £0.70"])
    for name, phone in phones.items():
        expect(phone.locator('[data-testid="standings"] tr.mine')).to_have_count(1)
        expect(phone.locator('[data-testid="standings"] tr.mine')).to_have_attribute(
            "data-player", name)
        screenshot(phone, f"08-{name.lower()}-end")
    assert tablet.locator('[data-testid="standings"] tr.mine').count() == 0
    expect(tablet.locator("#scoreboard svg")).to_be_visible()  # the stack chart
    screenshot(tablet, "08-tablet-end")

    # --- Every number came from the rules: replay the exported record -------------------------
    link = tablet.get_by_test_id("record-json").get_attribute("href")
    record = tablet.context.request.get(link).json()
    assert [r["declarer"] for r in record["rounds"]] == [None, None, "Cy", "Bo"]
    assert [r["trump"] for r in record["rounds"]] == [None, None, "♠", "none"]
    assert sorted(record["rounds"][0]["kept"]["Bo"]) == ["5♠", "6♠", "A♣"]
    result = replay(record)
    assert result["finished"] and result["winners"] == ["Cy"]
    assert result["totals"] == final == table.stacks()
    assert result["money"] == {"Ann": -7, "Bo": -25, "Cy": 32}
    assert settle_up({p: n * 10 for p, n in result["money"].items()}) == [
        ("Bo", "Cy", 250), ("Ann", "Cy", 70)]
