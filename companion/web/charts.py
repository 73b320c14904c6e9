"""Score progress as a chart: an SVG drawn on the server from a replay result.

No JavaScript and no chart library: the page gets a small inline SVG that
works the same on a phone, a tablet and with scripts off. The numbers come
straight from ``replay`` (``rounds[*].totals``); this module only draws them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _
from markupsafe import Markup, escape

from .filters import number

PALETTE = ("#4fc3f7", "#ffb74d", "#81c784", "#f06292", "#ba68c8", "#fff176", "#4db6ac",
           "#e57373")
"""Line colours, one per seat, chosen to stay apart on a dark background."""


def series_from_result(result: Mapping[str, Any]) -> dict[str, list[float]]:
    """Each name's running total after every round, starting from round 0.

    >>> series_from_result({"rounds": [{"totals": {"Ann": 5, "Bo": -3}},
    ...                                {"totals": {"Ann": 7.5, "Bo": 2}}]})
    {'Ann': [0, 5, 7.5], 'Bo': [0, -3, 2]}
    """
    rounds = result.get("rounds") or []
    names: list[str] = []
    for entry in rounds:
        for name in entry.get("totals", {}):
            if name not in names:
                names.append(name)
    series: dict[str, list[float]] = {name: [0] for name in names}
    for entry in rounds:
        totals = entry.get("totals", {})
        for name in names:
            series[name].append(totals.get(name, series[name][-1]))
    return series


def _nice_step(span: float) -> float:
    """A round grid step giving about four to eight grid lines over ``span``."""
    step = 1.0
    while span / step > 8:
        for factor in (2, 2.5, 2):
            step *= factor
            if span / step <= 8:
                break
    return step


def score_chart(result: Mapping[str, Any], *, width: int = 640, height: int = 260,
                title: str | None = None,
                start: Mapping[str, float] | None = None) -> Markup:
    """An inline SVG line chart of the running totals in ``result``.

    ``start`` gives each line's value before round 1 (a chip game's starting
    stack); by default every line starts at 0. An empty game gives an empty
    string, so a template can write ``{{ chart }}`` unconditionally. ``title`` (what a
    screen reader says of it) is "Totals after each round" unless the game says otherwise.
    """
    series = series_from_result(result)
    if not series or len(next(iter(series.values()))) < 2:
        return Markup("")
    if start:
        for name, values in series.items():
            values[0] = start.get(name, values[0])
    return _draw(series, width, height, str(title) if title else _("Totals after each round"))


def _draw(series: Mapping[str, Sequence[float]], width: int, height: int, title: str) -> Markup:
    left, right, top, bottom = 48, 110, 16, 28
    plot_w, plot_h = width - left - right, height - top - bottom
    points = len(next(iter(series.values())))
    values = [v for line in series.values() for v in line]
    low, high = min(values + [0]), max(values + [0])
    if high == low:
        high = low + 1
    step = _nice_step(high - low)
    low = (low // step) * step
    high = -((-high) // step) * step

    def x(i: int) -> float:
        return left + plot_w * i / max(points - 1, 1)

    def y(v: float) -> float:
        return top + plot_h * (high - v) / (high - low)

    parts = [
        f'<svg class="score-chart" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'viewBox="0 0 {width} {height}" width="100%" preserveAspectRatio="xMidYMid meet">',
        f"<title>{escape(title)}</title>",
    ]
    grid = low
    while grid <= high + step / 2:
        gy = y(grid)
        colour = "#8a94a6" if grid == 0 else "#2c3340"
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{gy:.1f}" y2="{gy:.1f}" '
                     f'stroke="{colour}" stroke-width="1"/>')
        label = number(grid)
        parts.append(f'<text x="{left - 6}" y="{gy + 4:.1f}" text-anchor="end" '
                     f'fill="#8a94a6" font-size="12">{label}</text>')
        grid += step
    for i in range(points):
        if i and (points <= 13 or i % 2 == 0 or i == points - 1):
            parts.append(f'<text x="{x(i):.1f}" y="{height - 8}" text-anchor="middle" '
                         f'fill="#8a94a6" font-size="12">{i}</text>')
    for index, (name, line) in enumerate(series.items()):
        colour = PALETTE[index % len(PALETTE)]
        path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(line))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="3" '
                     f'stroke-linejoin="round" points="{path}"><title>{escape(name)}</title>'
                     f"</polyline>")
        end_y = y(line[-1])
        parts.append(f'<circle cx="{x(points - 1):.1f}" cy="{end_y:.1f}" r="4" fill="{colour}"/>')
        parts.append(f'<text x="{x(points - 1) + 8:.1f}" y="{end_y + 4:.1f}" fill="{colour}" '
                     f'font-size="13" font-weight="600">{escape(name)} {number(line[-1])}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
