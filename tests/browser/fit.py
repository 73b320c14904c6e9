"""Does a screen fit every phone and every player? The checks the browser tests run at each
page state they reach (at each of their screenshots: see the ``screenshot`` fixture).

At a page state, :func:`check_screen` looks at the page as it is, without reloading it:

* on a 360 × 780 phone (a phone's page) or an 800 × 1280 tablet (the tablet's), in the
  light and the dark colour scheme: the page does not scroll sideways
  (``scrollWidth ≤ clientWidth``) and axe-core finds no violation at all, of any impact
  (every rule it has, but those :data:`AXE_SKIPPED` names with the reason, in the light
  scheme; in the dark one, those a scheme changes: the contrast of colours);
* at 200 % root font size (the phone's own larger text): the page does not scroll
  sideways either.

The page's own viewport and colour scheme are put back afterwards, so the test goes on as
before. axe-core (npm, node_modules/axe-core) is evaluated into the page, not added as a
script tag: the CSP refuses inline scripts. The counts of every state are kept in
:data:`RESULTS` and printed at the end of the session (conftest.py), one line a state.

``COMPANION_FIT_SHOTS=1`` also saves each state's screen at 360 px and 800 px, light and
dark, under test-output/fit/ (to look at them; slower).
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = ROOT / "test-output" / "fit"
LOG = ROOT / "test-output" / "fit-results.txt"
"""Each state's line, written as it is checked (a run that stops early keeps its lines)."""
PHONE_SIZE = {"width": 360, "height": 780}
TABLET_SIZE = {"width": 800, "height": 1280}
SCHEMES = ("light", "dark")

OVERFLOW = """() => {
    const root = document.scrollingElement || document.documentElement;
    const width = root.clientWidth;
    // The outermost elements that reach past the right edge: what to mend.
    const clipped = (el) => el.parentElement && el.parentElement.closest(".table-scroll");
    const past = (el) => el.getBoundingClientRect().right > width + 1 && !clipped(el);
    const culprits = [...document.body.querySelectorAll("*")]
        .filter((el) => past(el) && !(el.parentElement && el.parentElement !== document.body
                                       && past(el.parentElement)))
        .slice(0, 3)
        .map((el) => el.tagName.toLowerCase() + (el.className && typeof el.className === "string"
             ? "." + el.className.trim().split(/\\s+/).join(".") : "")
             + " " + Math.round(el.getBoundingClientRect().width) + "px");
    return [root.scrollWidth, width, culprits];
}"""

AXE_SKIPPED = {
    "color-contrast-enhanced": "WCAG AAA (7:1), beyond the AA the app keeps to: its "
                               "color-contrast rule (4.5:1, 3:1 for large text) runs",
    "identical-links-same-purpose": "WCAG AAA; it also reports every pair of links with the "
                                    "same words for a person to review, not a fault",
    "meta-refresh-no-exceptions": "WCAG AAA; the one refresh is the live pages' <noscript> "
                                  "reload, which a browser running scripts never sees",
    "hidden-content": "an experimental review list (hidden content to look at by hand); it "
                      "reports no violations",
}
"""axe-core's rules not run, each with its reason: every other rule runs, those axe turns
off by default (deprecated or experimental: duplicate ids, target size, a td's header, a
p styled as a heading…) too."""

AXE_RUN = """async ([only, skipped]) => {
    const rules = only || axe.getRules().map((rule) => rule.ruleId)
        .filter((id) => !skipped.includes(id));
    const options = {resultTypes: ["violations"], runOnly: {type: "rule", values: rules}};
    const result = await axe.run(document, options);
    return result.violations.map(v => ({id: v.id, impact: v.impact,
        nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 4), count: v.nodes.length}));
}"""

ROOT_FONT = "size => { document.documentElement.style.fontSize = size; }"


@dataclass
class ScreenResult:
    """What one page state showed: its problems, and its axe violations by scheme."""

    state: str
    device: str
    axe: dict = field(default_factory=dict)
    """``{scheme: [(rule, impact, node count, first targets)]}``: every violation, of any
    impact."""
    overflow: list = field(default_factory=list)
    """``["dark: 412 px wide in 360", "200 %: ..."]``."""
    headings: int = 1
    """How many ``h1`` the page has (every page state names itself in one)."""
    seconds: float = 0.0
    """How long the check took (what it adds to the test)."""

    def problems(self) -> list[str]:
        said = [f"{self.state} ({self.device}) scrolls sideways: {o}" for o in self.overflow]
        if not self.headings:
            said.append(f"{self.state} ({self.device}) has no h1")
        for scheme, found in self.axe.items():
            said += [f"{self.state} ({self.device}, {scheme}): {rule} {impact} ×{count} {nodes}"
                     for rule, impact, count, nodes in found]
        return said

    def line(self) -> str:
        counts = " ".join(f"{scheme} {sum(c for _r, _i, c, _n in found)}"
                          for scheme, found in self.axe.items())
        rules = sorted({rule for found in self.axe.values() for rule, *_ in found})
        wide = f" overflow: {'; '.join(self.overflow)}" if self.overflow else ""
        h1 = "" if self.headings else " no-h1"
        return f"{self.state:<60} {self.device:<6} axe {counts}{h1}{wide}" + (
            f" [{', '.join(rules)}]" if rules else "")


RESULTS: list[ScreenResult] = []
"""Every state checked in this session, in order (printed at its end)."""


def _wide(page) -> str | None:
    scroll, client, culprits = page.evaluate(OVERFLOW)
    return None if scroll <= client else f"{scroll} px wide in {client} ({', '.join(culprits)})"


THEMED_RULES = ["color-contrast"]
"""What the second colour scheme can change: the rest of axe's rules see the same page."""


def _axe(page, only=None) -> list:
    """axe-core's violations on ``page`` as it shows, of any impact: ``(rule, impact, node
    count, first targets)`` each. Every rule runs (but :data:`AXE_SKIPPED`), or ``only``."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;void 0")
    return [(v["id"], v["impact"], v["count"], v["nodes"])
            for v in page.evaluate(AXE_RUN, [only, sorted(AXE_SKIPPED)])]


def check_screen(page, state: str) -> ScreenResult | None:
    """Check ``page`` as it shows now, as a phone or the tablet (by its width), in both
    colour schemes and at 200 % root font size; record and return what was found.

    A page with JavaScript off (``context.companion_js`` False, set by conftest.py) is not
    checked: nothing can be evaluated in it."""
    if not getattr(page.context, "companion_js", True):
        return None
    started = time.monotonic()
    viewport = page.viewport_size
    device = "tablet" if viewport["width"] >= 700 else "phone"
    dark = page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches")
    result = ScreenResult(state, device, headings=page.locator("h1").count())
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", state)
    try:
        page.set_viewport_size(TABLET_SIZE if device == "tablet" else PHONE_SIZE)
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            wide = _wide(page)
            if wide:
                result.overflow.append(f"{scheme}: {wide}")
            result.axe[scheme] = _axe(page, None if scheme == SCHEMES[0] else THEMED_RULES)
            if os.environ.get("COMPANION_FIT_SHOTS") == "1":
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / f"{name}-{device}-{scheme}.png"),
                                full_page=True)
        page.evaluate(ROOT_FONT, "200%")
        wide = _wide(page)
        if wide:
            result.overflow.append(f"200 % text: {wide}")
        if os.environ.get("COMPANION_FIT_SHOTS") == "1":
            page.screenshot(path=str(SHOTS / f"{name}-{device}-200.png"), full_page=True)
    finally:
        page.evaluate(ROOT_FONT, "")
        page.emulate_media(color_scheme="dark" if dark else "light")
        page.set_viewport_size(viewport)
        if result.overflow:  # a phone zoomed out to show a page too wide: back to 100 %
            cdp = page.context.new_cdp_session(page)
            cdp.send("Emulation.setPageScaleFactor", {"pageScaleFactor": 1})
            cdp.detach()
    result.seconds = time.monotonic() - started
    RESULTS.append(result)
    LOG.parent.mkdir(parents=True, exist_ok=True)
    with LOG.open("a", encoding="utf-8") as log:
        log.write(f"{result.line()}  ({result.seconds:.1f} s)\n")
    return result


def report() -> list[str]:
    """The lines printed at the end of the session: one a state, then the totals."""
    if not RESULTS:
        return []
    lines = [r.line() for r in RESULTS]
    bad = [r for r in RESULTS if r.problems()]
    nodes = sum(c for r in RESULTS for found in r.axe.values() for _r, _i, c, _n in found)
    lines.append(f"{len(RESULTS)} page states checked, {len(bad)} with a problem; "
                 f"{nodes} axe nodes (any impact); "
                 f"{sum(1 for r in RESULTS if r.overflow)} scroll sideways; "
                 f"{sum(1 for r in RESULTS if not r.headings)} without an h1; "
                 f"the checks took {sum(r.seconds for r in RESULTS):.1f} s")
    return lines
