"""Reading what players type: names, numbers, choices. Each helper raises
:class:`FormError` with a message for the player; views turn it into a 400."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from ..rules import GAMES, game_module
from ..store import NAME_LENGTH

MAX_SEATS = 8
"""The most seats the app gives a table (Trefeltromp allows more players than fit a screen)."""


class FormError(ValueError):
    """Something typed or picked that the app cannot take; the message says why."""


def clean_name(text: object, what: str = "A name") -> str | None:
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
        raise FormError(f"{what} must be text")
    name = " ".join(text.split())
    if not name:
        return None
    if len(name) > NAME_LENGTH:
        raise FormError(f"{what} is at most {NAME_LENGTH} characters long "
                        f"(\u201c{name[:NAME_LENGTH]}\u2026\u201d is {len(name)})")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs") for ch in name):
        raise FormError(f"{what} may not hold control characters")
    return name


def required_name(text: object, what: str = "A name") -> str:
    """A typed name that may not be blank."""
    name = clean_name(text, what)
    if name is None:
        raise FormError(f"{what} is empty: type one")
    return name


def same_name(a: str, b: str) -> bool:
    """True for names players would take for the same (``Sam`` and ``sam``)."""
    return a.casefold() == b.casefold()


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


def whole_number(text: object, what: str, low: int, high: int) -> int:
    """A typed whole number between ``low`` and ``high``.

    >>> whole_number(" 4 ", "The number of seats", 2, 8)
    4
    """
    if not isinstance(text, str) or not re.fullmatch(r"\s*\d{1,6}\s*", text):
        raise FormError(f"{what} must be a whole number")
    value = int(text)
    if not low <= value <= high:
        raise FormError(f"{what} must be from {low} to {high}, not {value}")
    return value


def game_title(game: str) -> str:
    """A game's name as players say it.

    >>> game_title("trumplestiltskin")
    'Trumplestiltskin'
    """
    return game.capitalize()


def allowed_players(game: str) -> list[int]:
    """How many players ``game`` allows, within the app's limit of seats."""
    counts = game_module(game).PLAYERS
    return [n for n in range(1, MAX_SEATS + 1) if n in counts]


def describe_counts(counts: list[int]) -> str:
    """``4``, ``3 to 5``, or ``2 to 8`` (players).

    >>> describe_counts([4]), describe_counts([3, 4, 5])
    ('4', '3 to 5')
    """
    if len(counts) == 1:
        return str(counts[0])
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts))


def check_game(game: object) -> str:
    """One of the five games."""
    if game not in GAMES:
        raise FormError("Pick one of the five games")
    return str(game)


def check_player_count(game: str, count: int) -> None:
    """The game must allow ``count`` players."""
    counts = allowed_players(game)
    if count not in counts:
        raise FormError(f"{game_title(game)} is for {describe_counts(counts)} players, "
                        f"not {count}")
