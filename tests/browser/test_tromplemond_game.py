"""Issue 4 in a real browser: a whole Tromplemond game, played by four phones and the tablet.

Rob, Sam, Nick and Emily sit clockwise (Rob deals first) and play two rounds
for a £2.00 joining fee and a £0.50 TROMP! stake:

- round 1: the four slips are dropped in the same instant and come out
  1–1–1–1, so everyone votes again (again all at once): 3–1, Emily is off.
  Rob, Sam and Nick enter their hands at the same time; Nick ticks the 10♦
  that Sam holds, and both of them are told so, naming the card and the
  other player, until Nick fixes it. Nick shouted his Moyenne Tromplemond!
- round 1 is then corrected from the score table (Sam's K♦ was a 3♦), and
  every total changes;
- round 2: a 2–2 tie between Rob and Sam; only Nick and Emily get a
  tie-break slip; they disagree, get new slips, agree on Rob. Emily's Grand
  Tromplemond! takes the round pot, and the round ends the game;
- the end: Emily wins; the fee pot, the kitty, each player's money and who
  pays whom, on the tablet and on every phone (each highlighting its own
  line), and the same numbers as ``replay`` of the exported record.

Screenshots of every step: test-output/screenshots/test_a_whole_game_*.png.
"""

from __future__ import annotations

import html
import re

from playwright.sync_api import expect

from companion.rules import replay, settle_up
from tests.waiting import HANG_MS

LIVE_MS = HANG_MS  # a wait for the state, up to the hang ceiling
PLAYERS = ("Rob", "Sam", "Nick", "Emily")

# Round 1: the rules' worked example, with Nick's 10♦ the typo the rules text makes.
ROUND_1 = {
    "Rob": (["K♥", "10♠"], ["Q♥", "J♦", "K♠"]),      # 26, a jack in the back: Petit
    "Sam": (["A♣", "2♦"], ["10♦", "4♠", "K♦"]),      # 26
    "Nick": (["J♥", "A♦"], ["J♠", "A♠", "10♥"]),     # 24, 1 + 1 jacks: Moyenne
}
NICKS_SLIP = (["J♥", "A♦"], ["J♠", "A♠", "10♦"])  # the 10♦ is Sam's
ROUND_2 = {
    "Sam": (["A♠", "A♥"], ["K♠", "Q♠", "10♠"]),      # 38
    "Nick": (["A♦", "4♠"], ["J♦", "K♦", "3♠"]),      # 22, a jack in the back: Petit
    "Emily": (["J♣", "K♥"], ["J♠", "J♥", "Q♥"]),     # 14, 2 back + 1 on show: Grand
}


def whole(text: str) -> int:
    """A number as a page writes it (a minus sign may be ``−`` or ``-``)."""
    return int(text.strip().replace("−", "-"))


def said(text: str, *, whole_text: bool = False) -> re.Pattern:
    """``text`` as a pattern in which a minus may be written ``−`` or ``-``."""
    pattern = re.escape(text.replace("−", "-")).replace("\\-", "-").replace("-", "[-−]")
    return re.compile(rf"^\s*{pattern}\s*$" if whole_text else pattern)


def total_cell(page, name: str):
    """The cell of ``name``'s total in a page's Tromplemond score table."""
    return page.locator(f'[data-testid="score-table"] tfoot td[data-total="{name}"]')


def totals(page) -> dict[str, int]:
    """The running totals in a page's Tromplemond score table."""
    return {name: whole(total_cell(page, name).inner_text()) for name in PLAYERS}


def expect_totals(page, wanted: dict[str, int]) -> None:
    """Wait (live) until a page's score table shows ``wanted``."""
    for name, total in wanted.items():
        expect(total_cell(page, name)).to_have_text(
            said(str(total), whole_text=True), timeout=LIVE_MS)
    assert totals(page) == wanted


def preview_scores(tablet) -> dict[str, int]:
    """The round scores in the tablet's preview of the round in progress."""
    preview = tablet.get_by_test_id("preview")
    expect(preview).to_be_visible(timeout=LIVE_MS)
    return {name: whole(preview.locator(f'td[data-score="{name}"]').inner_text().split()[0])
            for name in PLAYERS}


def no_count_anywhere(table) -> None:
    """No screen shows a vote count (the ballot is still open)."""
    for page in table.pages():
        assert page.get_by_test_id("vote-counts").count() == 0, page.url
        assert "voted off" not in page.locator("#round").inner_text()


def test_a_whole_game_with_four_phones_and_the_tablet(tromplemond_table, screenshot):
    table = tromplemond_table()
    tablet, phones = table.tablet, table.phones
    table.start(joining_fee="2.00", tromp_stake="0.50", rounds=2)

    # --- Round 1: the deal ------------------------------------------------------------------
    for page in table.pages():
        expect(page.get_by_test_id("round-head")).to_contain_text("Round 1 of 2")
        expect(page.get_by_test_id("dealer")).to_contain_text("Rob deals")
    expect(tablet.get_by_test_id("claims")).to_have_text("Claims: Rob → Sam → Nick → Emily")
    expect(tablet.get_by_test_id("card-points")).to_be_visible()
    expect(tablet.get_by_test_id("money")).to_contain_text(said("−£2.00"))  # the fee is in
    screenshot(tablet, "01-tablet-deal")
    screenshot(phones["Rob"], "01-rob-deal")

    # --- Round 1: four slips in the same instant: 1–1–1–1, everyone votes again ---------------
    table.open_vote()
    for name, phone in phones.items():
        names = phone.locator(".vote-slip .slip-choice").all_inner_texts()
        assert sorted(names) == sorted(p for p in PLAYERS if p != name), "the three opponents"
    expect(tablet.get_by_test_id("slips-in")).to_have_text("0 of 4 slips in")
    table.pick({"Rob": "Sam", "Sam": "Nick", "Nick": "Emily", "Emily": "Rob"})
    screenshot(phones["Sam"], "02-sam-confirms-slip")
    expect(tablet.get_by_test_id("slips-in")).to_have_text("0 of 4 slips in")
    no_count_anywhere(table)
    table.drop_at_once(PLAYERS)

    table.expect_counts({"Rob": 1, "Sam": 1, "Nick": 1, "Emily": 1})  # 4 slips counted
    expect(tablet.get_by_test_id("vote-headline")).to_contain_text("everyone votes again")
    for name in PLAYERS:  # a new slip on every phone, and the same reveal
        expect(table.slip(name)).to_have_attribute("data-step", "choose", timeout=LIVE_MS)
        table.expect_counts({"Rob": 1, "Sam": 1, "Nick": 1, "Emily": 1}, phones[name])
    expect(tablet.get_by_test_id("vote-stage")).to_contain_text("again")
    screenshot(tablet, "03-tablet-revote")
    screenshot(phones["Nick"], "03-nick-revote")

    table.vote({"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Rob"})
    table.expect_counts({"Rob": 1, "Sam": 0, "Nick": 0, "Emily": 3})
    table.wait_phase("hands")
    for page in (tablet, phones["Rob"], phones["Sam"], phones["Nick"]):
        expect(page.get_by_test_id("off")).to_contain_text("Emily")
    expect(phones["Emily"].get_by_test_id("off")).to_contain_text("You score 0")
    screenshot(tablet, "04-tablet-emily-off")

    # --- Round 1: three hands entered at once, one with Sam's 10♦ -----------------------------
    table.pick_hand("Rob", *ROUND_1["Rob"])
    table.pick_hand("Sam", *ROUND_1["Sam"])
    table.pick_hand("Nick", *NICKS_SLIP)
    table.save_hands_at_once(["Rob", "Sam", "Nick"])
    conflict = "10♦ is in both Sam's and Nick's hands"
    for name in ("Sam", "Nick"):
        expect(phones[name].get_by_test_id("my-conflicts")).to_contain_text(conflict,
                                                                            timeout=LIVE_MS)
    expect(phones["Rob"].get_by_test_id("my-hand")).to_be_visible()
    assert phones["Rob"].get_by_test_id("my-conflicts").count() == 0
    expect(tablet.get_by_test_id("conflicts")).to_contain_text(conflict, timeout=LIVE_MS)
    expect(tablet.get_by_test_id("confirm-round")).to_be_disabled()
    screenshot(phones["Sam"], "05-sam-conflict")
    screenshot(phones["Nick"], "05-nick-conflict")
    screenshot(tablet, "05-tablet-conflict")

    # The server refuses the round too, whatever the button says (and changes nothing).
    form = tablet.locator('form:has([data-testid="confirm-round"])')
    refused = tablet.context.request.post(
        form.get_attribute("action"),
        form={"csrf_token": form.locator('input[name="csrf_token"]').input_value(),
              "round": form.locator('input[name="round"]').input_value()},
        max_redirects=0)
    assert refused.status == 409 and conflict in html.unescape(refused.text())
    assert tablet.locator('[data-testid="score-table"] tbody tr[data-round]').count() == 0

    table.enter_hand("Nick", *ROUND_1["Nick"])
    for name in ("Sam", "Nick"):
        expect(phones[name].get_by_test_id("my-conflicts")).to_have_count(0, timeout=LIVE_MS)
    expect(tablet.get_by_test_id("conflicts")).to_have_count(0, timeout=LIVE_MS)

    # --- Round 1: the scores and TROMP! ------------------------------------------------------
    assert preview_scores(tablet) == {"Rob": 11, "Sam": -9, "Nick": 30, "Emily": 0}
    expect(tablet.locator('[data-explain="Rob"]')).to_contain_text(
        "26 own + 13 (half of Sam's 26) + 12 (half of Nick's 24) − 40 (Nick's 2 jacks) = 11")
    expect(phones["Nick"].get_by_test_id("my-call")).to_contain_text("Moyenne Tromplemond!")
    expect(phones["Rob"].get_by_test_id("my-call")).to_contain_text("Petit Tromplemond!")
    assert phones["Sam"].get_by_test_id("my-call").count() == 0, "no jack, no call"
    expect(tablet.get_by_test_id("called-Nick")).to_contain_text("Moyenne Tromplemond!")
    assert tablet.get_by_test_id("called-Sam").count() == 0
    table.tick_call("Nick")
    expect(tablet.locator('[data-testid="preview"] td[data-won="Nick"]')).to_have_text(
        "+£0.50", timeout=LIVE_MS)
    expect(tablet.get_by_test_id("pot")).to_contain_text("Round pot £2.00")
    expect(tablet.get_by_test_id("pot")).to_contain_text("kitty after this round £1.50")
    screenshot(tablet, "06-tablet-scores-round-1")
    table.confirm_round()

    expect_totals(tablet, {"Rob": 11, "Sam": -9, "Nick": 30, "Emily": 0})
    expect(tablet.get_by_test_id("round-head")).to_contain_text("Round 2 of 2", timeout=LIVE_MS)
    expect(tablet.get_by_test_id("dealer")).to_contain_text("Sam deals")
    expect(tablet.get_by_test_id("kitty")).to_contain_text("£1.50")
    expect(tablet.locator("#scoreboard svg")).to_be_visible()  # the score chart
    expect(phones["Sam"].get_by_test_id("dealer")).to_contain_text("that's you",
                                                                   timeout=LIVE_MS)

    # --- Round 1 corrected from the score table: Sam's K♦ was a 3♦ ----------------------------
    tablet.get_by_test_id("correct-1").click()
    expect(tablet.get_by_test_id("correct-form")).to_be_visible()
    # The same picker as entering a hand: Sam's hand opened, the K♦ untapped, the 3♦ tapped.
    tablet.locator('details.hand-fields[data-player="Sam"] > summary').click()
    table.pick_cards(tablet, {"secret": ["10♦", "4♠", "3♦"]}, prefix="h2-")
    tablet.get_by_test_id("preview-round").click()
    preview = tablet.get_by_test_id("correction-preview")
    expect(preview.locator('td[data-total="Sam"]')).to_have_text("−9 → −15")
    expect(preview.locator('td[data-total="Emily"]')).to_have_text("0 → 0")
    screenshot(tablet, "07-tablet-correct-round-1")
    tablet.get_by_test_id("save-round").click()
    expect(tablet.locator("#round")).to_be_visible()  # back on the live page
    corrected = {"Rob": 8, "Sam": -15, "Nick": 27, "Emily": 0}
    expect_totals(tablet, corrected)
    for phone in phones.values():  # every phone's score table follows by itself
        expect_totals(phone, corrected)
    expect(phones["Sam"].get_by_test_id("corrected")).to_have_text(
        "Round 1 was corrected: your total −9 → −15.", timeout=LIVE_MS)
    assert phones["Emily"].get_by_test_id("corrected").count() == 0  # hers did not change
    screenshot(phones["Sam"], "07-sam-corrected")

    # --- Round 2: 2–2, only Nick and Emily get a tie-break slip -------------------------------
    table.open_vote()
    table.pick({"Rob": "Sam", "Sam": "Rob", "Nick": "Rob", "Emily": "Sam"})
    table.drop_at_once(["Rob", "Sam", "Nick"])
    expect(tablet.get_by_test_id("slips-in")).to_have_text("3 of 4 slips in", timeout=LIVE_MS)
    for name in ("Rob", "Sam"):
        expect(phones[name].get_by_test_id("slips-in")).to_have_text("3 of 4 slips in",
                                                                     timeout=LIVE_MS)
    no_count_anywhere(table)
    table.drop_at_once(["Emily"])

    table.expect_counts({"Rob": 2, "Sam": 2, "Nick": 0, "Emily": 0})
    expect(tablet.get_by_test_id("vote-stage")).to_contain_text(
        "Tie-break: Nick and Emily decide between Rob and Sam", timeout=LIVE_MS)
    table.wait_slips("choose", ["Nick", "Emily"])
    table.wait_slips("waiting", ["Rob", "Sam"])
    for name in ("Nick", "Emily"):
        assert sorted(phones[name].locator(".vote-slip .slip-choice").all_inner_texts()) == [
            "Rob", "Sam"]
    for name in ("Rob", "Sam"):
        expect(phones[name].get_by_test_id("slip-deciding")).to_have_text(
            "Nick and Emily are deciding…")
        assert phones[name].locator(".vote-slip .slip-choice").count() == 0
    screenshot(phones["Emily"], "08-emily-tie-break")
    screenshot(phones["Rob"], "08-rob-waits")
    screenshot(tablet, "08-tablet-tie-break")

    table.vote({"Nick": "Rob", "Emily": "Sam"})  # they disagree: new slips
    expect(tablet.get_by_test_id("vote-headline")).to_contain_text("disagreed, new slips",
                                                                   timeout=LIVE_MS)
    table.wait_slips("choose", ["Nick", "Emily"])
    table.wait_slips("waiting", ["Rob", "Sam"])
    table.vote({"Nick": "Rob", "Emily": "Rob"})
    table.wait_phase("hands")
    expect(tablet.get_by_test_id("off")).to_contain_text("Rob")
    expect(tablet.get_by_test_id("vote-off")).to_contain_text("Rob is off (tie-break)")

    # --- Round 2: hands at once, Emily's Grand Tromplemond!, the last round -------------------
    for name, (public, secret) in ROUND_2.items():
        table.pick_hand(name, public, secret)
    table.save_hands_at_once(list(ROUND_2))
    expect(phones["Emily"].get_by_test_id("my-call")).to_contain_text("Grand Tromplemond!")
    assert preview_scores(tablet) == {"Rob": 0, "Sam": -24, "Nick": -12, "Emily": 24}
    table.tick_call("Emily")
    expect(tablet.locator('[data-testid="preview"] td[data-won="Emily"]')).to_have_text(
        "+£2.00", timeout=LIVE_MS)
    expect(tablet.get_by_test_id("ends-game")).to_be_visible()
    screenshot(tablet, "09-tablet-scores-round-2")
    table.confirm_round()

    # --- The end: the winner, the fee pot, the kitty, the money, who pays whom ----------------
    final = {"Rob": 8, "Sam": -39, "Nick": 15, "Emily": 24}
    expect_totals(tablet, final)
    money = {"Rob": "−£3.00", "Sam": "−£3.00", "Nick": "+£1.00", "Emily": "+£5.00"}
    transfers = ["Rob pays Emily £3.00", "Sam pays Emily £2.00", "Sam pays Nick £1.00"]
    for page in table.pages():
        end = page.get_by_test_id("end")
        expect(end).to_be_visible(timeout=LIVE_MS)
        expect(end.get_by_test_id("winner")).to_contain_text("Winner: Emily")
        fee = end.get_by_test_id("fee-payout")
        expect(fee).to_contain_text("Joining-fee pot £8.00")
        expect(fee.locator("tr", has_text="Emily")).to_contain_text("£6.00")
        expect(fee.locator("tr", has_text="Nick")).to_contain_text("£2.00")
        expect(end.get_by_test_id("kitty-payout")).to_contain_text("Nick")
        expect(end.get_by_test_id("kitty-payout")).to_contain_text("£1.50")
        for name, amount in money.items():
            expect(end.locator(f'td[data-money="{name}"]')).to_have_text(
                said(amount, whole_text=True))
        expect(end.locator('[data-testid="settle-up"] li')).to_have_text(transfers)
        assert [row.get_attribute("data-player") for row in
                end.locator('[data-testid="standings"] tr').all()] == [
                    "Emily", "Nick", "Rob", "Sam"]
    for name, phone in phones.items():  # each phone highlights its own line, and only that
        net = phone.get_by_test_id("net-money")
        expect(net.locator("tr.mine")).to_have_count(1)
        expect(net.locator("tr.mine")).to_have_attribute("data-player", name)
        expect(phone.locator('[data-testid="standings"] tr.mine')).to_have_attribute(
            "data-player", name)
        screenshot(phone, f"10-{name.lower()}-end")
    assert tablet.locator('[data-testid="net-money"] tr.mine').count() == 0
    screenshot(tablet, "10-tablet-end")

    # --- Every number came from the rules: replay the exported record -------------------------
    link = tablet.get_by_test_id("record-json").get_attribute("href")
    record = tablet.context.request.get(link).json()
    assert [r["voted_off"] for r in record["rounds"]] == ["Emily", "Rob"]
    assert sorted(record["rounds"][0]["hands"]["Sam"]["secret"]) == ["10♦", "3♦", "4♠"]
    assert [r["called"] for r in record["rounds"]] == [["Nick"], ["Emily"]]
    result = replay(record)
    assert result["finished"] and result["winners"] == ["Emily"]
    assert result["totals"] == final == totals(tablet)
    assert result["money"] == {"Rob": -300, "Sam": -300, "Nick": 100, "Emily": 500}
    assert [f"{payer} pays {payee} £{amount / 100:.2f}"
            for payer, payee, amount in settle_up(result["money"])] == transfers
