"""Measure Tremp at the table: taps per phone for a bidding round, and the tablet's taps and
seconds from "13 tricks played" to "hand confirmed", with and without the trick counter.

Usage: ``.venv/bin/python scripts/measure_tremp.py [--pause 0.4] [--runs 1]``

The script starts the companion on a temporary SQLite database on
127.0.0.1, drives Debian's Chromium (``/usr/bin/chromium``) with Playwright
as the scorekeeper's tablet and four phones (Rob, Sam, Nick and Emily; Rob
deals first), and plays two hands. Making the table, taking the seats and
starting the game are not measured.

- **A bidding round, on the phones.** The bidding of the record format's
  example: Sam displays 5♥, Nick passes, Emily displays K♠, then Rob, Sam and
  Nick pass. Each phone waits until its own screen says it is its turn (the
  live update, as at the table), then taps: a card and "Display it", or
  "Pass". The taps of each phone are counted; the seconds run from Sam's
  screen showing his turn to the tablet showing the hand in play.
- **Hand 1, without the trick counter.** The clock starts when the 13th
  trick is played; the scorekeeper taps the tricks Sam & Emily took and,
  once the tablet shows the hand's points, "Confirm hand 1". The clock stops
  when the hand is in the tablet's score table.
- **Hand 2, with the trick counter.** The same bidding again (Sam deals);
  the scorekeeper taps the winning seat after each trick. Tricks 1 to 12 are
  counted during the play (their taps are reported, not timed); the clock
  starts when the 13th trick is played: the 13th tap, then "Confirm hand 2".

Every tap comes after a human pause (``--pause``, 0.4 s by default) on its
device. The targets: under 15 s and at most 3 tablet taps without the
counter. The script only reports: it never fails on timing. htmx is served
from the app's own copy, as in the browser tests.
"""

from __future__ import annotations

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
    seat_players,
    spread,
    start_game,
    under,
)

TARGET_SECONDS = 15
TARGET_TABLET_TAPS = 3

PLAYERS = ("Rob", "Sam", "Nick", "Emily")
BIDS = ("5H", "pass", "KS", "pass", "pass", "pass")
"""The record format's example (docs/records.md), in turn from the dealer's left: in hand 1
Sam displays 5♥, Nick passes, Emily displays K♠ and wins the bid at −2."""
TRICK_WINNERS = ("Rob", "Sam", "Nick", "Emily", "Sam", "Emily", "Rob", "Nick", "Sam", "Sam",
                 "Emily", "Rob", "Emily")
"""Who won each trick of hand 2."""
TRICKS = 9
"""The tricks Sam & Emily took in hand 1."""


async def set_up(browser, base_url: str, htmx: Path, pause: float):
    """Make the table, seat the phones and start Tremp (not measured)."""
    tablet, phones = await seat_players(browser, base_url, htmx, pause, new="/new?game=tremp",
                                        name="Measured Tremp", players=PLAYERS)
    await start_game(tablet, "bidding")
    return Device("tablet", tablet, pause), phones


async def bid(phones: dict[str, Device], first: str) -> float:
    """The bidding from ``first``, each phone tapping on its own turn; returns its seconds."""
    from playwright.async_api import expect

    await expect_attribute(phones[first].page.get_by_test_id("turn"), "data-turn", first)
    started = time.perf_counter()
    for k, what in enumerate(BIDS):
        player = PLAYERS[(PLAYERS.index(first) + k) % len(PLAYERS)]
        device = phones[player]
        page = device.page
        await expect_attribute(page.get_by_test_id("turn"), "data-turn", player)
        form = page.get_by_test_id("bid-form")
        form_id = await form.get_attribute("id")
        if what == "pass":
            await device.tap(form.get_by_test_id("pass"), "pass")
        else:
            tile = form.locator(f'label.pick:has(> input[value="{what}"])')
            await device.tap(tile, f"pick {what}")
            await device.tap(form.get_by_test_id("display"), "display it")
        await expect(page.locator(f"#{form_id}")).to_have_count(0, timeout=WAIT_MS)
    await expect_attribute(phones[first].page.locator("#round"), "data-phase", "play")
    return time.perf_counter() - started


async def confirm_hand(tablet: Device, hand: int) -> None:
    """The tablet waits for the hand's points, then confirms; returns once it is scored."""
    await expect_attribute(tablet.page.locator("#round"), "data-phase", "score")
    await confirm(tablet, "confirm-hand", f"confirm hand {hand}", number=hand)


async def without_counter(tablet: Device) -> tuple[float, int, list[str]]:
    """From the 13th trick played to the hand confirmed, entering the tricks by hand."""
    page = tablet.page
    await expect_attribute(page.locator("#round"), "data-phase", "play")
    taps, log = tablet.taps, len(tablet.log)
    started = time.perf_counter()  # the 13th trick is played
    await tablet.tap(page.get_by_test_id(f"tricks-{TRICKS}"), f"{TRICKS} tricks")
    await confirm_hand(tablet, 1)
    return time.perf_counter() - started, tablet.taps - taps, tablet.log[log:]


async def with_counter(tablet: Device) -> tuple[float, int, list[str], int]:
    """Count tricks 1 to 12 during the play, then time the 13th tap and the confirm."""
    page = tablet.page
    await expect_attribute(page.locator("#round"), "data-phase", "play")
    during = tablet.taps
    for k, winner in enumerate(TRICK_WINNERS[:-1], 1):
        await tablet.tap(page.get_by_test_id(f"won-{winner}"), f"trick {k}: {winner}")
        await expect_attribute(page.get_by_test_id("counter"), "data-played", str(k))
    during = tablet.taps - during
    taps, log = tablet.taps, len(tablet.log)
    started = time.perf_counter()  # the 13th trick is played
    await tablet.tap(page.get_by_test_id(f"won-{TRICK_WINNERS[-1]}"),
                     f"trick 13: {TRICK_WINNERS[-1]}")
    await confirm_hand(tablet, 2)
    return time.perf_counter() - started, tablet.taps - taps, tablet.log[log:], during


async def one_game(browser, base_url: str, htmx: Path, pause: float) -> dict:
    """Two hands at a new table; the figures of each measured stretch."""
    tablet, phones = await set_up(browser, base_url, htmx, pause)
    before = {name: device.taps for name, device in phones.items()}
    bidding_seconds = await bid(phones, "Sam")
    bidding_taps = {name: device.taps - before[name] for name, device in phones.items()}
    plain = await without_counter(tablet)
    await bid(phones, "Nick")  # Sam deals hand 2
    counted = await with_counter(tablet)
    await close(tablet, phones)
    return {"bidding_seconds": bidding_seconds, "bidding_taps": bidding_taps,
            "plain": plain, "counted": counted}


def report(results: list[dict], pause: float) -> None:
    """Print the figures next to the targets."""
    print("Tremp: a bidding round on the phones, and the tablet from \"13 tricks played\" "
          "to \"hand confirmed\"")
    print(f"Every tap comes after a {pause:.1f} s human pause, on every device; the screens "
          "update by polling every 2 s, as in real use.")
    for number, result in enumerate(results, 1):
        print(f"\nRun {number} (a new table):")
        bidding = ", ".join(f"{PLAYERS[(1 + k) % 4]} {what}" for k, what in enumerate(BIDS))
        print(f"  bidding round ({bidding}):")
        print("    taps per phone:   " + ", ".join(
            f"{name} {taps}" for name, taps in result["bidding_taps"].items())
            + "  (a card and \"Display it\": 2 taps; \"Pass\": 1)")
        print(f"    seconds:          {result['bidding_seconds']:.1f} s from Sam's turn "
              "to the hand in play (each phone waits for its own screen's live update)")
        seconds, taps, log = result["plain"]
        print("  without the trick counter:")
        print(f"    seconds:          {under(seconds, TARGET_SECONDS)}")
        print(f"    tablet taps:      {at_most(taps, TARGET_TABLET_TAPS)}: " + ", ".join(log))
        seconds, taps, log, during = result["counted"]
        print("  with the trick counter:")
        print(f"    seconds:          {under(seconds, TARGET_SECONDS)}")
        print(f"    tablet taps:      {taps}: " + ", ".join(log))
        print(f"    during the play:  {during} taps (one after each of tricks 1 to 12)")
    if len(results) > 1:
        for key, label in (("bidding", "of the bidding round"), ("plain", "without the counter"),
                           ("counted", "with the counter")):
            seconds = [r["bidding_seconds"] if key == "bidding" else r[key][0] for r in results]
            print(f"\nSeconds {label} over {len(results)} runs: {spread(seconds)}")


def main() -> None:
    """Parse the arguments, measure, print."""
    command(__doc__, one_game, report, what="games to measure")


if __name__ == "__main__":
    main()
