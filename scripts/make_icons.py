"""Draw the companion's app icons into static/icons/.

A playing card with a spade on the dark theme colour, drawn with Pillow
(no fonts, so the result is the same on every machine). Run it again after
changing the look::

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

BACKGROUND = "#111418"
CARD = "#f4f1e8"
CARD_BEHIND = "#c8403a"
INK = "#111418"
OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
# Drawn this many times larger, then scaled down: Pillow's shapes have no anti-aliasing.
SUPERSAMPLE = 4


def _card(size: int, box: tuple[float, float, float, float], fill: str) -> Image.Image:
    """A transparent layer of ``size`` with one rounded card in ``box``."""
    layer = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    x0, y0, x1, y1 = box
    ImageDraw.Draw(layer).rounded_rectangle(
        (x0, y0, x1, y1), radius=(x1 - x0) * 0.12, fill=fill
    )
    return layer


def _spade(draw: ImageDraw.ImageDraw, cx: float, cy: float, height: float, fill: str) -> None:
    """Draw a spade of ``height`` centred on (cx, cy)."""
    unit = height / 100  # the spade is designed in a 100 x 100 box

    def pt(x: float, y: float) -> tuple[float, float]:
        return cx + (x - 50) * unit, cy + (y - 50) * unit

    radius = 21 * unit
    for x in (29, 71):
        px, py = pt(x, 58)
        draw.ellipse((px - radius, py - radius, px + radius, py + radius), fill=fill)
    draw.polygon([pt(50, 2), pt(11.5, 49), pt(50, 72), pt(88.5, 49)], fill=fill)
    draw.polygon([pt(50, 58), pt(33, 98), pt(67, 98)], fill=fill)


def draw_icon(size: int, *, maskable: bool = False) -> Image.Image:
    """The icon at ``size`` pixels; a maskable one keeps the mark in the safe zone."""
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), BACKGROUND)
    # A maskable icon may be cut to a circle of 80 % of its width: keep the mark well inside.
    scale = 0.56 if maskable else 0.74
    card_h = big * scale
    card_w = card_h * 0.7
    x0 = (big - card_w) / 2 + big * 0.03
    y0 = (big - card_h) / 2
    box = (x0, y0, x0 + card_w, y0 + card_h)

    behind = _card(big, box, CARD_BEHIND).rotate(12, center=(big / 2, big / 2),
                                                   resample=Image.Resampling.BICUBIC)
    behind = behind.transform(behind.size, Image.Transform.AFFINE,
                              (1, 0, big * 0.07, 0, 1, 0), resample=Image.Resampling.BICUBIC)
    image.alpha_composite(behind)
    front = _card(big, box, CARD)
    _spade(ImageDraw.Draw(front), x0 + card_w / 2, y0 + card_h / 2, card_h * 0.5, INK)
    image.alpha_composite(front.rotate(-6, center=(big / 2, big / 2),
                                       resample=Image.Resampling.BICUBIC))
    return image.resize((size, size), Image.Resampling.LANCZOS).convert("RGB")


def main() -> None:
    """Write icon-192.png, icon-512.png and maskable-512.png."""
    OUT.mkdir(parents=True, exist_ok=True)
    draw_icon(192).save(OUT / "icon-192.png", optimize=True)
    draw_icon(512).save(OUT / "icon-512.png", optimize=True)
    draw_icon(512, maskable=True).save(OUT / "maskable-512.png", optimize=True)
    for name in ("icon-192.png", "icon-512.png", "maskable-512.png"):
        print(OUT / name)


if __name__ == "__main__":
    main()
