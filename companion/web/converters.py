"""URL converters: what a URL may hold before any view sees it."""

from __future__ import annotations

from werkzeug.routing import IntegerConverter

LARGEST = 2**31 - 1
"""The largest whole number a URL may hold: PostgreSQL's ``integer`` (and far below SQLite's)."""


class BoundedInt(IntegerConverter):
    """``<int:…>`` with ASCII digits only, from 0 to :data:`LARGEST`: anything else is a 404.

    >>> BoundedInt.regex
    '[0-9]{1,10}'
    """

    regex = "[0-9]{1,10}"

    def __init__(self, map, *args, **kwargs) -> None:
        kwargs.setdefault("max", LARGEST)
        super().__init__(map, *args, **kwargs)
