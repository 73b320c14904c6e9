"""Measure a Trumplestiltskin hand at the table: taps and seconds for the auction, and from
"tricks done" to "hand confirmed".

Usage: ``.venv/bin/python scripts/measure_trumplestiltskin.py [--pause 0.4] [--runs 1]``

The script starts the companion on a temporary SQLite database on 127.0.0.1
(``scripts/_measure.py``, shared by every game's measure), drives Debian's Chromium with
Playwright as the scorekeeper's tablet and four phones (Ann, Bo, Cy, Di; Ann
deals), makes the table, seats the phones and starts the game. None of that
is measured. Then one typical hand, in two measured stretches:

1. **The auction**, from the moment Bo's phone (left of the dealer) shows his
   bid control to the moment every screen shows trump. Bo steps to 5 (+5)
   and bids; Cy taps "I looked at the Gnome" and passes; Di types 8 on the
   number pad and bids; Ann passes; Bo passes; Di turns the Gnome over (9♥).
   Every tap is on a phone, in turn, each phone waiting for its turn to show.
2. **Tricks done → hand confirmed**, from the moment every phone shows its
   points form (the tricks are played at the table meanwhile) to the moment
   the tablet shows the hand in its score sheet. At the same time, as at a
   real table: Ann, Cy and Di type their points and tap Enter; Bo counts his
   on the counter (2 aces and kings, 2 trumps, no joker) and enters them; the
   tablet waits for the tally and taps Confirm.

Every tap is made at human pace: a pause (``--pause``, 0.4 s by default)
before each tap or key press, per device. The taps are counted per phone and
on the tablet (the target: at most 3 tablet taps from tricks done to
confirmed, in under 20 s). The script only reports: it never fails on timing.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from _measure import (
    WAIT_MS,
    Device,
    at_most,
    close,
    command,
    confirm,
    expect_attribute,
    figures,
    seat_players,
    spread,
    start_game,
    timed,
    under,
)

TARGET_SECONDS = 20
TARGET_TABLET_TAPS = 3

PLAYERS = ("Ann", "Bo", "Cy", "Di")
TYPED = {"Ann": 6, "Cy": 3, "Di": 12}  # points typed on the number pad
COUNTED = {"honours": 2, "trumps": 2, "jokers": 0}  # Bo's counter: 4 points


class Player(Device):
    """A device whose key presses on the number pad count as taps, like its buttons."""

    async def type(self, locator, digits: str, what: str) -> None:
        """Tap the field, then each digit, each after a human pause."""
        await self.tap(locator, f"{what}: the field")
        for digit in digits:
            await asyncio.sleep(self.pause)
            await locator.press(digit)
            self.counted(f"{what}: {digit}")


async def set_up(browser, base_url: str, htmx: Path, pause: float):
    """Make the table (Ann deals first), seat the phones, start the game (not measured)."""
    tablet, phones = await seat_players(browser, base_url, htmx, pause,
                                        new="/new?game=trumplestiltskin", name="Measured hand",
                                        players=PLAYERS, device=Player)
    await start_game(tablet, "auction")
    return Player("tablet", tablet, pause), phones


async def my_turn(device: Player) -> None:
    """Wait until this phone shows its bid control."""
    from playwright.async_api import expect

    await expect(device.page.get_by_test_id("bid-box")).to_be_visible(timeout=WAIT_MS)


async def said(device: Player, count: int) -> None:
    """Wait until this phone has seen ``count`` bids and passes (its own tap answered)."""
    from playwright.async_api import expect

    speeches = device.page.locator('[data-testid="speeches"] li[data-speech]')
    await expect(speeches).to_have_count(count, timeout=WAIT_MS)


async def auction(tablet: Player, phones: dict[str, Player]) -> float:
    """The bidding of a typical hand, and the Gnome turned over; returns the seconds."""
    from playwright.async_api import expect

    ann, bo, cy, di = (phones[name] for name in PLAYERS)
    await my_turn(bo)
    started = time.perf_counter()
    await bo.tap(bo.page.get_by_test_id("bid-plus5"), "+5")
    await expect(bo.page.get_by_test_id("bid-input")).to_have_attribute("placeholder", "6",
                                                                       timeout=WAIT_MS)
    await bo.tap(bo.page.get_by_test_id("bid-minus"), "−1")
    await expect(bo.page.get_by_test_id("bid-input")).to_have_attribute("placeholder", "5",
                                                                       timeout=WAIT_MS)
    await bo.tap(bo.page.get_by_test_id("bid-submit"), "bid 5")
    await my_turn(cy)
    await cy.tap(cy.page.get_by_test_id("look"), "I looked at the Gnome")
    await expect(cy.page.get_by_test_id("looked-note")).to_be_visible(timeout=WAIT_MS)
    await cy.tap(cy.page.get_by_test_id("pass"), "pass")
    await my_turn(di)
    await di.type(di.page.get_by_test_id("bid-input"), "8", "bid 8")
    await di.tap(di.page.get_by_test_id("bid-submit"), "bid 8")
    await my_turn(ann)
    await ann.tap(ann.page.get_by_test_id("pass"), "pass")
    await my_turn(bo)
    await bo.tap(bo.page.get_by_test_id("pass"), "pass")
    await expect(di.page.get_by_test_id("gnome-picker")).to_be_visible(timeout=WAIT_MS)
    await di.tap(di.page.get_by_test_id("gnome-9♥"), "the Gnome is the 9♥")
    for device in (tablet, *phones.values()):
        await expect(device.page.get_by_test_id("trump")).to_be_visible(timeout=WAIT_MS)
    return time.perf_counter() - started


async def enter_points(device: Player) -> None:
    """A phone, its points form on screen, types or counts its points and enters them."""
    from playwright.async_api import expect

    page = device.page
    if device.name in TYPED:
        await device.type(page.get_by_test_id("points-input"), str(TYPED[device.name]),
                          "points")
        await device.tap(page.get_by_test_id("points-submit"), "Enter")
    else:
        for what, times in COUNTED.items():
            for done in range(1, times + 1):
                await device.tap(page.get_by_test_id(f"count-{what}-plus"), f"+ {what}")
                await expect(page.get_by_test_id(f"count-{what}")).to_have_text(
                    str(done), timeout=WAIT_MS)
        await device.tap(page.get_by_test_id("count-submit"), "Enter the count")
    await expect(page.get_by_test_id("points-form")).to_have_count(0, timeout=WAIT_MS)


async def confirm_hand(tablet: Player) -> None:
    """The scorekeeper waits for the tally and confirms the hand."""
    await expect_attribute(tablet.page.locator("#round"), "data-phase", "tally")
    await confirm(tablet, "confirm-hand", "Confirm the hand")


async def one_hand(browser, base_url: str, htmx: Path, pause: float) -> dict:
    """Play one hand; return the seconds and the taps of its two stretches."""
    from playwright.async_api import expect

    tablet, phones = await set_up(browser, base_url, htmx, pause)
    auction_seconds = await auction(tablet, phones)
    auction_taps = {name: device.taps for name, device in phones.items()}
    auction_log = {name: list(device.log) for name, device in phones.items()}
    for device in (tablet, *phones.values()):
        device.taps, device.log = 0, []
    for device in phones.values():  # tricks done: every phone shows its points form
        await expect(device.page.get_by_test_id("points-form")).to_be_visible(timeout=WAIT_MS)
    seconds = await timed(confirm_hand(tablet), *(enter_points(p) for p in phones.values()))
    await close(tablet, phones)
    return {"auction_seconds": auction_seconds, "auction_taps": auction_taps,
            "auction_log": auction_log, **figures(seconds, tablet, phones)}


def report(results: list[dict], pause: float) -> None:
    """Print the figures next to the targets."""
    print("Trumplestiltskin: one typical hand, four phones and the tablet")
    print(f"Human pace: a {pause:.1f} s pause before every tap and key press, on every "
          "device. Screens update by polling every 2 s, as in real use.")
    for number, result in enumerate(results, 1):
        print(f"\nRun {number} (a new table):")
        print(f"  the auction (Bo's turn shows → trump on every screen): "
              f"{result['auction_seconds']:.1f} s")
        for name, taps in result["auction_taps"].items():
            print(f"    {name}: {taps} tap{'' if taps == 1 else 's'} "
                  f"({', '.join(result['auction_log'][name])})")
        print(f"  tricks done → hand confirmed: {under(result['seconds'], TARGET_SECONDS)}")
        print(f"    taps on the tablet: {at_most(result['tablet_taps'], TARGET_TABLET_TAPS)}: "
              + ", ".join(result["tablet_log"]))
        print("    taps per phone: " + ", ".join(f"{name} {count}" for name, count
                                                  in result["phone_taps"].items())
              + "  (typed: the field, each digit, Enter; Bo: the counter, then Enter)")
    if len(results) > 1:
        for key, what in (("auction_seconds", "the auction"), ("seconds", "tricks → confirmed")):
            values = [r[key] for r in results]
            print(f"\n{what} over {len(results)} runs: {spread(values, ' s')}")


def main() -> None:
    """Parse the arguments, measure, print."""
    command(__doc__, one_hand, report, what="hands to measure")


if __name__ == "__main__":
    main()
