"""Issue 9 in a real browser: a whole Trumplestiltskin game, four phones and the tablet.

Ann, Bo, Cy and Di sit clockwise (Ann deals first), playing to 30 (the Gnome to 350):

- hand 1: Cy looks at the Gnome before his turn and passes; Bo bids with the stepper (+5,
  +1); Di's phone drops off the Wi-Fi, so she says "8" across the table and the
  scorekeeper bids it for her on the tablet; back online, her phone's own "Bid" is
  refused as out of turn, on Di's phone; Ann types 9 and takes it.
  The Gnome is the red joker: Ann picks hearts, and trump shows on every screen. The four
  phones enter their points in the same instant, Bo with the counter (its working shown);
- hand 2: everyone passes; the last player is told he may still bid; the hand is thrown
  in and the deal passes;
- hand 3: Di looks, bids, takes it at 12 and fails: she loses 12, the Gnome gets twice her
  points; the hand is then corrected from the score sheet (Bo took 9, not 8);
- hand 4: Bo takes it and ends the game over the target with fewer points than Ann: the
  last-taker rule decides, and every screen says so, with the standings and the Gnome.

Every number the pages show at the end is the one ``replay`` gives for the exported
record. Screenshots: test-output/screenshots/test_a_whole_game_of_trumplestiltskin-*.png.
"""

from __future__ import annotations

import re
from fractions import Fraction

from playwright.sync_api import expect

from companion.rules import replay
from tests.browser.screens import TableScreens, in_first_screen, touch_sized, without_push
from tests.waiting import HANG_MS

LIVE_MS = HANG_MS  # a wait for the state, up to the hang ceiling
WAIT_MS = HANG_MS  # a wait for the state, up to the hang ceiling
PLAYERS = ("Ann", "Bo", "Cy", "Di")


def value(shown: str) -> Fraction:
    """A number as the pages write it (``−12``, ``3½``)."""
    shown = shown.strip().replace("−", "-")
    whole = shown.rstrip("½")
    number = Fraction(int(whole) if whole not in ("", "-") else 0)
    if shown.endswith("½"):
        number += Fraction(-1, 2) if shown.startswith("-") else Fraction(1, 2)
    return number


def first_screen(page, locator, what: str) -> None:
    """``locator`` is wholly inside the first screen, unscrolled (the next action comes first)."""
    in_first_screen(page, locator, what)


class TrumpTable(TableScreens):
    """A Trumplestiltskin table in the browser: the scorekeeper's tablet and four phones.

    The helpers tap the pages as people at a table would and wait for what a
    person would wait for; the test asserts the rest.
    """

    live_ms = WAIT_MS

    def wait_turn(self, player: str) -> None:
        """Wait until ``player``'s phone shows the bid control, Bid and Pass on its first screen."""
        phone = self.phones[player]
        expect(phone.get_by_test_id("bid-box")).to_be_visible(timeout=WAIT_MS)
        first_screen(phone, phone.get_by_test_id("pass"), f"{player}'s Pass")

    def speeches(self, page=None) -> list[tuple[str, str]]:
        """The bids and passes a screen shows, in order."""
        page = page or self.tablet
        items = page.locator('[data-testid="speeches"] li[data-speech]')
        return [(item.get_attribute("data-player"), item.locator("strong").inner_text())
                for item in items.all()]

    def expect_speeches(self, wanted: list[tuple[str, str]]) -> None:
        """Wait until every screen shows these bids and passes."""
        for page in self.pages():
            expect(page.locator('[data-testid="speeches"] li[data-speech]')).to_have_count(
                len(wanted), timeout=WAIT_MS)
            assert self.speeches(page) == wanted

    def bid(self, player: str, amount: int) -> None:
        """``player`` types ``amount`` on their phone's number pad and bids."""
        self.wait_turn(player)
        phone = self.phones[player]
        phone.get_by_test_id("bid-input").fill(str(amount))
        phone.get_by_test_id("bid-submit").click()
        expect(phone.get_by_test_id("bid-box")).to_have_count(0, timeout=WAIT_MS)

    def pass_(self, player: str) -> None:
        """``player`` passes on their phone."""
        self.wait_turn(player)
        phone = self.phones[player]
        phone.get_by_test_id("pass").click()
        expect(phone.get_by_test_id("bid-box")).to_have_count(0, timeout=WAIT_MS)

    def look(self, player: str) -> None:
        """``player`` taps "I looked at the Gnome"."""
        phone = self.phones[player]
        phone.get_by_test_id("look").click()
        expect(phone.get_by_test_id("looked-note")).to_be_visible(timeout=WAIT_MS)

    def turn_gnome(self, player: str, card: str, trump: str | None = None) -> None:
        """The taker enters the Gnome card on their phone (and, for a joker, picks trump)."""
        phone = self.phones[player]
        expect(phone.get_by_test_id("gnome-picker")).to_be_visible(timeout=WAIT_MS)
        first_screen(phone, phone.locator(".gnome-cards"), f"{player}'s Gnome cards")
        touch_sized(phone.locator("#round button"), f"{player}'s Gnome cards")
        phone.get_by_test_id(f"gnome-{card.replace(' ', '-')}").click()
        if trump is not None:
            phone.get_by_test_id(f"trump-{trump}").click()
        self.wait_phase("points")

    def enter_points(self, typed: dict[str, int], counted: tuple[str, ...] = ()) -> None:
        """The players type their points (``counted``: theirs are on the counter already),
        then all tap Enter in the same instant; every screen shows the tally."""
        for player, points in typed.items():
            phone = self.phones[player]
            first_screen(phone, phone.get_by_test_id("points-form"), f"{player}'s points")
            phone.get_by_test_id("points-input").fill(str(points))
        taps = dict.fromkeys(typed, "points-submit") | dict.fromkeys(counted, "count-submit")
        self.tap_together({name: taps[name] for name in PLAYERS})
        self.wait_phase("tally")

    def count(self, player: str, honours: int, trumps: int, jokers: int) -> str:
        """``player`` counts their cards on the counter; returns the working it shows."""
        phone = self.phones[player]
        for what, times in (("honours", honours), ("trumps", trumps), ("jokers", jokers)):
            for done in range(1, times + 1):
                phone.get_by_test_id(f"count-{what}-plus").click()
                expect(phone.get_by_test_id(f"count-{what}")).to_have_text(str(done),
                                                                            timeout=WAIT_MS)
        return phone.get_by_test_id("count-working").inner_text()

    def tap_together(self, taps: dict[str, str]) -> None:
        """Each player taps their own button (a test id) in the same instant.

        Every page is told one moment on the shared clock and taps by itself then
        (a timer in the page), so the requests really race at the server.
        """
        pages = {name: self.phones[name] for name in taps}
        moment = self.tablet.evaluate("Date.now()") + 500
        for name, page in pages.items():
            page.evaluate("""([testid, moment]) => {
                window.companionTapped = "waiting";
                setTimeout(() => {
                    const target = document.querySelector(`[data-testid="${testid}"]`);
                    window.companionTapped = target ? "tapped" : "missing";
                    if (target) { target.click(); }
                }, Math.max(0, moment - Date.now()));
            }""", [taps[name], moment])
        for name, page in pages.items():
            page.wait_for_function("() => window.companionTapped !== 'waiting'", polling=100)
            assert page.evaluate("window.companionTapped") == "tapped", name

    def confirm(self, label: str) -> None:
        """The scorekeeper confirms the hand (one tap: the button waits for the hand)."""
        rows = self.rows()
        done = rows.count()
        button = self.tablet.get_by_test_id("confirm-hand")
        expect(button).to_be_enabled(timeout=WAIT_MS)
        expect(button).to_contain_text(label)
        first_screen(self.tablet, button, "the tablet's confirm")
        button.click()
        expect(rows).to_have_count(done + 1, timeout=WAIT_MS)

    def totals(self, page) -> dict[str, Fraction]:
        """The totals row of a page's score sheet, the Gnome's too."""
        cells = page.locator('[data-testid="score-table"] tfoot td[data-total]')
        return {cell.get_attribute("data-total"): value(cell.inner_text())
                for cell in cells.all()}

    def expect_totals(self, wanted: dict[str, int]) -> None:
        """Wait until every screen's score sheet shows these totals."""
        for page in self.pages():
            for name, total in wanted.items():
                cell = page.locator(f'[data-testid="score-table"] tfoot td[data-total="{name}"]')
                expect(cell).to_have_text(re.compile(rf"^\s*{str(total).replace('-', '[-−]')}"
                                                     r"\s*$"), timeout=WAIT_MS)


def refused(console_errors: list, status: str) -> None:
    """Take one expected refusal off the console errors (the browser logs every 4xx)."""
    expected = next((e for e in console_errors if status in e), None)
    assert expected is not None, f"no {status} was logged"
    console_errors.remove(expected)


def seat_phones(new_context, make_table) -> TrumpTable:
    """A four-seat Trumplestiltskin table (Ann deals first), a phone in every seat."""
    tablet = new_context("tablet").new_page()
    join_url = make_table(tablet, "Gnome night", list(PLAYERS), "trumplestiltskin")
    phones = {}
    for position, player in enumerate(PLAYERS, 1):
        phone = new_context("phone").new_page()
        phone.goto(join_url)
        phone.get_by_test_id(f"claim-{position}").click()
        expect(phone.locator("#you-are")).to_have_text(f"You are {player} (seat {position})")
        phones[player] = phone
    for position in range(1, 5):
        expect(tablet.locator(f'li.seat[data-seat="{position}"]')).to_have_attribute(
            "data-joined", "yes", timeout=WAIT_MS)
    tablet.get_by_test_id("dealer-choice").select_option("1")  # Ann deals first
    # The form's own answer (the table page it is sent back to), not a push that may bring
    # the same words first: a tap before that answer is swapped in would be undone by it.
    with tablet.expect_response(lambda answer: answer.request.redirected_from is not None
                                and "/dealer" in answer.request.redirected_from.url):
        tablet.get_by_test_id("set-dealer").click()
    expect(tablet.locator(".htmx-added, .htmx-settling, .htmx-request")).to_have_count(0)
    expect(tablet.locator("#first-dealer")).to_contain_text("Ann (seat 1) deals first")
    return TrumpTable(tablet, phones)


def test_a_whole_game_of_trumplestiltskin(new_context, make_table, screenshot, console_errors):
    table = seat_phones(new_context, make_table)
    tablet, phones = table.tablet, table.phones
    tablet.set_viewport_size({"width": 800, "height": 1280})
    ann, bo, cy, di = (phones[name] for name in PLAYERS)

    # --- Setting up: the targets, the deck, the score sheet with the Gnome's column ----------
    tablet.get_by_test_id("start-game").click()
    expect(tablet.get_by_test_id("target")).to_have_value("200")
    expect(tablet.get_by_test_id("gnome-target")).to_have_value("350")
    tablet.get_by_test_id("target").fill("30")
    tablet.get_by_test_id("start-options").click()
    table.wait_phase("auction")
    for page in table.pages():
        expect(page.get_by_test_id("deck-steps")).to_contain_text("the Blanket")
        expect(page.get_by_test_id("deal-steps")).to_contain_text(
            "Di (on the dealer’s right) picks one Blanket card face down: the Gnome.")
        expect(page.locator('[data-testid="score-table"] th.gnome-col')).to_have_text("Gnome")
    screenshot(tablet, "01-tablet-hand-1")

    # --- Hand 1: the auction on the phones -----------------------------------------------------
    table.wait_turn("Bo")
    touch_sized(bo.locator("#round button"), "Bo's bid control")
    first_screen(tablet, tablet.get_by_test_id("turn"), "whose turn, on the tablet")
    expect(bo.get_by_test_id("bid-input")).to_have_value("1")  # the least, as a value
    expect(bo.get_by_test_id("bid-minus")).to_be_disabled()
    for name in ("Ann", "Cy", "Di"):
        expect(phones[name].get_by_test_id("turn")).to_contain_text("Bo's turn to bid")
    table.look("Cy")  # before his turn
    for page in table.pages():
        expect(page.get_by_test_id("looked-list")).to_have_text(
            "Looked at the Gnome: Cy.", timeout=WAIT_MS)
    sent: list[str] = []  # the steps are done in the page: no request until Bid
    bo.on("request", lambda request: sent.append(request.url)
          if request.method == "POST" else None)
    bo.get_by_test_id("bid-plus5").click()
    expect(bo.get_by_test_id("bid-input")).to_have_value("6")
    expect(bo.get_by_test_id("bid-minus")).to_be_enabled()
    bo.get_by_test_id("bid-plus1").click()
    expect(bo.get_by_test_id("bid-input")).to_have_value("7")
    assert sent == [], sent
    screenshot(bo, "02-bo-stepper", docs="trumplestiltskin-phone-bid")
    bo.get_by_test_id("bid-submit").click()
    table.pass_("Cy")
    table.expect_speeches([("Bo", "7"), ("Cy", "pass")])

    # Di's phone drops off the Wi-Fi (its screen stays as it was); she says "8" across the
    # table and the scorekeeper bids it for her; back online, her phone's "Bid" is refused.
    table.wait_turn("Di")
    # (Her stream says the versions only from now on: it brings her no answers either.)
    without_push(di.context)
    di.reload()
    expect(di.locator("body")).to_have_attribute("data-stream", "on", timeout=WAIT_MS)
    unanswered: list[str] = []  # her phone's polls, answered "nothing new" while it is off
    di.route("**/seat/pulse**", lambda route: (unanswered.append(route.request.url),
                                                 route.fulfill(status=204)))
    expect(tablet.get_by_test_id("turn")).to_contain_text("Di's turn to bid", timeout=WAIT_MS)
    tablet.get_by_test_id("act-for").locator("summary").click()
    expect(tablet.get_by_test_id("bid-input")).to_have_value("8")
    with di.expect_request("**/seat/pulse**", timeout=WAIT_MS):  # she hears of it, in vain
        tablet.get_by_test_id("bid-submit").click()
    expect(tablet.get_by_test_id("turn")).to_contain_text("Ann's turn to bid", timeout=WAIT_MS)
    expect(di.get_by_test_id("bid-box")).to_be_visible()  # still showing the old moment
    di.get_by_test_id("bid-submit").click()
    expect(di.get_by_test_id("error")).to_have_text(  # the tablet bid for her a moment ago
        "Someone else acted first, on another screen. Di cannot bid 8 out of turn: it is "
        "Ann's turn.", timeout=WAIT_MS)
    refused(console_errors, "409 (CONFLICT)")
    expect(di.get_by_test_id("bid-box")).to_have_count(0)
    di.unroute("**/seat/pulse**")
    # Her phone polled once more at most, not again and again.
    assert 1 <= len(unanswered) <= 3, unanswered
    screenshot(di, "03-di-out-of-turn")

    table.bid("Ann", 9)
    table.pass_("Bo")
    table.pass_("Di")  # Ann takes it at 9
    table.wait_phase("gnome")
    table.expect_speeches([("Bo", "7"), ("Cy", "pass"), ("Di", "8"), ("Ann", "9"),
                           ("Bo", "pass"), ("Di", "pass")])
    for name in ("Bo", "Cy", "Di"):
        expect(phones[name].get_by_test_id("waiting-gnome")).to_contain_text(
            "Ann took the bid at 9 and turns the Gnome over")

    # --- Hand 1: a joker Gnome; the taker picks trump; trump everywhere ------------------------
    ann.get_by_test_id("gnome-red-joker").click()
    expect(ann.get_by_test_id("trump-♦")).to_be_visible(timeout=WAIT_MS)
    expect(ann.get_by_test_id("trump-♠")).to_have_count(0)
    screenshot(ann, "04-ann-picks-trump")
    ann.get_by_test_id("trump-♥").click()
    table.wait_phase("points")
    for page in table.pages():
        expect(page.get_by_test_id("trump")).to_have_text("Trump ♥")
        expect(page.get_by_test_id("gnome-card")).to_have_text("Gnome red joker")

    # --- Hand 1: four phones enter their points in the same instant ----------------------------
    touch_sized(bo.locator("#round button"), "Bo's points and counter")
    working = table.count("Bo", honours=3, trumps=1, jokers=1)
    assert working == "A/K 3 + trumps 1 + jokers 2×1 = 6"
    expect(bo.get_by_test_id("count-submit")).to_have_text("Enter 6 points")
    screenshot(bo, "05-bo-counts", docs="trumplestiltskin-phone-count")
    table.enter_points({"Ann": 14, "Cy": 3, "Di": 2}, counted=("Bo",))
    tally = tablet.get_by_test_id("tally")
    expect(tally.locator('td[data-score="Ann"]')).to_have_text("28")  # made 9 with 14: double
    expect(tally.locator('td[data-to-gnome="Cy"]')).to_have_text("3")  # never bid
    expect(tally.locator('td[data-score="Di"]')).to_have_text("2")  # bid 8, took 2
    expect(tally.locator('td[data-total="Gnome"]')).to_have_text("3")
    expect(bo.get_by_test_id("tally-line")).to_contain_text("top bid 7 · took 6 points")
    expect(cy.get_by_test_id("tally-line")).to_contain_text("never bid")
    screenshot(tablet, "06-tablet-tally", docs="trumplestiltskin-tablet-tally")
    touch_sized(tablet.locator("#round button"), "the tablet's tally")
    table.confirm("Confirm hand 1 (Bo deals next)")
    table.expect_totals({"Ann": 28, "Bo": 6, "Cy": 0, "Di": 2, "Gnome": 3})

    # --- Hand 2: everyone passes: thrown in, the deal passes -----------------------------------
    table.wait_phase("auction")
    for name in ("Cy", "Di", "Ann"):
        table.pass_(name)
    table.wait_turn("Bo")
    for page in table.pages():
        expect(page.get_by_test_id("last-chance")).to_be_visible(timeout=WAIT_MS)
    screenshot(bo, "07-bo-last-chance")
    table.pass_("Bo")
    table.wait_phase("thrown-in")
    for page in table.pages():
        expect(page.get_by_test_id("thrown-in")).to_contain_text(
            "Everyone passed: the hand is thrown in.")
    table.confirm("Throw the hand in: Cy deals next")

    # --- Hand 3: Di looks, takes it at 12 and fails --------------------------------------------
    table.wait_phase("auction")
    table.wait_turn("Di")
    table.look("Di")
    table.bid("Di", 10)
    table.pass_("Ann")
    table.bid("Bo", 11)
    table.pass_("Cy")
    table.bid("Di", 12)
    table.pass_("Bo")
    table.turn_gnome("Di", "9♣")
    table.enter_points({"Ann": 1, "Bo": 8, "Cy": 4, "Di": 7})
    expect(di.get_by_test_id("tally-line")).to_contain_text(
        "failed after looking at the Gnome, loses 12; the Gnome gets twice the points, 14")
    expect(di.locator('[data-testid="tally-line"] [data-score="Di"]')).to_have_text("−12")
    table.confirm("Confirm hand 3 (Di deals next)")
    table.expect_totals({"Ann": 28, "Bo": 14, "Cy": 0, "Di": -10, "Gnome": 22})

    # --- Correcting hand 3 from the score sheet: Bo took 9, Ann 0 ------------------------------
    tablet.get_by_test_id("correct-3").click()
    expect(tablet.get_by_test_id("correct-form")).to_be_visible()
    expect(tablet.get_by_test_id("points-2")).to_have_value("8")
    tablet.get_by_test_id("points-1").fill("0")
    tablet.get_by_test_id("points-2").fill("9")
    tablet.get_by_test_id("preview-round").click()
    preview = tablet.get_by_test_id("correction-preview")
    expect(preview.locator('td[data-total="Bo"]')).to_contain_text("14 → 15")
    expect(tablet.get_by_test_id("gnome-correction")).to_have_text(
        "The Gnome: hand 3 19 → 18; total 22 → 21")
    screenshot(tablet, "08-tablet-correction")
    tablet.get_by_test_id("save-round").click()
    table.expect_totals({"Ann": 28, "Bo": 15, "Cy": 0, "Di": -10, "Gnome": 21})
    expect(bo.get_by_test_id("corrected")).to_contain_text("your total 14 → 15", timeout=WAIT_MS)

    # --- Hand 4: Bo takes it and passes the target with fewer points than Ann ------------------
    table.wait_phase("auction")
    table.bid("Ann", 5)
    table.bid("Bo", 6)
    table.pass_("Cy")
    table.pass_("Di")
    table.pass_("Ann")
    table.turn_gnome("Bo", "9♠")
    table.enter_points({"Ann": 4, "Bo": 8, "Cy": 2, "Di": 1})
    expect(tablet.get_by_test_id("ends-game")).to_be_visible()
    table.confirm("Confirm hand 4")
    table.wait_phase("end")
    for page in table.pages():
        expect(page.get_by_test_id("winner")).to_have_text("Winner: Bo")
        expect(page.get_by_test_id("end-why")).to_have_text(
            "Bo took the last bid and has more than 30.")
        expect(page.get_by_test_id("end-over")).to_have_text(
            "The game ended after hand 4: Ann and Bo reached 30.")
    for name, phone in phones.items():  # each phone's own line highlighted
        expect(phone.locator('[data-testid="standings"] tr.mine')).to_have_attribute(
            "data-player", name)
    screenshot(tablet, "09-tablet-end", docs="trumplestiltskin-tablet-end")
    screenshot(ann, "09-ann-end")

    # --- Every number at the end is replay's of the exported record ----------------------------
    record = tablet.request.get(tablet.url.split("#")[0] + "/games/1/record.json").json()
    result = replay(record)
    assert result["finished"] and result["winners"] == ["Bo"]
    assert result["totals"] == {"Ann": 32, "Bo": 31, "Cy": 0, "Di": -10}
    assert record["rounds"][0]["gnome"] == "red joker" and record["rounds"][0]["trump"] == "♥"
    assert record["rounds"][0]["looked"] == ["Cy"] and record["rounds"][2]["looked"] == ["Di"]
    assert record["rounds"][1] == {"bids": [["Cy", "pass"], ["Di", "pass"], ["Ann", "pass"],
                                            ["Bo", "pass"]]}
    wanted = {**result["totals"], "Gnome": result["gnome"]}
    for page in table.pages():
        assert table.totals(page) == wanted
        standings = page.locator('[data-testid="standings"] td[data-total]')
        assert {cell.get_attribute("data-total"): value(cell.inner_text())
                for cell in standings.all()} == wanted
    rows = tablet.locator('[data-testid="score-table"] tbody tr[data-round]')
    for number, done in enumerate(result["rounds"], 1):
        scores = rows.nth(number - 1).locator("span.score").all_inner_texts()
        assert [value(s) for s in scores] == [*(done["scores"][p] for p in PLAYERS),
                                             done["gnome"]]
