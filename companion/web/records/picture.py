"""The night's recap as a picture: an SVG the server writes from the recap's lines.

The PNG for sharing is drawn from this SVG in the browser (``static/recap.js``, on a
canvas): it needs no library on the server. The well-kept PyPI renderers need a system
library (CairoSVG needs libcairo) or do not read SVG (Pillow), and a fresh machine is to
install the app from PyPI alone.
"""

from __future__ import annotations

import textwrap
from xml.sax.saxutils import escape

from flask_babel import gettext as _

from .book import Recap

WIDTH = 440
"""Narrow, so that on a phone's screen (and in a chat) the text is still big enough to read."""
MARGIN = 24
LINE = 28
WRAP = 36
"""Characters on a line of the body (18 px text on a 392 px wide column)."""
NAME_ROOM = 22
"""Characters of a name beside its money or its score (a longer one is cut short: the text
has it whole)."""

BACKGROUND, INK, MUTED, GAIN, LOSS, ACCENT = (
    "#111418", "#f4f1ea", "#b9c0c8", "#7ee2a8", "#ff9a8c", "#f2c14e")


def _lines(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, WRAP, subsequent_indent=indent) or [""]


def _short(name: str) -> str:
    """A name beside its figure, cut short with an ellipsis when it is too long for the line."""
    return name if len(name) <= NAME_ROOM else f"{name[:NAME_ROOM - 1]}\u2026"


def recap_svg(recap: Recap) -> str:
    """The recap as an SVG document (its text escaped; sized to its lines), its headings in
    the device's language."""
    parts: list[str] = []
    y = MARGIN + 30

    def text(content: str, *, size: int = 18, fill: str = INK, weight: str = "normal",
             x: int = MARGIN, anchor: str = "start") -> None:
        parts.append(f'<text x="{x}" y="{y}" font-size="{size}" fill="{fill}" '
                     f'font-weight="{weight}" text-anchor="{anchor}">{escape(content)}</text>')

    for line in textwrap.wrap(recap.title, 24) or [""]:
        text(line, size=28, weight="bold", fill=ACCENT)
        y += 36
    text(recap.subtitle, size=16, fill=MUTED)
    y += LINE + 12

    def heading(title: str) -> None:
        nonlocal y
        text(title, size=20, weight="bold")
        y += LINE

    if recap.problem:
        for line in _lines(recap.problem):
            text(line, fill=LOSS)
            y += LINE
    heading(_("Games"))
    for game in recap.games:
        for line in _lines(game, "   "):
            text(line)
            y += LINE
    y += 10
    if recap.standings:
        heading(_("Scores"))
        for standing in recap.standings:
            for line in _lines(standing.game, "   "):
                text(line, fill=MUTED)
                y += LINE
            for name, total, won in standing.rows:
                text(_short(name))
                text(total, x=WIDTH - MARGIN, anchor="end", fill=ACCENT if won else INK,
                     weight="bold")
                y += LINE
        y += 10
    if recap.money_played:
        if recap.money:
            heading(_("Money tonight"))
            for name, money, amount in recap.money:
                text(_short(name))
                text(money, x=WIDTH - MARGIN, anchor="end",
                     fill=GAIN if amount > 0 else LOSS if amount < 0 else MUTED, weight="bold")
                y += LINE
            y += 10
        heading(_("Who pays whom"))
        for transfer in recap.transfers or (_("Everyone is square."),):
            for line in _lines(transfer, "   "):
                text(line)
                y += LINE
    if recap.records:
        if recap.money_played:  # (the sections above end with this space)
            y += 10
        heading(_("Tonight's records"))
        for record in recap.records:
            for line in _lines(record, "   "):
                text(line, fill=MUTED)
                y += LINE
    height = y + MARGIN - 10
    body = "\n".join(parts)
    label = escape(_("%(title)s: the night's recap", title=recap.title), {'"': "&quot;"})
    fonts = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{label}" '
            f'font-family="{fonts}">\n'
            f'<rect width="100%" height="100%" rx="16" fill="{BACKGROUND}"/>\n'
            f"{body}\n</svg>\n")


__all__ = ["recap_svg"]
