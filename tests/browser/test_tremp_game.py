"""Issue 11 in a real browser: a whole game of Tremp, four phones and the tablet.

Rob, Sam, Nick and Emily sit clockwise (Rob & Nick against Sam & Emily); Rob
deals first.

- hand 1: Sam, Nick and Emily pass from their phones; Rob's phone says the
  dealer must bid, and its Pass is disabled; Rob displays 2♣ (bid −3), the
  others pass. Nick enters the tricks on his phone: made, ⅛ match points;
- hand 2: ten cards displayed in turn from the phones, Emily's Q♥ last: Sam
  & Emily bid 6 with trump ♥ and tremp ♦, every screen showing each player's
  cards in order. Emily asks the judge on her phone; the tablet judges trick
  1 and counts it in one tap, then counts the other twelve: a failed bid, and
  Rob & Nick's 1024 match points win match 1 at 272;
- hand 3 (the tablet bids for the phones): Rob & Nick fail a bid of 5 and
  Sam & Emily's 256 win match 2 at 136, the trailing team's threshold;
- hand 1 is corrected (7 tricks, not 6), and every screen follows;
- hands 4 and 5: Sam & Emily win matches 3 and 4: a two-match lead ends the
  game, and every screen names the winning partners;
- every total on the pages is ``replay`` of the exported record.

Screenshots: test-output/screenshots/test_a_whole_game_of_tremp_*.png.
"""

from __future__ import annotations

import re

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from companion.games.tremp import rules
from companion.web.filters import number
from tests.browser.screens import TableScreens, card_code, in_first_screen, touch_sized
from tests.waiting import HANG_MS

LIVE_MS = HANG_MS  # a wait for the state, up to the hang ceiling
PLAYERS = ("Rob", "Sam", "Nick", "Emily")
A, B = "Rob & Nick", "Sam & Emily"

HAND_2 = ["3♦", "4♦", "5♦", "6♦", "7♦", "8♦", "9♦", "10♦", "J♦", "Q♥"]  # Nick first
HAND_3 = ["2♠", "3♠", "4♠", "5♠", "6♠", "7♠", "8♠", "9♠", "10♠"]       # Rob first
HAND_4 = ["2♥", "3♥", "4♥", "5♥", "6♥", "7♥", "8♥", "9♥", "10♥", "J♥"]  # Sam first
HAND_5 = ["2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "9♣", "10♣", "J♣"]  # Emily first


def above_the_fold(page, testid: str) -> None:
    """The element ``testid`` is whole within the first screen of the page, unscrolled."""
    in_first_screen(page, page.get_by_test_id(testid), testid)


class TrempTable(TableScreens):
    """A Tremp table in the browser: the scorekeeper's tablet and four seated phones.

    The helpers tap as people at a table would, and wait for what a person
    would wait for (a live update on their own screen).
    """

    def wait_turn(self, player: str, pages=None) -> None:
        """Wait until every page (default: all five) says it is ``player``'s turn."""
        for page in pages or self.pages():
            expect(page.get_by_test_id("turn")).to_have_attribute("data-turn", player,
                                                                  timeout=LIVE_MS)

    # The bidding --------------------------------------------------------------------------

    def _answer(self, page, form_id: str, what: str) -> None:
        """Tap a card and Display, or Pass, in the bid form ``form_id``; wait until it is gone."""
        form = page.locator(f"#{form_id}")
        if what == "pass":
            form.get_by_test_id("pass").click()
        else:
            form.locator(f'label.pick:has(> input[value="{card_code(what)}"])').click()
            expect(form.get_by_test_id("pick-count")).to_have_text("1 of 1", use_inner_text=True)
            form.get_by_test_id("display").click()
        expect(page.locator(f"#{form_id}")).to_have_count(0, timeout=LIVE_MS)

    def say(self, player: str, what: str) -> None:
        """``player`` displays ``what`` (a card) or passes, on their own phone, in turn."""
        phone = self.phones[player]
        self.wait_turn(player, [phone])
        expect(phone.get_by_test_id("turn")).to_have_text(re.compile(r"^(Your turn|You must)"))
        self._answer(phone, phone.get_by_test_id("bid-form").get_attribute("id"), what)

    def tablet_says(self, player: str, what: str) -> None:
        """The scorekeeper bids for ``player`` on the tablet ("bid for Sam here")."""
        tablet = self.tablet
        self.wait_turn(player, [tablet])
        form_id = tablet.get_by_test_id("bid-form").get_attribute("id")
        for _ in range(5):  # a live update that lands just then folds the details again
            details = tablet.get_by_test_id("bid-for")
            if not details.evaluate("d => d.open"):
                details.locator("summary").click()
            try:
                self._answer(tablet, form_id, what)
                return
            except (AssertionError, PlaywrightError):
                if tablet.locator(f"#{form_id}").count() == 0:
                    return
        raise AssertionError(f"the tablet could not bid {what} for {player}")

    def bidding(self, first: str, words, *, by_tablet: bool = False) -> None:
        """The bids in turn from ``first``: a card to display, or "pass"."""
        players = list(PLAYERS)
        for k, what in enumerate(words):
            player = players[(players.index(first) + k) % 4]
            if by_tablet:
                self.tablet_says(player, what)
            else:
                self.say(player, what)

    # The hand -----------------------------------------------------------------------------

    def tricks(self, n: int, page=None) -> None:
        """The tricks of the bidding team, one tap on the tablet (or a bidder's phone)."""
        page = page or self.tablet
        page.get_by_test_id(f"tricks-{n}").click()
        self.wait_phase("score", [page])

    def count(self, player: str) -> None:
        """One tap of the trick counter on the tablet: ``player`` won the trick."""
        counter = self.tablet.get_by_test_id("counter")
        played = int(counter.get_attribute("data-played"))
        self.tablet.get_by_test_id(f"won-{player}").click()
        expect(self.tablet.get_by_test_id("counter")).to_have_attribute(
            "data-played", str(played + 1), timeout=LIVE_MS)

    def confirm(self) -> None:
        """The scorekeeper confirms the hand; the score table gets its row."""
        self.confirm_round("confirm-hand")

    def judge(self, page, cards) -> None:
        """Open the "who won this trick?" screen and tap the cards in order."""
        page.locator("#round").get_by_test_id("judge").click()
        expect(page.get_by_test_id("judge-page")).to_be_visible()
        for k, card in enumerate(cards, 1):
            page.get_by_test_id(f"judge-{card_code(card)}").click()
            expect(page.get_by_test_id("judge-count-label")).to_have_text(f"{k} of 4")

    def team(self, page, attribute: str, team: str):
        """A team's cell in a page's totals (``data-match``, ``data-game``, ``data-matches``)."""
        return page.locator(f'[data-testid="team-totals"] [{attribute}="{team}"]')

    def expect_totals(self, result: dict, pages=None) -> None:
        """Wait (live) until the pages' totals are ``result``'s, as the number filter writes."""
        for page in pages or self.pages():
            for team in (A, B):
                expect(self.team(page, "data-game", team)).to_have_text(
                    number(result["totals"][team]), timeout=LIVE_MS)
                expect(self.team(page, "data-matches", team)).to_have_text(
                    str(result["matches"][team]), timeout=LIVE_MS)
                expect(self.team(page, "data-match", team)).to_contain_text(
                    number(result["match"][team]), timeout=LIVE_MS)


def seat_the_table(new_context, make_table) -> TrempTable:
    """The tablet makes a Tremp table (Rob deals first) and four phones take their seats."""
    tablet = new_context("tablet", viewport={"width": 800, "height": 1280}).new_page()
    join_url = make_table(tablet, "Tremp night", list(PLAYERS), "tremp")
    tablet.get_by_test_id("dealer-choice").select_option("1")
    tablet.get_by_test_id("set-dealer").click()
    expect(tablet.locator('li.seat[data-seat="1"]').get_by_test_id("first-dealer")).to_be_visible()
    phones = {}
    for position, player in enumerate(PLAYERS, 1):
        phone = new_context("phone").new_page()
        phone.goto(join_url)
        phone.get_by_test_id(f"claim-{position}").click()
        expect(phone.locator("#you-are")).to_have_text(f"You are {player} (seat {position})")
        phones[player] = phone
    for position in range(1, 5):
        expect(tablet.locator(f'li.seat[data-seat="{position}"]')).to_have_attribute(
            "data-joined", "yes", timeout=LIVE_MS)
    return TrempTable(tablet, phones)


def test_a_whole_game_of_tremp(new_context, make_table, screenshot):
    table = seat_the_table(new_context, make_table)
    tablet, phones = table.tablet, table.phones
    tablet.get_by_test_id("start-game").click()
    expect(tablet.get_by_test_id("beginners")).not_to_be_checked()
    tablet.get_by_test_id("start-options").click()
    table.wait_phase("bidding")
    for page in table.pages():
        expect(page.get_by_test_id("dealer")).to_contain_text("Rob deals")
        expect(page.get_by_test_id("deal-steps")).to_contain_text(
            "Rob shuffles and deals all 52 cards one at a time, clockwise, starting with Sam")
    table.wait_turn("Sam")
    expect(phones["Sam"].get_by_test_id("bid-form")).to_be_visible()
    assert phones["Nick"].get_by_test_id("bid-form").count() == 0
    above_the_fold(phones["Sam"], "display")
    above_the_fold(phones["Sam"], "pass")
    touch_sized(phones["Sam"].locator("#round label.pick"), "the 52 tiles of Sam's picker")
    touch_sized(phones["Sam"].locator("#round button:visible"), "Sam's buttons")
    screenshot(phones["Sam"], "01-sam-to-bid")

    # --- Hand 1: the first three pass; the dealer must bid -----------------------------------
    table.bidding("Sam", ["pass", "pass", "pass"])
    rob = phones["Rob"]
    table.wait_turn("Rob", [rob])
    expect(rob.get_by_test_id("must-bid")).to_contain_text(
        "Sam, Nick and Emily passed, so you, the dealer, must display a card (house rule).")
    expect(rob.get_by_test_id("pass")).to_be_disabled()
    for page in (tablet, phones["Emily"]):
        expect(page.get_by_test_id("must-bid")).to_contain_text("Rob, the dealer, must display",
                                                                timeout=LIVE_MS)
    above_the_fold(rob, "display")  # the next action comes first, on one screenful
    screenshot(rob, "02-rob-must-bid")
    table.say("Rob", "2♣")
    for page in table.pages():
        bid = page.get_by_test_id("bid-now")
        expect(bid).to_have_attribute("data-bid", "-3", timeout=LIVE_MS)
        expect(bid).to_have_attribute("data-trump", "♣")
        expect(bid).to_have_attribute("data-tremp", "♠")
        expect(bid).to_contain_text("Bid −3 by Rob")
    table.bidding("Sam", ["pass", "pass", "pass"])
    table.wait_phase("play")
    assert phones["Sam"].get_by_test_id("tricks-form").count() == 0  # the opponents do not
    above_the_fold(phones["Nick"], "tricks-13")
    above_the_fold(tablet, "tricks-13")
    touch_sized(phones["Nick"].locator("#round button:visible"), "Nick's tricks")
    touch_sized(tablet.locator("#round button:visible"), "the tablet's buttons")
    table.tricks(6, phones["Nick"])  # the bidder's partner enters them on his phone
    table.wait_phase("score")
    expect(tablet.get_by_test_id("preview").get_by_test_id("points-line")).to_have_text(
        "Rob & Nick made −3 with 6 tricks: +P(−3) = ⅛ match, +P(18) = 262144 game")
    table.confirm()

    # --- Hand 2: ten displays from the phones; the judge; the counter; a failed bid ----------
    table.wait_phase("bidding")
    expect(tablet.get_by_test_id("dealer")).to_contain_text("Sam deals")
    table.bidding("Nick", HAND_2 + ["pass", "pass", "pass"])
    table.wait_phase("play")
    shown = {"Nick": "3♦ 7♦ J♦", "Emily": "4♦ 8♦ Q♥", "Rob": "5♦ 9♦", "Sam": "6♦ 10♦"}
    for page in table.pages():
        for player, cards in shown.items():  # left to right in the order displayed
            expect(page.get_by_test_id(f"shown-{player}")).to_have_attribute("data-cards", cards)
        bid = page.get_by_test_id("bid-now")
        expect(bid).to_have_attribute("data-trump", "♥")
        expect(bid).to_have_attribute("data-tremp", "♦")
    expect(phones["Sam"].locator("#round h2")).to_have_text("Emily won the bid at 6 with Q♥")
    screenshot(tablet, "03-tablet-play")

    # Emily asks the judge on her phone: an ace beats the king of its suit.
    emily = phones["Emily"]
    table.judge(emily, ["K♥", "A♥", "2♠", "3♠"])
    touch_sized(emily.locator(".judge-picker label.pick"), "the judge's tiles")
    expect(emily.get_by_test_id("judge-verdict")).to_have_text("Sam takes the trick with A♥.")
    expect(emily.get_by_test_id("judge-why")).to_contain_text(
        "A♥ beats K♥: an ace beats the king of its suit")
    screenshot(emily, "04-emily-judge")
    emily.get_by_test_id("judge-done").click()
    table.wait_phase("play", [emily])

    # The tablet judges trick 1 and counts it in one tap, then counts the other twelve.
    table.judge(tablet, ["K♥", "2♥", "3♣", "4♣"])
    expect(tablet.get_by_test_id("judge-why")).to_have_text("K♥ was led and never beaten")
    tablet.get_by_test_id("judge-count").click()
    expect(tablet.get_by_test_id("counter")).to_have_attribute("data-played", "1",
                                                              timeout=LIVE_MS)
    for k in range(12):
        table.count("Nick" if k % 2 else "Rob")
    expect(tablet.get_by_test_id("counted")).to_have_text("0")
    table.wait_phase("score")
    expect(tablet.get_by_test_id("preview").get_by_test_id("points-line")).to_have_text(
        "Sam & Emily failed 6 with 0 tricks; Rob & Nick took 13: +P(5) = 32 game, "
        "+P(10) = 1024 match")
    expect(tablet.get_by_test_id("preview").get_by_test_id("match-won")).to_contain_text(
        "Rob & Nick win the match at 272")
    above_the_fold(tablet, "confirm-hand")
    screenshot(tablet, "05-tablet-counted")
    table.confirm()
    table.wait_phase("bidding")
    for page in table.pages():  # the losing team deals first in match 2
        won = page.get_by_test_id("last-hand").get_by_test_id("match-won")
        expect(won).to_have_attribute("data-threshold", "272", timeout=LIVE_MS)
        expect(won).to_contain_text("Rob & Nick win the match at 272")
        expect(won.get_by_test_id("match-dealer")).to_have_text("Emily")
        expect(table.team(page, "data-match", B)).to_contain_text("of 136")
        expect(table.team(page, "data-match", A)).to_contain_text("of 272")
    screenshot(phones["Sam"], "06-sam-match-won")

    # --- Hand 3: the tablet bids for the phones; match 2 won at 136 by the trailing team ----
    table.bidding("Rob", HAND_3 + ["pass", "pass", "pass"], by_tablet=True)
    table.wait_phase("play")
    table.tricks(0)
    expect(tablet.get_by_test_id("preview").get_by_test_id("points-line")).to_have_text(
        "Rob & Nick failed 5 with 0 tricks; Sam & Emily took 13: +P(4) = 16 game, "
        "+P(8) = 256 match")
    table.confirm()
    for page in table.pages():
        won = page.get_by_test_id("last-hand").get_by_test_id("match-won")
        expect(won).to_have_attribute("data-threshold", "136", timeout=LIVE_MS)
        expect(won).to_contain_text("Sam & Emily win the match at 136")
        expect(won.get_by_test_id("match-dealer")).to_have_text("Rob")

    # --- Hand 1 corrected: Rob & Nick took 7 tricks, not 6 -----------------------------------
    before = rules.replay(tablet.context.request.get(record_url(tablet)).json())
    tablet.get_by_test_id("correct-1").click()
    expect(tablet.get_by_test_id("bids")).to_have_value(
        "pass pass pass 2♣ pass pass pass")
    tablet.get_by_test_id("tricks").select_option("7")
    tablet.get_by_test_id("preview-round").click()
    expect(tablet.get_by_test_id("correction-preview")).to_be_visible()
    tablet.get_by_test_id("save-round").click()
    expect(tablet.locator("#round")).to_be_visible()
    record = tablet.context.request.get(record_url(tablet)).json()
    assert record["rounds"][0]["tricks"] == 7
    after = rules.replay(record)
    assert after["totals"][A] != before["totals"][A]
    table.expect_totals(after)
    expect(phones["Nick"].get_by_test_id("corrected")).to_have_text(
        f"Round 1 was corrected: your total {number(before['totals'][A])} → "
        f"{number(after['totals'][A])}.", timeout=LIVE_MS)
    assert phones["Sam"].get_by_test_id("corrected").count() == 0

    # --- Hands 4 and 5: Sam & Emily win matches 3 and 4: a two-match lead ends the game ------
    table.bidding("Sam", HAND_4 + ["pass", "pass", "pass"], by_tablet=True)
    table.tricks(0)
    table.confirm()
    expect(table.team(tablet, "data-matches", B)).to_have_text("2", timeout=LIVE_MS)
    table.bidding("Emily", HAND_5 + ["pass", "pass", "pass"], by_tablet=True)
    table.tricks(0)
    expect(tablet.get_by_test_id("ends-game")).to_be_visible()
    table.confirm()
    table.wait_phase("end")
    for page in table.pages():
        expect(page.get_by_test_id("winner")).to_have_text(
            "Sam & Emily win the game, 3 matches to 1.", timeout=LIVE_MS)
    screenshot(phones["Emily"], "07-emily-end")
    screenshot(tablet, "07-tablet-end")

    # --- Every number came from the rules: replay the exported record ------------------------
    record = tablet.context.request.get(record_url(tablet)).json()
    result = rules.replay(record)
    assert result["finished"] and result["winners"] == ["Sam", "Emily"]
    assert [r["dealer"] for r in result["rounds"]] == ["Rob", "Sam", "Emily", "Rob", "Nick"]
    assert [r["breakdown"]["match_won"] for r in result["rounds"]] == [None, A, B, B, B]
    assert [r["breakdown"]["thresholds"][r["breakdown"]["match_won"] or A]
            for r in result["rounds"]] == [272, 272, 136, 272, 272]
    table.expect_totals(result)
    rows = tablet.locator('[data-testid="score-table"] tbody tr[data-round]')
    for n, done in enumerate(result["rounds"], 1):
        row = rows.nth(n - 1)
        for team in (A, B):
            expect(row.locator(f'[data-running="{team}"]')).to_have_text(
                number(done["totals"][team]))


def record_url(tablet) -> str:
    """The game's record.json, as the tablet links it."""
    link = tablet.get_by_test_id("record-json").get_attribute("href")
    return re.sub(r"#.*$", "", link)
