"""Tromplemond in the browser tests: its table (the tablet and four phones: the
``tromplemond_table`` fixture, lent to every browser test by tests/browser/conftest.py, which
finds it here by the game's name), its hands entered the quick way, a one-round game, and its
long evening (``tests.browser.long_evening`` finds it here by its name)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.browser.long_evening import ROUNDS
from tests.browser.screens import (
    LIVE_MS,
    TableScreens,
    at_once,
    card_code,
    end_game,
    fill_new_table,
)

try:
    from playwright.sync_api import expect
except ImportError:  # reported by the ``browser`` fixture in conftest.py
    expect = None

FIXTURES = ("tromplemond_table",)
"""The fixtures this helper lends every browser test (tests/browser/conftest.py)."""

TROMPLEMOND_PLAYERS = ("Rob", "Sam", "Nick", "Emily")
"""The four players of the Tromplemond browser tests, clockwise from seat 1 (Rob deals first)."""

def pick_cards(page, rows: dict[str, list[str]], prefix: str = "", *, js: bool = True) -> None:
    """Tap the picker's tiles (as a finger would, on the tile) until each row holds ``rows``."""
    for row, cards in rows.items():
        name = prefix + row
        wanted = {card_code(card) for card in cards}
        ticked = set(page.locator(f'input[name="{name}"]:checked').evaluate_all(
            "boxes => boxes.map(box => box.value)"))
        for code in sorted(ticked ^ wanted):
            page.locator(f'label.pick:has(> input[name="{name}"][value="{code}"])').click()
        for code in wanted:
            expect(page.locator(f'input[name="{name}"][value="{code}"]')).to_be_checked()
        if js and not prefix:  # the picker says how many are ticked, of how many
            expect(page.get_by_test_id(f"{row}-count")).to_have_text(
                f"{len(wanted)} of {len(wanted)}")


def tap_slip(page, name: str) -> None:
    """Tap ``name``'s tile on a slip (it is picked on the device; nothing is sent)."""
    page.locator(f'label.slip-choice:has(> [data-testid="slip-{name}"])').click()
    expect(page.get_by_test_id(f"slip-{name}")).to_be_checked()

class TromplemondTable(TableScreens):
    """A Tromplemond table in the browser: the scorekeeper's tablet and four seated phones.

    ``phones`` maps each player's name to their phone's page. The helpers tap
    the pages as people at a table would (no request is made behind their back)
    and wait for what a person would wait for; the tests assert the rest.
    """

    def __init__(self, tablet, phones: dict, join_url: str, no_js=()) -> None:
        super().__init__(tablet, phones)
        self.join_url = join_url
        self.no_js = tuple(no_js)

    @property
    def code(self) -> str:
        """The table's join code."""
        return self.join_url.rstrip("/").rsplit("/", 1)[-1]

    # The game ------------------------------------------------------------------------------

    def start(self, *, joining_fee: str = "", tromp_stake: str = "", rounds: int = 8,
              target: int = 200, unit: str = "GBP") -> None:
        """The scorekeeper starts Tromplemond with these options; every screen shows round 1."""
        tablet = self.tablet
        tablet.get_by_test_id("start-game").click()
        expect(tablet.get_by_test_id("options-form")).to_be_visible()
        tablet.get_by_test_id("unit").select_option(unit)
        tablet.get_by_test_id("joining-fee").fill(joining_fee)
        tablet.get_by_test_id("tromp-stake").fill(tromp_stake)
        tablet.get_by_test_id("rounds").fill(str(rounds))
        tablet.get_by_test_id("target").fill(str(target))
        tablet.get_by_test_id("start-options").click()
        self.wait_phase("deal")

    # The vote ------------------------------------------------------------------------------

    def open_vote(self) -> None:
        """The tablet ends the claims and opens the vote; each phone shows its slip."""
        self.tablet.get_by_test_id("open-vote").click()
        self.wait_phase("vote")
        self.wait_slips("choose", list(self.phones))

    tap_slip = staticmethod(tap_slip)
    pick_cards = staticmethod(pick_cards)

    def slip(self, player: str):
        """``player``'s slip on their phone."""
        return self.phones[player].locator(".vote-slip")

    def wait_slips(self, step: str, players) -> None:
        """Wait until the slips of ``players`` show ``step`` (choose, in, waiting)."""
        for player in players:
            expect(self.slip(player)).to_have_attribute("data-step", step, timeout=LIVE_MS)

    def pick(self, choices: dict[str, str]) -> None:
        """Each voter taps a name on their slip: it is picked on the phone, nothing is sent."""
        for voter, target in choices.items():
            tap_slip(self.phones[voter], target)
        for voter, target in choices.items():
            expect(self.phones[voter].get_by_test_id(f"slip-{target}")).to_be_checked()
            expect(self.slip(voter)).to_have_attribute("data-step", "choose")

    def drop_at_once(self, voters) -> None:
        """The voters tap "Drop my slip" in the same instant; each slip is taken in.

        The slip taken is the one each phone showed (a reveal may open the next stage,
        whose new slip has another id).
        """
        pages = [self.phones[v] for v in voters]
        slips = [self.slip(v).get_attribute("id") for v in voters]
        at_once(pages, '[data-testid="slip-confirm"]')
        for page, slip in zip(pages, slips, strict=True):
            expect(page.locator(f'#{slip}[data-step="choose"]')).to_have_count(0,
                                                                              timeout=LIVE_MS)

    def vote(self, choices: dict[str, str]) -> None:
        """A whole ballot: every voter picks a name, then all drop their slips at once."""
        self.pick(choices)
        self.drop_at_once(list(choices))

    def counts(self, page=None) -> dict[str, int]:
        """The revealed counts a page shows now (the tablet by default), by candidate."""
        page = page or self.tablet
        rows = page.locator('[data-testid="vote-counts"] tr[data-candidate]')
        return {row.get_attribute("data-candidate"):
                int(row.locator("td").get_attribute("data-count"))
                for row in rows.all()}

    def expect_counts(self, wanted: dict[str, int], page=None) -> None:
        """Wait (live) until a page (the tablet by default) reveals exactly these counts."""
        page = page or self.tablet
        rows = page.locator('[data-testid="vote-counts"] tr[data-candidate]')
        expect(rows).to_have_count(len(wanted), timeout=LIVE_MS)
        for name, count in wanted.items():
            expect(rows.and_(page.locator(f'[data-candidate="{name}"]')).locator("td")
                   ).to_have_attribute("data-count", str(count), timeout=LIVE_MS)
        assert self.counts(page) == wanted

    # The hands -----------------------------------------------------------------------------

    def pick_hand(self, player: str, public, secret) -> None:
        """``player`` opens their card picker and taps 2 face-up and 3 face-down cards."""
        phone = self.phones[player]
        phone.locator("#round").get_by_test_id("enter-hand").click()
        expect(phone.get_by_test_id("picker-form")).to_be_visible()
        pick_cards(phone, {"public": public, "secret": secret}, js=player not in self.no_js)

    def save_hands_at_once(self, players) -> None:
        """The players tap "Save my hand" in the same instant; their phones go back to the round."""
        pages = [self.phones[p] for p in players]
        at_once(pages, '[data-testid="save-hand"]')
        for page in pages:
            expect(page.locator("#round")).to_be_visible(timeout=LIVE_MS)
            expect(page.get_by_test_id("my-hand")).to_have_attribute("data-entered", "yes")

    def enter_hand(self, player: str, public, secret) -> None:
        """``player`` enters their 5 cards on their phone."""
        self.pick_hand(player, public, secret)
        self.save_hands_at_once([player])

    def hand_row(self, player: str):
        """The tablet's line of ``player``'s hand."""
        return self.tablet.locator(f'[data-testid="hands"] li[data-player="{player}"]')

    def tick_call(self, player: str) -> None:
        """The scorekeeper ticks that ``player`` shouted their TROMP! call correctly."""
        self.tablet.get_by_test_id(f"called-{player}").click()
        expect(self.tablet.get_by_test_id(f"called-{player}")).to_have_attribute(
            "aria-pressed", "true", timeout=LIVE_MS)

    def total(self, player: str, page=None):
        """The cell of ``player``'s total in a page's score table (the tablet by default)."""
        page = page or self.tablet
        return page.locator(f'[data-testid="score-table"] tfoot td[data-total="{player}"]')


def seat_four_phones(new_context, tablet, players=TROMPLEMOND_PLAYERS, *,
                     seated=TROMPLEMOND_PLAYERS, no_js=()) -> tuple[str, dict]:
    """Make a four-seat Tromplemond table on ``tablet`` (seat 1 deals) and seat the phones.

    A phone takes the seat of each player in ``seated`` (the others have no
    phone); the players in ``no_js`` have JavaScript switched off. Returns the
    join URL and the phones' pages by player name.
    """
    fill_new_table(tablet, "Tromplemond night", list(players), "tromplemond", dealer="1")
    join_url = tablet.locator("#join-url").inner_text().strip()
    phones = {}
    for position, player in enumerate(players, 1):
        if player not in seated:
            continue
        phone = new_context("phone", js=player not in no_js).new_page()
        phone.goto(join_url)
        phone.get_by_test_id(f"claim-{position}").click()
        expect(phone.locator("#you-are")).to_have_text(f"You are {player} (seat {position})")
        phones[player] = phone
    for position, player in enumerate(players, 1):
        expect(tablet.locator(f'li.seat[data-seat="{position}"]')).to_have_attribute(
            "data-joined", "yes" if player in seated else "no", timeout=LIVE_MS)
    return join_url, phones


@pytest.fixture
def tromplemond_table(new_context) -> Callable[..., TromplemondTable]:
    """Make a Tromplemond table: a tablet and phones seated as Rob, Sam, Nick and Emily.

    ``tromplemond_table()`` returns the :class:`TromplemondTable` before the
    game starts; call its ``start(joining_fee=..., tromp_stake=..., rounds=...)``.
    ``tromplemond_table(seated=("Rob", "Sam", "Nick"))`` leaves Emily without
    a phone; ``no_js=("Rob",)`` gives Rob a phone with JavaScript off.
    """
    def make(*, seated=TROMPLEMOND_PLAYERS, no_js=()) -> TromplemondTable:
        tablet = new_context("tablet").new_page()
        join_url, phones = seat_four_phones(new_context, tablet, seated=seated, no_js=no_js)
        return TromplemondTable(tablet, phones, join_url, no_js)

    return make


QUICK = {"Rob": "20", "Sam": "12", "Nick": "10"}
"""A Tromplemond round's points entered quickly on the tablet (Emily voted off)."""


def enter_quick_hands(table) -> None:
    """The tablet enters the survivors' hands the quick way (:data:`QUICK`, no jacks) on a
    ``TromplemondTable`` whose vote has put Emily off; each hand's line shows it entered."""
    for position, (name, points) in enumerate(QUICK.items(), 1):
        enter_quick_hand(table, position, name, points)


def enter_quick_hand(table, position: int, name: str, points: str) -> None:
    """The tablet enters one hand the quick way (``points``, no jacks) for the player at
    ``position`` on a ``TromplemondTable``; the hand's line shows it entered."""
    tablet = table.tablet
    tablet.get_by_test_id(f"edit-hand-{position}").click()
    tablet.get_by_test_id("quick-points").fill(points)
    tablet.get_by_test_id("quick-public-jacks").fill("0")
    tablet.get_by_test_id("quick-secret-jacks").fill("0")
    tablet.get_by_test_id("save-quick").click()
    expect(table.hand_row(name)).to_have_attribute("data-entered", "yes", timeout=LIVE_MS)


def one_round_tromplemond(table) -> None:
    """A one-round Tromplemond for £2.00 on ``table`` (a ``TromplemondTable``): Emily goes
    off, the tablet enters the hands (:data:`QUICK`), Rob wins; the game is then ended."""
    table.start(joining_fee="2.00", rounds=1)
    table.open_vote()
    table.vote({"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Rob"})
    table.wait_phase("hands")
    enter_quick_hands(table)
    table.confirm_round()
    table.wait_phase("end")
    end_game(table.tablet)



def long_evening(actions):
    """Tromplemond of 21 rounds for a £2.50 fee and a 50p stake: the phones vote a player
    off each round, the scorekeeper enters the hands the quick way; one Super Tromplemond
    and its TROMP! call."""
    from tests.web import test_tromplemond as game_of

    game = game_of.start(actions, rounds=str(ROUNDS + 1), target="500")
    players = game_of.PLAYERS
    for number in range(1, ROUNDS + 2):
        off = players[number % 4]
        game.vote_off(off)
        for place, name in enumerate(p for p in players if p != off):
            if number == 5 and place == 0:
                game.quick(name, 20, 0, 3)  # Super Tromplemond!
                game.ok("called", {"player": name})
            else:
                game.quick(name, 10 + 2 * ((number * 7 + place * 5) % 6))
        game.confirm()
    return game
