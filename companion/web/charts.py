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


LABEL_SIZE = 13
"""The end labels' font size (px in the chart's own units)."""

LABEL_GAP = 18
"""The least distance between two end labels' baselines: a line of 13-px text (its
ascenders and descenders) and a little air, so that no two labels' boxes overlap."""


def place_labels(ends: Sequence[float], low: float, high: float,
                 gap: float = LABEL_GAP) -> list[float]:
    """Where each end label goes (its y), given where its line ends (``ends``): as near its
    line's end as the others allow, ``gap`` apart, in the same order, within ``low`` to
    ``high`` (the top and bottom of the plot) when they fit there.

    Two totals a point apart (Fay 61, Gus 60) end a pixel apart; their labels are moved
    apart, the higher total's label still the higher one.

    >>> place_labels([100.0, 101.0], 0, 200)
    [91.5, 109.5]
    >>> place_labels([10.0, 150.0], 0, 200)
    [10.0, 150.0]
    """
    order = sorted(range(len(ends)), key=lambda i: (ends[i], i))
    wanted = [ends[i] for i in order]
    # Runs of labels too close together are spread around their middle, then merged with
    # their neighbours until no two runs overlap (a run keeps its labels gap apart).
    runs: list[list[Any]] = []  # [first index, count, the first label's y]
    for index, y in enumerate(wanted):
        runs.append([index, 1, y])
        while len(runs) > 1:
            before, last = runs[-2], runs[-1]
            if before[2] + before[1] * gap <= last[2]:
                break
            first, count = before[0], before[1] + last[1]
            middle = sum(wanted[first:first + count]) / count
            runs[-2:] = [[first, count, middle - (count - 1) * gap / 2]]
    labels = [start + k * gap for _first, count, start in runs for k in range(count)]
    if (len(labels) - 1) * gap <= high - low:  # within the plot, when they fit in it
        for k, y in enumerate(labels):  # down from the top ...
            labels[k] = max(y, low if k == 0 else labels[k - 1] + gap)
        for k in range(len(labels) - 1, -1, -1):  # ... and up from the bottom
            labels[k] = min(labels[k], high if k == len(labels) - 1 else labels[k + 1] - gap)
    placed = [0.0] * len(ends)
    for k, y in enumerate(labels):
        placed[order[k]] = round(y, 1)
    return placed


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
    ends = [y(line[-1]) for line in series.values()]
    labels = place_labels(ends, top, top + plot_h)
    end_x = x(points - 1)
    for index, (name, line) in enumerate(series.items()):
        colour = PALETTE[index % len(PALETTE)]
        path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(line))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="3" '
                     f'stroke-linejoin="round" points="{path}"><title>{escape(name)}</title>'
                     f"</polyline>")
        end_y, label_y = ends[index], labels[index]
        parts.append(f'<circle cx="{end_x:.1f}" cy="{end_y:.1f}" r="4" fill="{colour}"/>')
        if abs(label_y - end_y) > 2:  # moved away from its line: a short lead back to it
            parts.append(f'<line x1="{end_x + 4:.1f}" y1="{end_y:.1f}" x2="{end_x + 7:.1f}" '
                         f'y2="{label_y:.1f}" stroke="{colour}" stroke-width="1.5"/>')
        parts.append(f'<text class="end-label" x="{end_x + 8:.1f}" y="{label_y + 4:.1f}" '
                     f'fill="{colour}" font-size="{LABEL_SIZE}" font-weight="600">'
                     f"{escape(name)} {number(line[-1])}</text>")
    parts.append("</svg>")
    return Markup("".join(parts))
