"""Clumond in the browser tests: its table (the ``clumond_table`` fixture, lent to every
browser test by tests/browser/conftest.py, which finds it here by the game's name) and its
long evening (``tests.browser.long_evening`` finds it by its name)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from tests.browser.long_evening import ROUNDS
from tests.browser.screens import LIVE_MS, TableScreens, at_once, card_code, in_first_screen

try:
    from playwright.sync_api import expect
except ImportError:  # reported by the ``browser`` fixture in conftest.py
    expect = None

FIXTURES = ("clumond_table_fixture",)
"""The fixtures this helper lends every browser test (tests/browser/conftest.py)."""


def said(text: str) -> re.Pattern:
    """``text`` as a pattern in which a minus may be written ``−`` or ``-``."""
    return re.compile(re.escape(text).replace("−", "[-−]"))


def above_the_fold(page, locator) -> None:
    """``locator`` shows whole on the first screen, without scrolling."""
    in_first_screen(page, locator)


class ClumondTable(TableScreens):
    """A Clumond table in the browser: the scorekeeper's tablet and the three players' phones.

    ``phones`` maps each player's name to their phone's page (the seat page). The
    helpers tap the pages as people at a table would and wait for what a person would
    wait for; the tests assert the rest.
    """

    said = staticmethod(said)
    above_the_fold = staticmethod(above_the_fold)

    def answer(self, player: str, yes: bool) -> None:
        """``player`` answers "Go for Clumond?" on their phone, once it is their turn."""
        phone = self.phones[player]
        expect(phone.get_by_test_id("go-for-clumond")).to_be_visible(timeout=LIVE_MS)
        phone.locator("#round").get_by_test_id("offer-yes" if yes else "offer-no").click()
        expect(phone.get_by_test_id("go-for-clumond")).to_have_count(0, timeout=LIVE_MS)

    def nobody_goes(self, order) -> None:
        """The players say no in ``order`` (from the dealer's left); the tricks are next."""
        for player in order:
            self.answer(player, False)
        self.wait_phase("tricks")

    def goes(self, passing, declarer: str, trump: str) -> None:
        """The players in ``passing`` say no, ``declarer`` says yes and names ``trump``."""
        for player in passing:
            self.answer(player, False)
        self.answer(declarer, True)
        phone = self.phones[declarer]
        expect(phone.get_by_test_id("name-trump")).to_be_visible(timeout=LIVE_MS)
        tile = "trump-none" if trump == "none" else f"trump-{'♠♥♦♣'.index(trump) + 1}"
        above_the_fold(phone, phone.locator("#round").get_by_test_id(tile))
        phone.locator("#round").get_by_test_id(tile).click()
        self.wait_phase("tricks")

    def open_entry(self, player: str) -> None:
        """``player`` opens their tricks-and-kept-cards page on their phone."""
        phone = self.phones[player]
        phone.locator("#round").get_by_test_id("enter-mine").click()
        expect(phone.get_by_test_id("entry-form")).to_be_visible(timeout=LIVE_MS)

    def pick(self, player: str, tricks: int, kept=()) -> None:
        """On the entry page: tap the tricks and tick exactly the ``kept`` cards."""
        phone = self.phones[player]
        phone.locator(f'label.tile:has(> input[name="tricks"][value="{tricks}"])').click()
        wanted = {card_code(card) for card in kept}
        ticked = set(phone.locator('input[name="kept"]:checked').evaluate_all(
            "boxes => boxes.map(box => box.value)"))
        for code in sorted(ticked ^ wanted):
            phone.locator(f'label.pick:has(> input[name="kept"][value="{code}"])').click()
        expect(phone.get_by_test_id("kept-count")).to_have_text(f"{len(wanted)} of 3")
        expect(phone.get_by_test_id("working")).to_contain_text(f"{tricks} trick",
                                                                timeout=LIVE_MS)

    def save_at_once(self, players) -> None:
        """The players tap "Save" in the same instant; each phone is back on the round."""
        pages = [self.phones[p] for p in players]
        at_once(pages, '[data-testid="save-entry"]')
        for page in pages:
            expect(page.get_by_test_id("my-entry")).to_have_attribute("data-entered", "yes",
                                                                      timeout=LIVE_MS)

    def enter_all(self, entries: dict) -> None:
        """Every player opens their entry page, taps their round, and all save at once.

        ``entries`` maps a player to their ``(tricks, kept cards)``.
        """
        for player, (tricks, kept) in entries.items():
            self.open_entry(player)
            self.pick(player, tricks, kept)
        self.save_at_once(list(entries))

    def stack_cell(self, player: str, page=None):
        """The cell of ``player``'s stack in a page's score table (the tablet by default)."""
        page = page or self.tablet
        return page.locator(f'[data-testid="score-table"] tfoot td[data-total="{player}"]')

    def stacks(self, page=None) -> dict[str, int]:
        """The stacks a page's score table shows now, by player."""
        return {name: int(self.stack_cell(name, page).inner_text().split()[0]
                          .replace("−", "-"))
                for name in self.phones}

    def expect_stacks(self, wanted: dict[str, int], page=None) -> None:
        """Wait (live) until a page (the tablet by default) shows exactly these stacks."""
        for name, amount in wanted.items():
            expect(self.stack_cell(name, page)).to_contain_text(
                said(str(amount).replace("-", "−")), timeout=LIVE_MS)
        assert self.stacks(page) == wanted


@pytest.fixture(name="clumond_table")
def clumond_table_fixture() -> Callable[..., ClumondTable]:
    """:class:`ClumondTable`: ``clumond_table(tablet, {"Ann": phone, ...})`` once the phones
    hold their seats."""
    return ClumondTable


def long_evening(actions):
    """Clumond of 22 rounds, 100 chips, ante 5, a chip worth 10p: rounds nobody goes for
    and rounds someone goes for Clumond and names trump."""
    from tests.web import test_clumond as game_of

    game = game_of.start(actions, rounds=str(ROUNDS + 2), chip_value="0.10")
    kept = [{"Ann": ["3H", "7S", "4D"], "Bo": ["AC", "5S", "6D"], "Cy": ["5D", "QS", "2D"]},
            {"Ann": ["KH", "2D", "3D"], "Bo": ["AC", "KC", "QC"], "Cy": ["4D", "5D", "7D"]}]
    tricks = [{"Ann": 3, "Bo": 4, "Cy": 6}, {"Ann": 4, "Bo": 5, "Cy": 4},
              {"Ann": 6, "Bo": 3, "Cy": 4}, {"Ann": 5, "Bo": 4, "Cy": 4}]
    for number in range(ROUNDS + 2):
        declarer = game_of.PLAYERS[number % 3] if number % 4 == 1 else None
        game.play(tricks[number % 4], kept[number % 2], declarer=declarer,
                  trump="♠♥♦♣"[number % 4])
    return game
