"""Issue 10 in a real browser: a whole Trefeltromp game, four phones and the tablet.

Ann, Bo, Cy and Di sit clockwise; Ann deals first. Ante 10, starting stack
100, no limit, and a chip is worth £0.05 for the evening's ledger.

- before hand 1, Bo buys 100 chips on his phone;
- hand 1: an action out of turn is refused; Bo bets 100; Cy cannot cover the
  call, buys a new stack on his phone and calls; Di and Ann fold; after the
  discard and draw Bo bets again, Cy folds: the hand ends by folds;
- hand 2: a raise and calls in fyrsturkalla; at banen the four phones rap
  in the same instant; Bo's XXI takes ⅓ and Ann's Fool does not win, so Ann
  stays in detuilerkalla by the Fool's privilege while Di folds; at detuiler
  two phones rap at once and nothing of their cards shows anywhere until the
  third is in; it is a tie and the pot stays, and so is debekranse (three
  phones at once): the pot carries;
- between hands Di leaves with his stack; then Ann (from the tablet) and Bo
  leave, Cy is left alone and leaves too: the game ends and the pot is shared
  out among hand 2's players;
- the end: each phone shows the final figures with its own line marked, and
  who pays whom; every number is the rules' (``replay`` of ``record.json``).

Screenshots of every step: test-output/screenshots/test_a_whole_trefeltromp_game_*.png.
"""

from __future__ import annotations

import html
import re

from playwright.sync_api import expect

from companion.games.trefeltromp.rules import figures, hand_story
from companion.rules import replay
from tests.browser.screens import LIVE_MS, TableScreens, at_once, in_first_screen

PLAYERS = ("Ann", "Bo", "Cy", "Di")
POSITION = {name: i for i, name in enumerate(PLAYERS, 1)}


class Table(TableScreens):
    """A Trefeltromp table in the browser: the tablet and a phone per player.

    The helpers tap as people at a table would and wait for what a person
    would wait for (their turn, their slip, the reveal); the test asserts the rest.
    """

    live_ms = LIVE_MS

    @staticmethod
    def version(page) -> str:
        """The table version the page's round region was drawn at."""
        return page.locator("#round").get_attribute("data-version")

    def tap(self, page, testid: str) -> None:
        """Tap a button of the round region and wait for the region to come back changed."""
        before = self.version(page)
        page.locator("#round").get_by_test_id(testid).first.click()
        expect(page.locator("#round")).not_to_have_attribute("data-version", before,
                                                              timeout=LIVE_MS)

    # The betting ---------------------------------------------------------------------------

    def act(self, player: str, verb: str, *, chip: int | None = None,
            typed: int | None = None) -> None:
        """``player`` waits for their turn on their phone, then taps ``verb`` (with an amount
        tapped on a chip or typed)."""
        phone = self.phones[player]
        expect(phone.get_by_test_id("your-turn")).to_be_visible(timeout=LIVE_MS)
        if chip is not None:
            phone.locator(f'label.chip:has(> [data-testid="amount-{chip}"])').click()
            expect(phone.get_by_test_id(f"amount-{chip}")).to_be_checked()
        if typed is not None:
            phone.get_by_test_id("amount-typed").fill(str(typed))
        self.tap(phone, f"act-{verb}")

    def expect_turn(self, player: str) -> None:
        """Every screen says it is ``player``'s turn; only their phone offers the actions."""
        expect(self.phones[player].get_by_test_id("your-turn")).to_be_visible(timeout=LIVE_MS)
        expect(self.tablet.get_by_test_id("to-act")).to_contain_text(player, timeout=LIVE_MS)
        for name, phone in self.phones.items():
            if name != player:
                expect(phone.locator('[data-testid="turn"]')).to_have_count(0, timeout=LIVE_MS)

    def stack(self, page, player: str):
        """The cell of ``player``'s stack in a page's round region (the ledger, or the table
        of buys between hands)."""
        return page.locator(f'#round td[data-stack="{player}"]')

    # The reveals ---------------------------------------------------------------------------

    def pick(self, player: str, card: str) -> None:
        """``player`` picks ``card`` on their tarot picker (a trump by numeral; a suit card by
        suit, then rank). Nothing is sent."""
        phone = self.phones[player]
        expect(phone.get_by_test_id("tarot-picker")).to_be_visible(timeout=LIVE_MS)
        if card[-1] in "♠♥♦♣":
            letter = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}[card[-1]]
            phone.locator(f'label.suit-tab:has(> [data-testid="suit-{letter}"])').click()
        tile = phone.locator(f'label.pick:has(> [data-testid="card-{card}"])')
        expect(tile).to_be_visible()
        tile.click()
        expect(phone.get_by_test_id(f"card-{card}")).to_be_checked()
        expect(phone.get_by_test_id("card-count-one")).to_be_visible()

    def lay_at_once(self, cards: dict[str, str]) -> None:
        """Each player picks their card, then all rap twice in the same instant."""
        for player, card in cards.items():
            self.pick(player, card)
        pages = [self.phones[p] for p in cards]
        at_once(pages, '[data-testid="slip-confirm"]')
        for page in pages:
            expect(page.locator('.vote-slip[data-step="choose"]')).to_have_count(
                0, timeout=LIVE_MS)

    def expect_reveal(self, name: str, cards: dict[str, str], outcome: str) -> None:
        """Every screen shows reveal ``name`` with these cards and this outcome."""
        for page in self.pages():
            reveal = page.locator(f'[data-testid="reveal"][data-reveal="{name}"]')
            expect(reveal).to_be_visible(timeout=LIVE_MS)
            for player, card in cards.items():
                expect(reveal.locator(f'li[data-player="{player}"]')).to_have_attribute(
                    "data-card", card)
            expect(reveal.get_by_test_id("outcome")).to_contain_text(outcome)


def above_the_fold(page, testid: str) -> None:
    """The page, scrolled to the top, shows ``testid`` whole without scrolling."""
    in_first_screen(page, page.locator("#round").get_by_test_id(testid).first, testid)


def seat_phones(new_context, make_table, tablet) -> Table:
    """A four-seat Trefeltromp table on ``tablet``, Ann dealing first, a phone in each seat."""
    join_url = make_table(tablet, "Friday tarot", list(PLAYERS), game="trefeltromp")
    tablet.get_by_test_id("dealer-choice").select_option("1")
    tablet.get_by_test_id("set-dealer").click()
    expect(tablet.get_by_test_id("first-dealer")).to_be_visible()
    phones = {}
    for name, position in POSITION.items():
        phone = new_context("phone").new_page()
        phone.goto(join_url)
        phone.get_by_test_id(f"claim-{position}").click()
        expect(phone.locator("#you-are")).to_have_text(f"You are {name} (seat {position})")
        phones[name] = phone
    for position in POSITION.values():
        expect(tablet.locator(f'li.seat[data-seat="{position}"]')).to_have_attribute(
            "data-joined", "yes", timeout=LIVE_MS)
    return Table(tablet, phones)


def start(table: Table) -> None:
    """The scorekeeper starts Trefeltromp: ante 10, stack 100, a chip is worth £0.05."""
    tablet = table.tablet
    tablet.get_by_test_id("start-game").click()
    expect(tablet.get_by_test_id("options-form")).to_be_visible()
    expect(tablet.get_by_test_id("ante")).to_have_value("10")
    tablet.get_by_test_id("stack").fill("100")
    tablet.get_by_test_id("unit").select_option("GBP")
    tablet.get_by_test_id("chip-value").fill("0.05")
    tablet.get_by_test_id("start-options").click()
    table.wait_phase("ready")


def test_a_whole_trefeltromp_game(new_context, make_table, screenshot):
    tablet = new_context("tablet").new_page()
    table = seat_phones(new_context, make_table, tablet)
    phones = table.phones
    start(table)

    # --- Before hand 1: Bo buys chips on his phone; the tablet deals --------------------------
    expect(tablet.get_by_test_id("dealer")).to_contain_text("Ann deals")
    expect(tablet.get_by_test_id("deck-steps")).to_be_visible()  # the deck-prep checklist
    bo = phones["Bo"]
    bo.get_by_test_id("buy-typed-Bo").fill("100")
    table.tap(bo, "buy-Bo")
    expect(bo.get_by_test_id("my-stack")).to_contain_text("+100 bought")
    expect(tablet.locator('td[data-buying="Bo"]')).to_have_text("+100", timeout=LIVE_MS)
    above_the_fold(tablet, "deal")
    screenshot(tablet, "01-tablet-ready")
    screenshot(phones["Ann"], "01-ann-ready")
    table.tap(tablet, "deal")
    table.wait_phase("fyrsturkalla")
    for page in table.pages():
        expect(page.get_by_test_id("pot")).to_have_text("40")
    expect(table.stack(tablet, "Bo")).to_have_text("190")

    # --- Hand 1: out of turn, a bet Cy cannot cover, a rebuy, folds --------------------------
    table.expect_turn("Bo")
    for testid in ("act-check", "act-bet", "act-fold"):
        above_the_fold(phones["Bo"], testid)
    screenshot(phones["Bo"], "02-bo-turn")
    screenshot(phones["Cy"], "02-cy-waits")
    act_form = tablet.locator('[data-testid="turn"] form.quick-actions')
    cy = phones["Cy"]
    refused = cy.context.request.post(
        act_form.get_attribute("action").replace(f"/seats/{POSITION['Bo']}/",
                                                 f"/seats/{POSITION['Cy']}/"),
        form={"csrf_token": cy.locator('input[name="csrf_token"]').first.input_value(),
              "round": "1", "moment": act_form.locator('input[name="moment"]').input_value(),
              "verb": "check", "from": "seat"},
        max_redirects=0)
    assert refused.status == 409 and "It is Bo's turn, not yours." in html.unescape(
        refused.text())
    table.act("Bo", "bet", typed=100)
    table.expect_turn("Cy")
    short = cy.get_by_test_id("short")
    expect(short).to_contain_text("You cannot cover the call of 100 with 90 chips")
    expect(cy.get_by_test_id("act-call")).to_have_count(0)
    for testid in ("buy-10", "buy-100", "act-fold"):
        above_the_fold(cy, testid)
    screenshot(cy, "03-cy-short")
    table.tap(cy, "buy-100")  # a new stack
    expect(cy.get_by_test_id("act-call")).to_have_text("Call 100")
    expect(cy.get_by_test_id("turn-stack")).to_have_text("190")
    table.act("Cy", "call")
    table.act("Di", "fold")
    table.act("Ann", "fold")
    table.wait_phase("draw")
    screenshot(phones["Di"], "04-di-draw")
    above_the_fold(tablet, "draw-done")
    table.tap(tablet, "draw-done")
    table.wait_phase("banenkalla")
    table.act("Bo", "bet", chip=25)
    table.act("Cy", "fold")
    table.wait_phase("ready")
    for page in table.pages():
        reveal = page.locator('[data-testid="reveal"][data-reveal="fold"]')
        expect(reveal).to_contain_text("Bo takes the whole pot, 265")
    expect(table.stack(tablet, "Bo")).to_have_text("330")
    screenshot(tablet, "05-tablet-hand-1-over")

    # --- Hand 2: a raise and calls; banen laid on four phones at once -----------------------
    expect(tablet.get_by_test_id("dealer")).to_contain_text("Di deals")
    table.tap(tablet, "deal")
    table.wait_phase("fyrsturkalla")
    table.act("Ann", "check")
    table.act("Bo", "bet", chip=10)
    table.act("Cy", "raise", chip=10)
    expect(phones["Di"].get_by_test_id("act-call")).to_have_text("Call 20", timeout=LIVE_MS)
    table.act("Di", "call")
    table.act("Ann", "call")
    table.act("Bo", "call")
    table.wait_phase("draw")
    table.tap(tablet, "draw-done")
    for name in ("Ann", "Bo", "Cy", "Di"):
        table.act(name, "check")
    table.wait_phase("banen")
    for page in table.pages():
        expect(page.get_by_test_id("pot")).to_have_text("120")
    banen = {"Ann": "Fool", "Bo": "XXI", "Cy": "K♥", "Di": "7♣"}
    for player, card in banen.items():
        table.pick(player, card)
    above_the_fold(phones["Cy"], "slip-confirm")  # with K♥'s suit open
    screenshot(phones["Cy"], "06-cy-picks")
    for page in table.pages():  # picked on the phones: nothing is sent
        expect(page.get_by_test_id("slips-in")).to_have_text("0 of 4 cards in")
    at_once(list(phones.values()), '[data-testid="slip-confirm"]')  # four raps at once
    table.expect_reveal("banen", banen, "Bo wins banen and takes ⅓ of the pot: 40")
    expect(tablet.locator('[data-testid="reveal"]').get_by_test_id("pot-after")).to_have_text(
        "80")
    screenshot(phones["Ann"], "07-ann-banen")
    screenshot(tablet, "07-tablet-banen")

    # --- Detuilerkalla: Ann stays by the Fool's privilege; Di folds -------------------------
    table.wait_phase("detuilerkalla")
    expect(phones["Ann"].get_by_test_id("act-stay")).to_be_visible(timeout=LIVE_MS)
    above_the_fold(phones["Ann"], "act-stay")
    screenshot(phones["Ann"], "08-ann-may-stay")
    table.act("Ann", "stay")
    expect(phones["Ann"].get_by_test_id("stayed")).to_be_visible()
    table.act("Bo", "bet", chip=10)
    table.act("Cy", "call")
    table.act("Di", "fold")
    table.wait_phase("detuiler")
    expect(tablet.locator('[data-testid="ledger"] tr[data-player="Ann"]')).to_have_attribute(
        "data-state", "in")
    detuiler = {"Ann": "Q♠", "Bo": "K♦", "Cy": "3♣"}
    for player, card in detuiler.items():
        table.pick(player, card)
    at_once([phones["Ann"], phones["Bo"]], '[data-testid="slip-confirm"]')
    for page in table.pages():  # two in, one to come: nothing of any card shows
        expect(page.get_by_test_id("slips-in")).to_have_text("2 of 3 cards in",
                                                             timeout=LIVE_MS)
        assert page.locator('[data-testid="reveal"][data-reveal="detuiler"]').count() == 0
        if page is not phones["Cy"]:  # (Cy's picker still offers every card)
            shown = page.locator("#round .card").all_inner_texts()
            assert not set(shown) & {"Q♠", "K♦"}, page.url
    expect(phones["Ann"].get_by_test_id("slip-in")).to_be_visible()
    # Her own phone says which card it laid (it alone knows: the server has it sealed).
    expect(phones["Ann"].get_by_test_id("slip-mine")).to_have_text(
        re.compile(r"^You laid Q\s*♠\.$"), timeout=LIVE_MS)
    assert tablet.get_by_test_id("slip-mine").count() == 0
    screenshot(phones["Ann"], "09-ann-card-in")
    screenshot(tablet, "09-tablet-two-in")
    at_once([phones["Cy"]], '[data-testid="slip-confirm"]')
    table.expect_reveal("detuiler", {"Ann": "Q♠", "Bo": "K♦", "Cy": "3♣"},
                        "Tie: the pot stays (Ann and Bo share the best card)")
    screenshot(phones["Cy"], "10-cy-detuiler-tie")
    for name in ("Ann", "Bo", "Cy"):
        table.act(name, "check")
    table.lay_at_once({"Ann": "A♥", "Bo": "A♣", "Cy": "2♠"})
    table.wait_phase("ready")
    table.expect_reveal("debekranse", {"Ann": "A♥", "Bo": "A♣", "Cy": "2♠"},
                        "Tie: the pot stays (Ann and Bo share the best card), at 100.")
    screenshot(tablet, "11-tablet-hand-2-over")

    # --- Between hands: Di leaves; Ann and Bo leave, and Cy with them: the end ---------------
    expect(tablet.get_by_test_id("dealer")).to_contain_text("Cy deals")
    di = phones["Di"]
    di.once("dialog", lambda dialog: dialog.accept())
    table.tap(di, "leave")
    expect(di.get_by_test_id("my-leaving")).to_contain_text("with 60 chips")
    expect(tablet.get_by_test_id("leaving")).to_contain_text("Di", timeout=LIVE_MS)
    expect(tablet.get_by_test_id("dealer")).to_contain_text("Cy deals")
    tablet.once("dialog", lambda dialog: dialog.accept())
    table.tap(tablet, "leaves-Ann")
    bo.once("dialog", lambda dialog: dialog.accept())
    expect(bo.get_by_test_id("leave")).to_be_visible(timeout=LIVE_MS)
    table.tap(bo, "leave")
    table.wait_phase("end")

    record = tablet.context.request.get(
        tablet.get_by_test_id("record-json").get_attribute("href")).json()
    result = replay(record)
    assert result["finished"] and result["rounds"][-1]["breakdown"]["left"] == list(PLAYERS)
    final = figures(record)
    shared = result["rounds"][-1]["breakdown"]["share_out"]
    assert shared == {"Ann": 25, "Bo": 25, "Cy": 25, "Di": 25}
    assert {line.player: line.money for line in final.lines} == {
        "Ann": -75, "Bo": 775, "Cy": -625, "Di": -75}
    money = {"Ann": "−£0.75", "Bo": "+£7.75", "Cy": "−£6.25", "Di": "−£0.75"}
    for page in table.pages():
        end = page.get_by_test_id("end")
        expect(end).to_be_visible(timeout=LIVE_MS)
        expect(end.get_by_test_id("winner")).to_contain_text("Winner: Bo")
        for line in final.lines:
            row = end.locator(f'[data-testid="figures"] tr[data-player="{line.player}"]')
            expect(row.locator("td[data-stack]")).to_have_text(str(line.stack))
            expect(row.locator("td[data-bought]")).to_have_text(str(line.bought))
            expect(row.locator("td[data-money]")).to_have_text(money[line.player])
        expect(end.get_by_test_id("share-out")).to_contain_text("The pot of 100 was shared out")
        expect(end.locator('[data-testid="transfers"] li')).to_have_count(
            len(final.transfers))
    for name, phone in phones.items():  # each phone marks its own line, and only that
        mine = phone.locator('[data-testid="figures"] tr.mine')
        expect(mine).to_have_count(1)
        expect(mine).to_have_attribute("data-player", name)
        screenshot(phone, f"12-{name.lower()}-end")
    assert tablet.locator('[data-testid="figures"] tr.mine').count() == 0
    expect(tablet.locator("#scoreboard svg")).to_be_visible()  # the stack chart
    screenshot(tablet, "12-tablet-end")

    # --- Looking back: hand 2 step by step, the same numbers as the rules' story -------------
    tablet.locator('[data-testid="hand-link-2"]').click()
    story = tablet.get_by_test_id("story")
    expect(story).to_be_visible()
    events = hand_story(result["rounds"][1])
    moves = [f"pot stays {e.pot_after}" if e.pot_before == e.pot_after
             else f"pot {e.pot_before} → {e.pot_after}" for e in events
             if e.kind.value not in ("betting", "left", "draw")]
    assert [t.strip() for t in story.locator(".pot-move").all_inner_texts()] == moves
    screenshot(tablet, "13-tablet-hand-2-story")
