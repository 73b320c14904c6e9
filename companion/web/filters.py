"""Jinja filters: cards with their suits in colour, exact numbers, money; and the words the
front end writes itself, in the device's language (:func:`front_end_words`)."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from flask import Flask
from flask_babel import gettext as _
from markupsafe import Markup, escape

from ..rules import RuleError
from ..rules.cards import Joker, SuitCard, parse_card
from .forms import MINUS, money_text

_VULGAR = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾",
           Fraction(1, 8): "⅛", Fraction(3, 8): "⅜", Fraction(5, 8): "⅝", Fraction(7, 8): "⅞"}


def card(text: object) -> Markup:
    """A card as ``<span class="card red">10♥</span>`` (♥♦ red, ♠♣ light).

    Any spelling the rules read is shown in its symbol form; anything else is
    shown as typed (escaped), so a bad card is still visible.

    >>> str(card("10h"))
    '<span class="card red">10♥</span>'
    >>> str(card("ks"))
    '<span class="card black">K♠</span>'
    >>> str(card("<b>"))
    '<span class="card">&lt;b&gt;</span>'
    """
    try:
        parsed = parse_card(text)
    except RuleError:
        return Markup('<span class="card">{}</span>').format(text)
    if isinstance(parsed, SuitCard):
        colour = "red" if parsed.suit.is_red else "black"
    elif isinstance(parsed, Joker):
        colour = parsed.colour.value
        return Markup('<span class="card {}">{}</span>').format(colour, joker_name(colour))
    else:
        colour = "trump"
    return Markup('<span class="card {}">{}</span>').format(colour, str(parsed))


def joker_name(colour: str) -> str:
    """A joker's name in the device's language ("red joker", "joker rouge")."""
    return _("red joker") if colour == "red" else _("black joker")


def card_name(text: object) -> str:
    """A card as plain text for a place that takes no markup (a select's option): its
    printed form, a joker named in the device's language; anything else as typed."""
    try:
        parsed = parse_card(text)
    except RuleError:
        return str(text)
    return joker_name(parsed.colour.value) if isinstance(parsed, Joker) else str(parsed)


def cards(items: Iterable[object]) -> Markup:
    """Several cards, one after another.

    >>> str(cards(["as", "XXI"]))
    '<span class="card black">A♠</span> <span class="card trump">XXI</span>'
    """
    return Markup(" ").join(card(item) for item in items)


def suit(symbol: object) -> Markup:
    """A suit symbol in its colour.

    >>> str(suit("♦"))
    '<span class="suit red">♦</span>'
    """
    text = str(symbol)
    colour = "red" if text in ("♥", "♦") else "black" if text in ("♠", "♣") else "none"
    return Markup('<span class="suit {}">{}</span>').format(colour, escape(text))


def number(value: object) -> str:
    """A score as players write it: whole, or with ½ (¼, ⅛ …) kept exactly.

    Below zero it takes the one minus sign every page uses (U+2212, −).

    >>> number(7.5), number(-0.5), number(0.25), number(12), number(-9), number(0.0625)
    ('7½', '−½', '¼', '12', '−9', '1/16')
    """
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        return str(value)
    exact = Fraction(value)
    sign = MINUS if exact < 0 else ""
    exact = abs(exact)
    whole, part = divmod(exact, 1)
    if part == 0:
        return f"{sign}{whole}"
    shown = _VULGAR.get(part, f"{part.numerator}/{part.denominator}")
    if whole and "/" in shown:
        shown = f" {shown}"
    return f"{sign}{whole or ''}{shown}"


def signed(value: object) -> str:
    """A money amount with its sign: ``+5``, ``−5``, ``0``.

    >>> signed(5), signed(-5), signed(0)
    ('+5', '−5', '0')
    """
    shown = number(value)
    return f"+{shown}" if isinstance(value, int | float) and value > 0 else shown


def money(amount: object, unit: str | None = None, sign: bool = False) -> str:
    """The one money filter: ``{{ amount|money(table.unit) }}`` → ``£1.50``, ``15 chips``."""
    return money_text(amount, unit, sign)


def front_end_words() -> dict[str, str]:
    """The words static/app/ writes on a page itself, in the device's language: base.html
    gives them to the page as JSON (``<script type="application/json" id="words">``), and
    static/app/words.js reads them, each with its English as the fallback. ``{name}``
    in a text is filled in by the script."""
    return {
        "tap.sending": _("Sending…"),
        "tap.waiting": _("Waiting: your last tap is still on its way…"),
        "tap.unsent": _("Not sent: no connection — will send when you're back"),
        "tap.stale": _("Not sent: the screen moved on before it could go. Look again, and tap "
                       "once more if it still needs doing."),
        "tap.gone": _("No connection: that page could not be opened. Try again once you're "
                      "back."),
        "tap.again": _("Send again"),
        "seat": _("Seat %(number)s", number="{seat}"),
        "named_seat": _("%(name)s (seat %(number)s)", name="{name}", number="{seat}"),
        "picked": _("%(done)s of %(total)s", done="{ticked}", total="{size}"),
        "recap.copied": _("The recap's text is copied: paste it in your group chat. The "
                          "picture is below to download."),
        "recap.select": _("Select the text below to copy it; download the picture with the "
                          "button."),
        "recap.shared": _("Shared."),
        "recap.shared_text": _("Shared. Download the picture to send it too."),
    }


def register(app: Flask) -> None:
    """Make the filters available to every template, and the front end's words."""
    app.add_template_global(front_end_words)
    app.add_template_filter(money)
    app.add_template_filter(card)
    app.add_template_filter(card_name)
    app.add_template_filter(cards)
    app.add_template_filter(suit)
    app.add_template_filter(number)
    app.add_template_filter(signed)
