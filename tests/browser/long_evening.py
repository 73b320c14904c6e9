"""A long evening at one table, and what its end screens must still be: the games played
to their end (twenty rounds and more) and the checks each page of the end state is put to.

The rounds are played quickly, as the pages post them, by each registered game's browser
helper (``tests/browser/games/<game>.py``: its ``long_evening``, with its own web-test
helpers, ``tests.web.test_<game>``) and Flask test clients on the live server's own app
(the same database): a tablet (the scorekeeper) and a phone a seat. The browser then takes
over those devices' cookies (:func:`carry_cookies`) and opens every page of the end state.

:func:`check_page` looks at a page as it shows, on a 360 × 780 phone or an 800 × 1280
tablet, and finds:

* ``sideways``: the page scrolls sideways;
* ``narrow``: an element whose text is laid out narrower than 4 characters of its font
  (the average of its own letters) while the text is longer (a letter-per-line column);
* ``split``: a word broken inside ("Ha|l", "£0.6|2"), though its line could hold it whole
  (a break after a hyphen or a slash is a word's own; a URL's token is let be);
* ``tall``: the page is taller than its bound (:data:`HEIGHT`: a height per page and per
  round);
* ``settles``: a cell of a column that settles the question (Net, money, total: marked
  ``data-settles`` in the templates) is outside the viewport with neither the page nor its
  table scrolled, or is drawn over its row's name;
* ``labels``: two labels of a chart whose boxes overlap;
* ``axe``: an axe-core violation of any impact (every rule but those
  ``tests.browser.fit.AXE_SKIPPED`` names with its reason, in the light scheme; the
  colours' contrast in the dark one).

Each page is checked in light and dark at 100 % text, and at 200 % root font size for what
larger text changes (sideways, narrow, split, settles). What a closed ``<details>`` holds is
not looked at until it is opened. :data:`RESULTS` keeps the counts a page,
printed at the end of the session (tests/browser/conftest.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from companion.rules import GAMES as REGISTERED
from tests.browser.fit import ROOT_FONT, _axe, _wide
from tests.found import module_if_any

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "test-output" / "long-evening-results.txt"

ROUNDS = 20
"""At least this many rounds (hands) in every game."""

# --------------------------------------------------------------------------- the games


HELPERS = "tests.browser.games"
"""Where each game's browser helper is, by its name (``tests/browser/games/<game>.py``):
its ``long_evening(actions)``, which plays a long game through the pages and returns it at
its end, and its ``ROWS_A_ROUND`` (the rows a round takes in its score table; one by
default)."""


def _helpers() -> dict[str, ModuleType]:
    """Each registered game's browser helper (a game with none plays no long evening)."""
    found = {game: module_if_any(f"{HELPERS}.{game}") for game in REGISTERED}
    return {game: module for game, module in found.items() if module is not None}


GAMES: dict[str, Callable]
"""Each game's long evening: ``play(actions)`` returns the game at its end (made when
first asked for: :func:`__getattr__`)."""


def __getattr__(name: str) -> dict[str, Callable]:
    """``GAMES``, from the registry and each game's browser helper (made when first asked
    for, so that a helper may import this module first)."""
    if name != "GAMES":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    found = globals()["GAMES"] = {game: helper.long_evening
                                  for game, helper in _helpers().items()
                                  if hasattr(helper, "long_evening")}
    return found


@dataclass
class PageResult:
    """What one page of the end state showed on one device."""

    game: str
    page: str
    device: str
    rounds: int
    counts: dict = field(default_factory=dict)
    """``{check: number found}`` (every check, 0 when it found nothing)."""
    said: list = field(default_factory=list)
    """One line a problem found."""
    height: int = 0
    seconds: float = 0.0

    def add(self, check: str, found: list, count: int | None = None) -> None:
        """Count what ``check`` found (``count``, or one a line) and keep its lines."""
        self.counts[check] = self.counts.get(check, 0) + (len(found) if count is None else count)
        self.said += [f"{self.game} {self.page} ({self.device}) {check}: {line}" for line in found]

    def line(self) -> str:
        found = " ".join(f"{name} {self.counts.get(name, 0)}" for name in CHECKS)
        return (f"{self.game:<17} {self.page:<8} {self.device:<6} {self.rounds:>3} rounds "
                f"{self.height:>6} px  {found}")


CHECKS = ("sideways", "narrow", "split", "tall", "settles", "labels", "axe")
RESULTS: list[PageResult] = []


# --------------------------------------------------------------------------- the checks

NARROW = """(least) => {
    // Text laid out narrower than `least` characters of its font while it is longer: a
    // letter-per-line column. And a word broken inside (not at a hyphen or a slash): "Ha|l".
    const narrow = [], split = [];
    const measure = document.createElement("canvas").getContext("2d");
    const hidden = "svg, script, style, template, noscript, [hidden], .visually-hidden";
    const lines = (range) => {
        const rects = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0);
        return [rects, new Set(rects.map((r) => Math.round(r.bottom))).size];
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent.replace(/\\s+/g, " ").trim();
        const el = node.parentElement;
        if (text.length < 2 || !el || el.closest(hidden)) { continue; }
        const folded = el.closest("details:not([open])");
        if (folded && !el.closest("summary")) { continue; }  // not shown until opened
        const range = document.createRange();
        range.selectNodeContents(node);
        const [rects, count] = lines(range);
        if (count < 2) { continue; }
        const box = el.getBoundingClientRect();
        if (box.width <= 2 || box.height <= 2) { continue; }  // a visually hidden label
        const style = getComputedStyle(el);
        measure.font = [style.fontStyle, style.fontWeight, style.fontSize, style.fontFamily]
            .join(" ");
        const char = measure.measureText(text).width / text.length;  // its font's average
        const widest = Math.max(...rects.map((r) => r.width));
        const where = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
            + (typeof el.className === "string" && el.className.trim()
               ? "." + el.className.trim().split(/\\s+/).join(".") : "");
        if (text.length > least && widest < least * char) {
            narrow.push(`${where} "${text.slice(0, 30)}" ${Math.round(widest)} px`);
            continue;
        }
        let block = el;  // the block the line is laid out in
        while (block.parentElement && getComputedStyle(block).display === "inline") {
            block = block.parentElement;
        }
        const line = block.clientWidth;
        const raw = node.textContent;
        // Words, cut after a hyphen or a slash; not in a token too long for any phone (a URL).
        const words = /[^\\s\\-‐–—\\/]+[\\-‐–—\\/]?/g;
        const long = (at) => (/\\S*$/.exec(raw.slice(0, at))[0]
                              + /^\\S*/.exec(raw.slice(at))[0]).length > 24;
        for (let m = words.exec(raw); m; m = words.exec(raw)) {
            if (m[0].length < 2 || long(m.index)) { continue; }
            const word = document.createRange();
            word.setStart(node, m.index);
            word.setEnd(node, m.index + m[0].length);
            // A word wider than its whole line (a long title in the larger text) must break.
            if (lines(word)[1] > 1 && measure.measureText(m[0]).width <= line) {
                split.push(`${where} "${m[0]}" in "${text.slice(0, 30)}"`);
                break;
            }
        }
    }
    return [narrow, split];
}"""

SETTLES = """() => {
    // Each cell marked data-settles is whole in view with the page and its table unscrolled.
    const out = [];
    const width = document.documentElement.clientWidth;
    for (const el of document.querySelectorAll("[data-settles]")) {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height) { continue; }  // folded away (a closed <details>)
        let left = 0, right = width;
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
            if (getComputedStyle(a).overflowX === "visible") { continue; }
            const box = a.getBoundingClientRect();
            left = Math.max(left, box.left + a.clientLeft);
            right = Math.min(right, box.left + a.clientLeft + a.clientWidth);
        }
        const row = el.closest("tr");
        const name = row && el.tagName === "TD" && row.querySelector("th[scope=row]");
        const said = name && document.createRange();
        if (said) { said.selectNodeContents(name); }
        if (said && said.getBoundingClientRect().right > r.left + 1) {  // drawn over the name
            out.push(`${el.closest("table")?.dataset.testid || "table"} `
                     + `"${el.textContent.trim().slice(0, 16)}" over the name `
                     + `"${name.textContent.trim().slice(0, 16)}"`);
        } else if (r.left < left - 1 || r.right > right + 1) {
            out.push(`${el.closest("table")?.dataset.testid || "table"} `
                     + `${(row?.dataset.player || row?.textContent || "").trim().slice(0, 12)}`
                     + ` "${el.textContent.trim().slice(0, 16)}" at ${Math.round(r.left)}`
                     + `–${Math.round(r.right)} px, in view `
                     + `${Math.round(left)}–${Math.round(right)}`);
        }
    }
    return out;
}"""

LABELS = """() => {
    // Two labels of a chart whose boxes overlap.
    const out = [];
    for (const chart of document.querySelectorAll("svg.score-chart")) {
        const boxes = [...chart.querySelectorAll("text")].map((t) => [t.textContent,
            t.getBoundingClientRect()]).filter(([, r]) => r.width > 0);
        boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => {
            if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom) {
                out.push(`"${a}" over "${b}"`);
            }
        }));
    }
    return out;
}"""

SCROLL_TOP = """() => {
    window.scrollTo(0, 0);
    document.querySelectorAll(".table-scroll").forEach((box) => { box.scrollLeft = 0; });
}"""

HEIGHT = {
    # page: (phone px, px a round on a phone, tablet px, px a round on the tablet), at 100 %.
    "tablet": (4200, 130, 3400, 70),
    "phone": (4200, 130, 3000, 70),
    "score": (2600, 130, 2000, 70),
    "records": (6000, 0, 4000, 0),
    "ledger": (4000, 0, 3000, 0),
    "recap": (2600, 0, 2500, 0),  # the tablet: its QR code for the other phones (issue 41)
}
"""How tall a page of the end state may be: a height, and a height a round (a row of a
score table grows with the game; a page that grows 1,600 px a hand does not pass)."""


def bound(game: str, page: str, device: str, rounds: int) -> int:
    """The tallest ``page`` of ``game`` may be on ``device`` after ``rounds`` rounds (100 %
    text)."""
    phone, phone_round, tablet, tablet_round = HEIGHT[page]
    rows = rounds * getattr(_helpers().get(game), "ROWS_A_ROUND", 1)
    if device == "phone":
        return phone + phone_round * rows
    return tablet + tablet_round * rows


def _geometry(page, result: PageResult, at: str) -> None:
    """The checks of the page's layout as it is drawn now (``at``: scheme or text size)."""
    page.evaluate(SCROLL_TOP)
    wide = _wide(page)
    if wide:
        result.add("sideways", [f"{at}: {wide}"])
    narrow, split = page.evaluate(NARROW, 4)
    result.add("narrow", [f"{at}: {n}" for n in narrow])
    result.add("split", [f"{at}: {s}" for s in split])
    result.add("settles", [f"{at}: {s}" for s in page.evaluate(SETTLES)])


def check_page(page, game: str, name: str, rounds: int) -> PageResult:
    """Check ``page`` (already open) as a phone or the tablet (by its viewport width): light
    and dark at 100 % text, then 200 % text; record and return what was found."""
    started = time.monotonic()
    device = "tablet" if page.viewport_size["width"] >= 700 else "phone"
    result = PageResult(game, name, device, rounds)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        _geometry(page, result, scheme)
        if scheme == "light":
            result.height = page.evaluate("document.scrollingElement.scrollHeight")
            tallest = bound(game, name, device, rounds)
            if result.height > tallest:
                result.add("tall", [f"{result.height} px tall, bound {tallest} px"])
            result.add("labels", page.evaluate(LABELS))
        found = _axe(page, None if scheme == "light" else ["color-contrast"])
        result.add("axe", [f"{scheme}: {rule} {impact} ×{count} {nodes}"
                           for rule, impact, count, nodes in found], sum(c for *_, c, _n in found))
    page.emulate_media(color_scheme="light")
    page.evaluate(ROOT_FONT, "200%")
    try:
        _geometry(page, result, "200 %")
    finally:
        page.evaluate(ROOT_FONT, "")
    result.seconds = time.monotonic() - started
    RESULTS.append(result)
    LOG.parent.mkdir(parents=True, exist_ok=True)
    with LOG.open("a", encoding="utf-8") as log:
        log.write(result.line() + "\n")
    return result


def report() -> list[str]:
    """The lines printed at the end of the session: one a page and device, then totals."""
    if not RESULTS:
        return []
    lines = [f"{'game':<17} {'page':<8} {'device':<6} rounds {'height':>9}  counts"]
    lines += [r.line() for r in RESULTS]
    totals = {name: sum(r.counts.get(name, 0) for r in RESULTS) for name in CHECKS}
    lines.append(f"{len(RESULTS)} pages checked, {sum(1 for r in RESULTS if r.said)} with a "
                 f"problem; totals: " + " ".join(f"{k} {v}" for k, v in totals.items())
                 + f"; the checks took {sum(r.seconds for r in RESULTS):.1f} s")
    return lines
