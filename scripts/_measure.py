"""What the ``scripts/measure_*.py`` scripts share: the live companion, Chromium, the devices.

Each of those scripts measures, in Chromium, the taps and seconds of one stretch of its game
at a real table: a scorekeeper's tablet and a phone per player, each a browser context of
its own, against the companion served on 127.0.0.1 from a temporary SQLite database. This
module holds what is the same for every game:

- :func:`serve`: the companion on a free port (what ``tests/browser/conftest.py`` does as a
  pytest fixture);
- :func:`in_chromium`: the server and Debian's Chromium (``/usr/bin/chromium``) around a
  measurement, and :func:`measure` for ``--runs`` measurements, each at a new table;
- :func:`seat_players`: a table made on the tablet, and a phone in each seat (htmx is served
  from the app's own copy, ``static/vendor/htmx.min.js`` or ``COMPANION_HTMX_FILE``, in
  place of the pinned CDN file, as in the browser tests); :func:`start_game`; :func:`confirm`
  (the scorekeeper's last tap, and the score table);
- :class:`Device`: a page whose taps are counted, each after a human pause;
- :func:`timed`, :func:`figures`, :func:`close`: the clock and the figures of a stretch;
- :func:`verdict`, :func:`under`, :func:`at_most`, :func:`spread`: the figures against
  their targets, and over several runs;
- :func:`arguments` and :func:`command`: the command line.

The scripts are run as ``.venv/bin/python scripts/measure_x.py``, so ``scripts/`` is first on
``sys.path`` and ``import _measure`` finds this file; this module puts the project's root on
``sys.path`` for ``companion``. Not a test helper: the browser tests drive Playwright's sync
API under pytest, these scripts its async API (the devices act at the same time).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.config import HTMX_COPY, HTMX_URL  # noqa: E402  (needs ROOT on sys.path)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-dev-shm-usage"]
TABLET = {"viewport": {"width": 820, "height": 1180}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
WAIT_MS = 15_000

SUIT_LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def htmx_file() -> Path:
    """The local copy of the pinned htmx (the CDN may be out of reach)."""
    for candidate in (os.environ.get("COMPANION_HTMX_FILE"), ROOT / "static" / HTMX_COPY):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    sys.exit(f"no local htmx: static/{HTMX_COPY} is missing and COMPANION_HTMX_FILE is not set")


class _LateApp:
    """A WSGI app that forwards to the companion, made once the port is known."""

    def __init__(self) -> None:
        self.app = None

    def __call__(self, environ, start_response):
        return self.app(environ, start_response)


def serve(database: Path):
    """The companion on 127.0.0.1 and a free port; returns the server and its base URL."""
    from werkzeug.serving import make_server

    from companion import create_app
    from companion.extensions import db

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    wsgi = _LateApp()
    server = make_server("127.0.0.1", 0, wsgi, threaded=True)
    base_url = f"http://127.0.0.1:{server.server_port}"
    app = create_app({"SECRET_KEY": "measure-round",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
                      "PUBLIC_URL": base_url,
                      # every run makes its tables from this one address
                      "NEW_TABLE_LIMIT": "1000/minute"})
    with app.app_context():
        db.create_all()
    wsgi.app = app
    threading.Thread(target=server.serve_forever, name="companion", daemon=True).start()
    return server, base_url


async def in_chromium(measurement):
    """Start the companion and Chromium, and return ``await measurement(browser, base_url,
    htmx)``; both are stopped after it."""
    from playwright.async_api import async_playwright

    if not Path(CHROMIUM).is_file():
        sys.exit(f"no Chromium at {CHROMIUM}: `apt-get install chromium`")
    htmx = htmx_file()
    with tempfile.TemporaryDirectory() as folder:
        server, base_url = serve(Path(folder) / "companion.sqlite")
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                try:
                    return await measurement(browser, base_url, htmx)
                finally:
                    await browser.close()
        finally:
            server.shutdown()


async def measure(runs: int, pause: float, play) -> list[dict]:
    """Start the companion and Chromium, and play ``runs`` times, each at a new table.

    ``play(browser, base_url, htmx, pause)`` plays and measures one (a round, a hand, a game)
    and returns its figures.
    """
    async def every_run(browser, base_url: str, htmx: Path) -> list[dict]:
        return [await play(browser, base_url, htmx, pause) for _ in range(runs)]

    return await in_chromium(every_run)


@dataclass
class Device:
    """One browser page, with its taps counted; every tap comes after a human pause.

    ``log`` says what each tap was for, in order.
    """

    name: str
    page: object
    pause: float
    taps: int = 0
    log: list[str] = field(default_factory=list)

    async def tap(self, locator, what: str, *, check: bool = False) -> None:
        """Wait a human moment, then tap ``locator`` (tick it, with ``check``)."""
        await asyncio.sleep(self.pause)
        if check:
            await locator.check()
        else:
            await locator.click()
        self.counted(what)

    def counted(self, what: str) -> None:
        """Count a tap made by other means (a key press, a click timed by the caller)."""
        self.taps += 1
        self.log.append(what)


async def expect_attribute(locator, name: str, value: str) -> None:
    """Wait until ``locator`` has ``name="value"``."""
    from playwright.async_api import expect

    await expect(locator).to_have_attribute(name, value, timeout=WAIT_MS)


async def seat_players(browser, base_url: str, htmx: Path, pause: float, *, new: str,
                       name: str, players, dealer: str = "1",
                       device=Device) -> tuple[object, dict]:
    """Make a table on a tablet and seat a phone as each player (not measured).

    The tablet opens the create-table form at ``new`` (``/new?game=…``), names the table
    ``name`` and the seats ``players`` (clockwise from seat 1), lets the ``dealer`` seat deal
    first and makes it; a phone per player opens the join link and claims its seat. Returns
    the tablet's page and the phones, a ``device(name, page, pause)`` each, by player.
    """
    from playwright.async_api import expect

    async def serve_htmx(route) -> None:
        await route.fulfill(path=str(htmx), content_type="application/javascript",
                            headers={"Access-Control-Allow-Origin": "*"})

    async def context(kind: dict):
        made = await browser.new_context(base_url=base_url, **kind)
        made.set_default_timeout(WAIT_MS)
        await made.route(HTMX_URL, serve_htmx)
        return made

    tablet = await (await context(TABLET)).new_page()
    await tablet.goto(new)
    await tablet.get_by_test_id("table-name").fill(name)
    await expect(tablet.locator('input[name="player"]')).to_have_count(len(players))
    for position, player in enumerate(players, 1):
        await tablet.get_by_test_id(f"player-{position}").fill(player)
    await tablet.get_by_test_id("phone-names").set_checked(False)
    await tablet.get_by_test_id("dealer").select_option(dealer)
    await tablet.get_by_test_id("create-table").click()
    await tablet.wait_for_url(re.compile(r"/t/[^/]+$"))
    join_url = (await tablet.locator("#join-url").inner_text()).strip()

    phones = {}
    for position, player in enumerate(players, 1):
        page = await (await context(PHONE)).new_page()
        await page.goto(join_url)
        await page.get_by_test_id(f"claim-{position}").click()
        await expect(page.locator("#you-are")).to_contain_text(f"You are {player}")
        phones[player] = device(player, page, pause)
    for position in range(1, len(players) + 1):
        await expect_attribute(tablet.locator(f'li.seat[data-seat="{position}"]'),
                               "data-joined", "yes")
    return tablet, phones


async def start_game(tablet, phase: str, options: dict[str, str] | None = None) -> None:
    """The tablet taps Start, fills in ``options`` (by test id), starts the game and waits
    for the round region to be in ``phase`` (not measured)."""
    await tablet.get_by_test_id("start-game").click()
    for testid, value in (options or {}).items():
        await tablet.get_by_test_id(testid).fill(value)
    await tablet.get_by_test_id("start-options").click()
    await expect_attribute(tablet.locator("#round"), "data-phase", phase)


async def confirm(tablet: Device, testid: str, what: str, *, number: int = 1,
                  wait_ms: int = WAIT_MS) -> None:
    """The scorekeeper taps the tablet's ``testid`` (``what``, in its log) once it is enabled
    (waiting up to ``wait_ms``); returns once round ``number`` is in the score table."""
    from playwright.async_api import expect

    button = tablet.page.get_by_test_id(testid)
    await expect(button).to_be_enabled(timeout=wait_ms)
    await tablet.tap(button, what)
    row = tablet.page.locator(f'[data-testid="score-table"] tr[data-round="{number}"]')
    await expect(row).to_be_visible(timeout=WAIT_MS)


async def timed(*steps) -> float:
    """Run ``steps`` (coroutines) at the same time; the seconds until the last is done."""
    started = time.perf_counter()
    await asyncio.gather(*steps)
    return time.perf_counter() - started


def figures(seconds: float, tablet: Device, phones: dict[str, Device]) -> dict:
    """A stretch's figures: its seconds, the tablet's taps (and what for), each phone's."""
    return {"seconds": seconds, "tablet_taps": tablet.taps, "tablet_log": tablet.log,
            "phone_taps": {name: device.taps for name, device in phones.items()}}


async def close(tablet: Device, phones: dict[str, Device]) -> None:
    """Close the browser contexts of the tablet and the phones (the table is done)."""
    for context in {tablet.page.context, *(p.page.context for p in phones.values())}:
        await context.close()


def verdict(met: bool) -> str:
    """``met`` or ``MISSED``."""
    return "met" if met else "MISSED"


def under(seconds: float, target: float) -> str:
    """``9.1 s  (target: under 30 s: met)``."""
    return f"{seconds:.1f} s  (target: under {target} s: {verdict(seconds < target)})"


def at_most(taps: int, target: int) -> str:
    """``2  (target: at most 12: met)``."""
    return f"{taps}  (target: at most {target}: {verdict(taps <= target)})"


def spread(values: list[float], unit: str = "") -> str:
    """``median …, best …, worst …`` of some seconds (``unit`` after the median)."""
    return (f"median {statistics.median(values):.1f}{unit}, best {min(values):.1f}, "
            f"worst {max(values):.1f}")


def arguments(doc: str, count: str = "runs", what: str = "rounds to measure",
              default: int = 1) -> argparse.Namespace:
    """The command line: ``--pause`` (the human pause before each tap) and ``--{count}`` (how
    many to play: ``what``), described by the first paragraph of the script's ``doc``."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--pause", type=float, default=0.4,
                        help="seconds a person takes before each tap (default 0.4)")
    parser.add_argument(f"--{count}", type=int, default=default,
                        help=f"{what} (default {default})")
    return parser.parse_args()


def command(doc: str, play, report, what: str = "rounds to measure") -> None:
    """A script's command line: parse ``--pause`` and ``--runs``, :func:`measure` with ``play``
    and print the results with ``report(results, pause)``."""
    args = arguments(doc, what=what)
    results = asyncio.run(measure(max(1, args.runs), max(0.0, args.pause), play))
    report(results, args.pause)
