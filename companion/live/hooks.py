"""What the pages tell the live layer: the hooks it owns, registered when the app is made.

The live layer knows tables and versions, not pages. Three things it needs come from the
pages (:mod:`companion.web` registers them: :func:`companion.web.register`):

- ``find_table``: who may read this table: the table for a join code, or an HTTP error (a
  404 a player can act on). An event stream finds its table with it.
- ``counted``: the rate limit a stream's opening counts towards (a wrong code), as a
  decorator of the stream's view.
- ``is_pulse``: which endpoints answer a page's pulse: the only answers an event stream
  makes for its page (:mod:`companion.live.push`).

An app made without them (a test of the transport alone) gets :data:`NO_HOOKS`: streams
for no table, and no answer pushed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import abort, current_app

if TYPE_CHECKING:  # pragma: no cover
    from ..store import Table

EXTENSION = "companion.live.hooks"
"""Where the app keeps its hooks (``app.extensions``)."""


def _no_table(code: str) -> Table:
    abort(404)


@dataclass(frozen=True)
class Hooks:
    """What the pages tell the live layer (see the module)."""

    find_table: Callable[[str], Table] = _no_table
    counted: Callable[[Callable[..., Any]], Callable[..., Any]] = lambda view: view
    is_pulse: Callable[[str], bool] = lambda endpoint: False


NO_HOOKS = Hooks()


def hooks() -> Hooks:
    """The current app's hooks."""
    return current_app.extensions.get(EXTENSION, NO_HOOKS)


__all__ = ["EXTENSION", "NO_HOOKS", "Hooks", "hooks"]
