"""Measure Trefeltromp at the table: taps per phone, and seconds from the last card to the reveal.

Usage: ``.venv/bin/python scripts/measure_trefeltromp.py [--hands 2] [--pause 0.4]``

The script starts the companion on a temporary SQLite database on
127.0.0.1 and drives Debian's Chromium (``/usr/bin/chromium``) with
Playwright as the scorekeeper's tablet and four phones (Ann, Bo, Cy, Di;
Ann deals first; ante 10, stack 500). The table is made, the phones take
their seats and the game starts: none of that is measured. Then it plays
``--hands`` hands, each played to debekranse:

- fyrsturkalla with betting: the first player bets 10 (a chip, then Bet),
  the second calls, the third raises 10 (a chip, then Raise), the fourth
  calls, the first and second call again; the tablet taps the draw done;
  the other three betting rounds: everyone checks;
- each reveal: every phone picks its card on the tarot picker (a trump by
  numeral: one tap; a suit card: the suit, then the rank) and raps twice (one
  tap). Three phones lay their cards; then the fourth lays the last one, and
  the clock runs from that tap until **every** phone shows the reveal (the
  cards, the winner or the tie, the pot before and after). The phones update
  by polling every 2 s, as in real use.

Every tap is made at human pace: a pause (``--pause``, 0.4 s by default)
before each one, per device. The script counts every phone's taps per
betting round and per reveal, and reports the seconds to the reveal against
the target (under 3 s on every phone). It only reports: it never fails on
timing.

htmx is served from the app's own copy (``static/vendor/htmx.min.js``, or
``COMPANION_HTMX_FILE``) in place of the pinned CDN file, as in the browser
tests.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections import Counter
from pathlib import Path

# The server, the browser, the devices and the seating: the same for every game's measure.
from _measure import (
    SUIT_LETTERS,
    WAIT_MS,
    Device,
    arguments,
    expect_attribute,
    in_chromium,
    seat_players,
    start_game,
    verdict,
)

TARGET_SECONDS = 3.0

PLAYERS = ("Ann", "Bo", "Cy", "Di")
REVEALS = ("banen", "detuiler", "debekranse")
# The cards laid, hand by hand and reveal by reveal (no card twice in a hand).
CARDS = (
    ({"Ann": "XXI", "Bo": "K♥", "Cy": "7♣", "Di": "Fool"},
     {"Ann": "A♠", "Bo": "III", "Cy": "Q♦", "Di": "2♥"},
     {"Ann": "9♣", "Bo": "N♠", "Cy": "XV", "Di": "5♦"}),
    ({"Ann": "2♣", "Bo": "XIX", "Cy": "A♥", "Di": "P♠"},
     {"Ann": "XII", "Bo": "6♦", "Cy": "4♠", "Di": "K♣"},
     {"Ann": "8♥", "Bo": "10♠", "Cy": "XX", "Di": "Q♣"}),
)


async def set_up(browser, base_url: str, htmx: Path, pause: float):
    """Make the table, seat the phones and start the game (not measured)."""
    tablet, phones = await seat_players(browser, base_url, htmx, pause,
                                        new="/new?game=trefeltromp&seats=4",
                                        name="Measured tarot", players=PLAYERS)
    await start_game(tablet, "ready")
    return Device("tablet", tablet, pause), phones


def per_kind(device: Device) -> dict[str, int]:
    """A device's taps counted by what they were for (in the order first made)."""
    return dict(Counter(device.log))


async def act(device: Device, verb: str, what: str, chip: int | None = None) -> None:
    """The phone waits for its turn, taps a chip (for a bet or raise) and the action."""
    from playwright.async_api import expect

    page = device.page
    await expect(page.get_by_test_id("your-turn")).to_be_visible(timeout=WAIT_MS)
    if chip is not None:
        await device.tap(page.locator(f'label.chip:has(> [data-testid="amount-{chip}"])'),
                         what)
    before = await page.locator("#round").get_attribute("data-version")
    await device.tap(page.locator("#round").get_by_test_id(f"act-{verb}"), what)
    await expect(page.locator("#round")).not_to_have_attribute("data-version", before,
                                                               timeout=WAIT_MS)


async def tablet_tap(tablet: Device, testid: str, phase: str) -> None:
    """The tablet taps ``testid`` once the round region is in ``phase``."""
    page = tablet.page
    await expect_attribute(page.locator("#round"), "data-phase", phase)
    before = await page.locator("#round").get_attribute("data-version")
    await tablet.tap(page.get_by_test_id(testid), testid)
    from playwright.async_api import expect

    await expect(page.locator("#round")).not_to_have_attribute("data-version", before,
                                                               timeout=WAIT_MS)


async def pick(device: Device, card: str, what: str) -> None:
    """Pick ``card`` on the tarot picker: a trump in one tap, a suit card in two."""
    page = device.page
    await expect_attribute(page.locator("#round"), "data-phase", what.split()[0])
    if card[-1] in SUIT_LETTERS:
        suit = SUIT_LETTERS[card[-1]]
        await device.tap(page.locator(f'label.suit-tab:has(> [data-testid="suit-{suit}"])'),
                         what)
    await device.tap(page.locator(f'label.pick:has(> [data-testid="card-{card}"])'), what)


async def lay(device: Device, what: str) -> None:
    """Rap twice: the card is laid (the slip's confirm)."""
    from playwright.async_api import expect

    page = device.page
    await device.tap(page.get_by_test_id("slip-confirm"), what)
    await expect(page.get_by_test_id("slip-confirm")).to_have_count(0, timeout=WAIT_MS)


async def reveal(phones: dict[str, Device], name: str, cards: dict[str, str],
                 last: str) -> dict[str, float]:
    """Every phone picks its card; all but ``last`` lay theirs; the seconds from the last
    card's tap until each phone shows the reveal."""
    from playwright.async_api import expect

    what = f"{name} (the reveal)"
    await asyncio.gather(*(pick(phones[p], card, what) for p, card in cards.items()))
    await asyncio.gather(*(lay(phones[p], what) for p in cards if p != last))
    device = phones[last]
    await asyncio.sleep(device.pause)
    started = time.perf_counter()
    await device.page.get_by_test_id("slip-confirm").click()
    device.counted(what)
    seconds: dict[str, float] = {}

    async def shown(player: str) -> None:
        panel = phones[player].page.locator(f'[data-testid="reveal"][data-reveal="{name}"]')
        await expect(panel).to_be_visible(timeout=WAIT_MS)
        seconds[player] = time.perf_counter() - started

    await asyncio.gather(*(shown(p) for p in phones))
    return seconds


async def one_hand(tablet: Device, phones: dict[str, Device], number: int) -> list[dict]:
    """Play hand ``number`` (from 0) to debekranse; return each reveal's seconds."""
    dealer = (-number) % len(PLAYERS)  # the deal passes to the right
    order = [PLAYERS[(dealer + 1 + k) % len(PLAYERS)] for k in range(len(PLAYERS))]
    await tablet_tap(tablet, "deal", "ready")
    first, second, third, fourth = (phones[p] for p in order)
    betting = "fyrsturkalla (bets)"
    await act(first, "bet", betting, chip=10)
    await act(second, "call", betting)
    await act(third, "raise", betting, chip=10)
    await act(fourth, "call", betting)
    await act(first, "call", betting)
    await act(second, "call", betting)
    await tablet_tap(tablet, "draw-done", "draw")
    timings = []
    for k, (name, calling) in enumerate(zip(REVEALS, ("banenkalla", "detuilerkalla",
                                                      "debekransekalla"), strict=True)):
        for player in order:
            await act(phones[player], "check", f"{calling} (checks)")
        last = order[(number + k) % len(order)]
        seconds = await reveal(phones, name, CARDS[number % len(CARDS)][k], last)
        timings.append({"hand": number + 1, "reveal": name, "last": last, "seconds": seconds})
    return timings


async def measure(hands: int, pause: float) -> tuple[list[dict], dict[str, dict[str, int]],
                                                     dict[str, int]]:
    """Start the companion and Chromium; play ``hands`` hands at one table."""
    async def at_one_table(browser, base_url: str, htmx: Path):
        tablet, phones = await set_up(browser, base_url, htmx, pause)
        timings = []
        for number in range(hands):
            timings += await one_hand(tablet, phones, number)
        return timings, {n: per_kind(d) for n, d in phones.items()}, per_kind(tablet)

    return await in_chromium(at_one_table)


def report(timings: list[dict], taps: dict[str, dict[str, int]], tablet: dict[str, int],
           hands: int, pause: float) -> None:
    """Print the figures next to the target."""
    print(f"Trefeltromp: {hands} hand(s) played to debekranse by four phones and the tablet, "
          f"at human pace (a {pause:.1f} s pause before every tap).")
    print("Phones update by polling every 2 s, as in real use.\n")
    print("Taps per phone, over all hands (per hand: divide by "
          f"{hands}):")
    kinds = sorted({kind for counts in taps.values() for kind in counts})
    for kind in kinds:
        row = ", ".join(f"{name} {taps[name].get(kind, 0)}" for name in PLAYERS)
        print(f"  {kind:32} {row}")
    print(f"  {'tablet':32} " + ", ".join(f"{k} {n}" for k, n in tablet.items()))
    print("\nSeconds from the last card laid to the reveal on every phone "
          f"(target: under {TARGET_SECONDS:.0f} s on every phone):")
    worst_all = []
    for timing in timings:
        seconds = timing["seconds"]
        worst = max(seconds.values())
        worst_all.append(worst)
        per_phone = ", ".join(f"{p} {seconds[p]:.2f}" for p in PLAYERS)
        print(f"  hand {timing['hand']} {timing['reveal']:10} (last card: {timing['last']:3}) "
              f"{per_phone}  slowest {worst:.2f} s "
              f"{verdict(worst < TARGET_SECONDS)}")
    every = [s for t in timings for s in t["seconds"].values()]
    print(f"\nOver {len(timings)} reveals x 4 phones: median {statistics.median(every):.2f} s, "
          f"slowest {max(every):.2f} s; reveals under {TARGET_SECONDS:.0f} s on every phone: "
          f"{sum(w < TARGET_SECONDS for w in worst_all)} of {len(worst_all)}")


def main() -> None:
    """Parse the arguments, measure, print."""
    args = arguments(__doc__, "hands", "hands to play", default=2)
    hands = max(1, min(args.hands, 8))
    timings, taps, tablet = asyncio.run(measure(hands, max(0.0, args.pause)))
    report(timings, taps, tablet, hands, args.pause)


if __name__ == "__main__":
    main()
