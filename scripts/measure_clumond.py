"""Measure one Clumond round at the table: taps and seconds from "13 tricks played" to the confirm.

Usage: ``.venv/bin/python scripts/measure_clumond.py [--pause 0.4] [--runs 1]``

The script starts the companion on a temporary SQLite database on
127.0.0.1, drives Debian's Chromium (``/usr/bin/chromium``) with Playwright
as the scorekeeper's tablet and three phones, and plays one round: the table
is made (Ann, Bo and Cy; Cy deals), the phones take their seats, the game
starts (100 chips, ante 5) and the offer goes round: Ann, Bo and Cy each say
no on their phone. None of that is measured.

The clock starts when the offers are settled and every screen shows the round
being played: that stands for "13 tricks played" (the app has nothing to do
during the tricks). Then, at the same time, as at a real table:

- each phone opens its entry page, taps its tricks, ticks its 3 kept cards
  and saves (Ann and Bo make their declarations, Cy misses by 5);
- the tablet waits until every entry is in and the round adds up, and
  confirms it.

The clock stops when the tablet shows the round in its score table ("round
confirmed"). Every tap is made at human pace: a pause (``--pause``, 0.4 s by
default) before each tap, per device. Taps on the tablet are counted (the
target: at most 3) and so are each phone's (at most 8); the seconds are
compared with the target (under 20 s). The script only reports: it never
fails on timing. The server, the browser, the devices and the seating are
``scripts/_measure.py``'s, shared by every game's measure.
"""

from __future__ import annotations

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
    verdict,
)

TARGET_SECONDS = 20
TARGET_TABLET_TAPS = 3
TARGET_PHONE_TAPS = 8

PLAYERS = ("Ann", "Bo", "Cy")
ENTRIES = {  # tricks and kept cards: Ann and Bo make it, Cy misses by 5
    "Ann": (3, ["3H", "7S", "4D"]),
    "Bo": (4, ["AC", "5S", "6D"]),
    "Cy": (6, ["5D", "QS", "2D"]),
}


async def set_up(browser, base_url: str, htmx: Path, pause: float):
    """Make the table, seat the phones, start the game, settle the offers (not measured)."""
    from playwright.async_api import expect

    tablet, phones = await seat_players(browser, base_url, htmx, pause,
                                        new="/new?game=clumond&seats=3",
                                        name="Measured Clumond", players=PLAYERS, dealer="3")
    await start_game(tablet, "offer")
    for name in PLAYERS:  # Cy deals: Ann is asked first
        page = phones[name].page
        await expect(page.get_by_test_id("go-for-clumond")).to_be_visible(timeout=WAIT_MS)
        await page.locator("#round").get_by_test_id("offer-no").click()
    for device in (tablet, *(p.page for p in phones.values())):
        await expect_attribute(device.locator("#round"), "data-phase", "tricks")
    return Device("tablet", tablet, pause), phones


async def enter(device: Device) -> None:
    """A phone opens its entry page, taps its tricks and 3 kept cards, and saves."""
    page = device.page
    await device.tap(page.locator("#round").get_by_test_id("enter-mine"), "open the entry")
    tricks, kept = ENTRIES[device.name]
    await device.tap(page.locator(f'label.tile:has(> input[name="tricks"][value="{tricks}"])'),
                     f"{tricks} tricks")
    for code in kept:
        await device.tap(page.locator(f'label.pick:has(> input[name="kept"][value="{code}"])'),
                         code)
    await device.tap(page.get_by_test_id("save-entry"), "save")
    await expect_attribute(page.get_by_test_id("my-entry"), "data-entered", "yes")


async def keep_score(tablet: Device) -> None:
    """The scorekeeper waits for every entry to add up, then confirms the round."""
    await confirm(tablet, "confirm-round", "confirm the round", wait_ms=4 * WAIT_MS)


async def one_round(browser, base_url: str, htmx: Path, pause: float) -> dict:
    """Play one round; return the seconds and the taps from the tricks to the confirm."""
    tablet, phones = await set_up(browser, base_url, htmx, pause)
    # The 13 tricks are played: everyone enters.
    seconds = await timed(keep_score(tablet), *(enter(p) for p in phones.values()))
    await close(tablet, phones)
    return {**figures(seconds, tablet, phones), "phone_log": phones["Ann"].log}


def report(results: list[dict], pause: float) -> None:
    """Print the figures next to the targets."""
    print("Clumond: one round, from \"13 tricks played\" (the offers are settled) "
          "to \"round confirmed\" on the tablet")
    print(f"Three phones enter their tricks and kept cards at the same time, at human pace: "
          f"a {pause:.1f} s pause before every tap, on every device (the tablet too).")
    print("The screens update by polling every 2 s, as in real use.")
    for number, result in enumerate(results, 1):
        print(f"\nRun {number} (a new table):")
        print(f"  seconds:            {under(result['seconds'], TARGET_SECONDS)}")
        print(f"  taps on the tablet: {at_most(result['tablet_taps'], TARGET_TABLET_TAPS)}: "
              + ", ".join(result["tablet_log"]))
        most = max(result["phone_taps"].values())
        print("  taps per phone:     " + ", ".join(f"{name} {count}" for name, count
                                                    in result["phone_taps"].items())
              + f"  (target: at most {TARGET_PHONE_TAPS}: {verdict(most <= TARGET_PHONE_TAPS)}): "
              + ", ".join(result["phone_log"]))
    if len(results) > 1:
        seconds = [r["seconds"] for r in results]
        print(f"\nSeconds over {len(results)} runs: {spread(seconds)}")


def main() -> None:
    """Parse the arguments, measure, print."""
    command(__doc__, one_round, report)


if __name__ == "__main__":
    main()
