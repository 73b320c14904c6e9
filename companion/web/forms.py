"""Reading what players type: names, numbers, choices. Each helper raises
:class:`FormError` with a message for the player; views turn it into a 400."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from decimal import Decimal

from babel.numbers import format_currency, format_decimal
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from ..rules.games import GAMES, game_module
from ..store import NAME_LENGTH, Seat
from .device import locale_name

MINUS = "\u2212"
"""The one minus sign every page writes (−, not the hyphen -)."""

MAX_SEATS = max(max(game_module(name).PLAYERS) for name in GAMES)
"""The most seats the app gives a table: the most players any game of the registry takes
(Trefeltromp's 19), so that each game's seat range on the new-table form is its rules'."""


class FormError(ValueError):
    """Something typed or picked that the app cannot take; the message says why.

    The message is said in the device's language: each is a whole sentence with
    placeholders, and the ``what`` the helpers below name (``"The stake"``) is the caller's,
    a plain str or a translated one (``_l("The stake")``)."""


def clean_name(text: object, what: str = _l("A name")) -> str | None:
    """A typed name: spaces tidied; ``None`` when blank.

    >>> clean_name("  Sam   Smith "), clean_name("   ")
    ('Sam Smith', None)
    >>> clean_name("x" * 41)  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    FormError: A name is at most 40 characters long
    """
    if text is None:
        return None
    if not isinstance(text, str):
        raise FormError(_("%(what)s must be text", what=what))
    name = " ".join(text.split())
    if not name:
        return None
    if len(name) > NAME_LENGTH:
        raise FormError(_("%(what)s is at most %(most)s characters long "
                          "(\u201c%(start)s\u2026\u201d is %(length)s)", what=what,
                          most=NAME_LENGTH, start=name[:NAME_LENGTH], length=len(name)))
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs") for ch in name):
        raise FormError(_("%(what)s may not hold control characters", what=what))
    return name


def required_name(text: object, what: str = _l("A name")) -> str:
    """A typed name that may not be blank."""
    name = clean_name(text, what)
    if name is None:
        raise FormError(_("%(what)s is empty: type one", what=what))
    return name


def same_name(a: str, b: str) -> bool:
    """True for names players would take for the same (``Sam`` and ``sam``)."""
    return a.casefold() == b.casefold()


def seat_called(seats: Iterable[Seat], name: str | None, *,
                other_than: Seat | None = None) -> Seat | None:
    """The seat (besides ``other_than``) whose player is called ``name``, in any case, if
    any: two players at a table never share a name (the scores and the ledger go by it)."""
    if not name:
        return None
    return next((s for s in seats if s.name and same_name(s.name, name)
                 and (other_than is None or s.id != other_than.id)), None)


def first_duplicate(names: Iterable[str | None]) -> str | None:
    """The first name given twice (in any case), if any.

    >>> first_duplicate(["Ann", None, "Bo", "ann"]), first_duplicate(["Ann", None, None])
    ('ann', None)
    """
    seen: set[str] = set()
    for name in names:
        if name is None:
            continue
        if name.casefold() in seen:
            return name
        seen.add(name.casefold())
    return None


def options_as_sent(fields: Iterable[str], defaults: Mapping[str, str],
                    form: Mapping[str, str] | None) -> dict[str, str]:
    """A game's options form's values: as sent (a field left out is blank), or the game's
    ``defaults`` when nothing was sent yet (the form as first drawn)."""
    if form is not None:
        return {name: str(form.get(name, "")) for name in fields}
    return dict(defaults)


def options_with_defaults(fields: Iterable[str], defaults: Mapping[str, str],
                          form: Mapping[str, str]) -> dict[str, str]:
    """A game's options as sent, each field the form does not send taking its default."""
    return dict(defaults) | {name: form[name] for name in fields if name in form}


def whole_number(text: object, what: str, low: int, high: int) -> int:
    """A typed whole number between ``low`` and ``high``.

    >>> whole_number(" 4 ", "The number of seats", 2, 8)
    4
    """
    if not isinstance(text, str) or not re.fullmatch(r"\s*[0-9]{1,6}\s*", text):
        raise FormError(_("%(what)s must be a whole number", what=what))
    value = int(text)
    if not low <= value <= high:
        raise FormError(_("%(what)s must be from %(low)s to %(high)s, not %(value)s", what=what,
                          low=low, high=high, value=value))
    return value


UNITS: dict[str, tuple[str, str, int]] = {
    "GBP": ("£", _l("pounds and pence"), 2),
    "EUR": ("€", _l("euros and cents"), 2),
    "USD": ("$", _l("dollars and cents"), 2),
    "chips": ("", _l("chips"), 0),
}
"""The money units a table can use: symbol, name (in the device's language when shown),
decimal places of the smallest unit."""

MAX_AMOUNT = 10**7
"""The largest amount typed into a money field, in the smallest unit (£100,000.00)."""


def check_unit(unit: object) -> str:
    """One of :data:`UNITS`."""
    if not isinstance(unit, str) or unit not in UNITS:
        raise FormError(_("Pick the money unit: £, €, $ or chips"))
    return unit


def read_money(text: object, unit: str, what: str) -> int:
    """A typed amount (``2.50``, ``£2.50``, ``2,5``, ``2,50 €``; blank: none) in the
    smallest unit: the symbol before or after the number, as the device's language writes it.

    >>> read_money("2.50", "GBP", "The fee"), read_money("£3", "GBP", "The fee")
    (250, 300)
    >>> read_money("2,50 €", "EUR", "The fee"), read_money("4€", "EUR", "The fee")
    (250, 400)
    >>> read_money(" ", "EUR", "The fee"), read_money("15", "chips", "The stake")
    (0, 15)
    >>> read_money("1.5", "chips", "The stake")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    FormError: The stake is a whole number of chips, not 1.5
    """
    if text is None:
        return 0
    if not isinstance(text, str):
        raise FormError(_("%(what)s must be an amount", what=what))
    symbol, _name, places = UNITS[unit]
    typed = text.strip()
    if symbol and typed.startswith(symbol):
        typed = typed[len(symbol):].strip()
    elif symbol and typed.endswith(symbol):
        typed = typed[:-len(symbol)].strip()
    if not typed:
        return 0
    match = re.fullmatch(r"([0-9]{1,8})(?:[.,]([0-9]{1,2}))?", typed)
    if match is None:
        example = "5" if not places else format_decimal(Decimal("2.50"), format="0.00",
                                                         locale=locale_name())
        raise FormError(_("%(what)s must be an amount like %(example)s, "
                          "not \u201c%(typed)s\u201d", what=what, example=example,
                          typed=text.strip()[:20]))
    whole, part = match.groups()
    if part and not places:
        raise FormError(_("%(what)s is a whole number of chips, not %(typed)s", what=what,
                          typed=typed))
    amount = int(whole) * 10**places + int((part or "").ljust(places, "0") or 0)
    if amount > MAX_AMOUNT:
        raise FormError(_("%(what)s is more than the app takes (%(most)s)", what=what,
                          most=money_text(MAX_AMOUNT, unit)))
    return amount


def money_text(amount: object, unit: str | None, sign: bool = False) -> str:
    """An amount in the smallest unit, as players read it in their language: ``£1.50``,
    ``−€0.05``, ``15 chips`` in English; ``1,50 €`` in French (Babel's formats, the
    device's locale: :func:`~companion.web.device.locale_name`).

    With ``sign`` (a column of gains and losses), a gain shows ``+`` and chips
    are bare numbers, as the score tables write them. This is the one place
    money is written out.

    >>> money_text(150, "GBP"), money_text(-5, "EUR"), money_text(250, "USD", sign=True)
    ('£1.50', '−€0.05', '+$2.50')
    >>> money_text(1, "chips"), money_text(-15, "chips", sign=True), money_text(0, "GBP", True)
    ('1 chip', '−15', '£0.00')
    >>> money_text(123456, "GBP")
    '£1,234.56'
    """
    if isinstance(amount, bool) or not isinstance(amount, int):
        return str(amount)
    code = unit if unit in UNITS else "chips"
    places = UNITS[code][2]
    prefix = MINUS if amount < 0 else "+" if sign and amount > 0 else ""
    size = abs(amount)
    if not places:
        return f"{prefix}{size}" if sign else prefix + ngettext("%(num)s chip", "%(num)s chips",
                                                                size)
    shown = format_currency(Decimal(size).scaleb(-places), code, locale=locale_name())
    return f"{prefix}{shown}"
