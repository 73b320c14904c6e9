"""Measure one Tromplemond round at the table: taps and seconds from the reveal to the confirm.

Usage: ``.venv/bin/python scripts/measure_tromplemond.py [--pause 0.4] [--runs 1]``

The script starts the companion on a temporary SQLite database on
127.0.0.1, drives Debian's Chromium (``/usr/bin/chromium``) with Playwright
as the scorekeeper's tablet and four phones, and plays one round: the table
is made, the phones take their seats, the game starts (£2 fee, 50p TROMP!
stake), the vote is opened and the four slips are dropped (Emily is voted
off 3–1). None of that is measured.

The clock starts when the last slip is in: the vote is settled and everyone
turns their cards over ("all cards revealed"). Then, at the same time, as at
a real table:

- each phone waits for its own screen to show the reveal, opens its card
  picker, taps its 5 cards and saves (Emily's hand too: all four enter);
- the tablet waits until every hand is in and the round adds up, ticks the
  TROMP! call that was shouted (Nick's Moyenne) and confirms the round.

The clock stops when the tablet shows the round in its score table ("round
confirmed"). Every tap is made at human pace: a pause (``--pause``, 0.4 s by
default) before each tap, per device. Taps on the tablet are counted (the
target: at most 12) and so are each phone's; the seconds are compared with
the target (under 30 s). The script only reports: it never fails on timing.

htmx is served from a local copy (the app's own, ``static/vendor/htmx.min.js``,
or ``COMPANION_HTMX_FILE``) in place of the pinned CDN file, as in the
browser tests.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from _measure import (
    SUIT_LETTERS,
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

TARGET_SECONDS = 30
TARGET_TABLET_TAPS = 12

PLAYERS = ("Rob", "Sam", "Nick", "Emily")
SLIPS = {"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Rob"}
HANDS = {  # all 20 cards of a deal: the four jacks and the four aces are in them
    "Rob": (["K♥", "10♠"], ["Q♥", "J♦", "K♠"]),     # Petit Tromplemond! (not shouted)
    "Sam": (["A♣", "2♦"], ["10♦", "4♠", "K♦"]),
    "Nick": (["J♥", "A♦"], ["J♠", "A♠", "10♥"]),    # Moyenne Tromplemond!, shouted
    "Emily": (["2♠", "3♥"], ["J♣", "A♥", "Q♠"]),    # voted off: her hand is optional
}
SHOUTED = ("Nick",)


def card_code(card: str) -> str:
    """A card as the picker names it: ``10♦`` → ``10D``."""
    return card[:-1] + SUIT_LETTERS[card[-1]]


async def set_up(browser, base_url: str, htmx: Path, pause: float):
    """Make the table, seat the phones, start the game and open the vote (not measured)."""
    tablet, phones = await seat_players(browser, base_url, htmx, pause,
                                        new="/new?game=tromplemond", name="Measured round",
                                        players=PLAYERS)
    await start_game(tablet, "deal", {"joining-fee": "2.00", "tromp-stake": "0.50"})
    await tablet.get_by_test_id("open-vote").click()
    return Device("tablet", tablet, pause), phones


async def vote(phones: dict[str, Device]) -> None:
    """Every phone drops its slip (a name, then the confirm); returns when all four are in."""
    from playwright.async_api import expect

    async def slip(device: Device) -> None:
        page = device.page
        await expect_attribute(page.locator(".vote-slip"), "data-step", "choose")
        tile = f'label.slip-choice:has(> [data-testid="slip-{SLIPS[device.name]}"])'
        await page.locator(tile).click()
        await page.get_by_test_id("slip-confirm").click()
        # Dropped: the confirm step is gone ("in", or "settled" for the last slip).
        await expect(page.get_by_test_id("slip-confirm")).to_have_count(0, timeout=WAIT_MS)

    await asyncio.gather(*(slip(device) for device in phones.values()))


async def enter_hand(device: Device) -> None:
    """A phone, once its screen shows the reveal, picks its 5 cards and saves them."""
    page = device.page
    await expect_attribute(page.locator("#round"), "data-phase", "hands")
    await device.tap(page.locator("#round").get_by_test_id("enter-hand"), "open the picker")
    public, secret = HANDS[device.name]
    for row, cards in (("public", public), ("secret", secret)):
        for card in cards:
            await device.tap(page.get_by_test_id(f"{row}-{card_code(card)}"), card, check=True)
    await device.tap(page.get_by_test_id("save-hand"), "save")
    await expect_attribute(page.get_by_test_id("my-hand"), "data-entered", "yes")


async def keep_score(tablet: Device) -> None:
    """The scorekeeper waits for the hands to add up, ticks the calls shouted, confirms."""

    page = tablet.page
    await expect_attribute(page.locator("#round"), "data-phase", "hands")
    for name in PLAYERS:
        await expect_attribute(page.locator(f'[data-testid="hands"] li[data-player="{name}"]'),
                               "data-entered", "yes")
    for name in SHOUTED:
        button = page.get_by_test_id(f"called-{name}")
        await tablet.tap(button, f"tick {name}'s TROMP! call")
        await expect_attribute(page.get_by_test_id(f"called-{name}"), "aria-pressed", "true")
    await confirm(tablet, "confirm-round", "confirm the round")


async def one_round(browser, base_url: str, htmx: Path, pause: float) -> dict:
    """Play one round; return the seconds and the taps from the reveal to the confirm."""
    tablet, phones = await set_up(browser, base_url, htmx, pause)
    await vote(phones)
    # The last slip is in: everyone turns their cards over.
    seconds = await timed(keep_score(tablet), *(enter_hand(p) for p in phones.values()))
    await close(tablet, phones)
    return figures(seconds, tablet, phones)


def report(results: list[dict], pause: float) -> None:
    """Print the figures next to the targets."""
    print("Tromplemond: one round, from \"all cards revealed\" (the last slip is in) "
          "to \"round confirmed\" on the tablet")
    print(f"Four phones enter their hands at the same time, at human pace: a {pause:.1f} s "
          "pause before every tap, on every device (the tablet too).")
    print("The tablet's screens update by polling every 2 s, as in real use.")
    for number, result in enumerate(results, 1):
        print(f"\nRun {number} (a new table):")
        print(f"  seconds:          {under(result['seconds'], TARGET_SECONDS)}")
        print(f"  taps on the tablet: {at_most(result['tablet_taps'], TARGET_TABLET_TAPS)}: "
              + ", ".join(result["tablet_log"]))
        print("  taps per phone:   " + ", ".join(f"{name} {count}" for name, count
                                                  in result["phone_taps"].items())
              + "  (open the picker, 5 cards, save)")
    if len(results) > 1:
        seconds = [r["seconds"] for r in results]
        print(f"\nSeconds over {len(results)} runs: {spread(seconds)}")


def main() -> None:
    """Parse the arguments, measure, print."""
    command(__doc__, one_round, report)


if __name__ == "__main__":
    main()
