"""What a request notes for its own later steps, in one typed object: :func:`request_state`.

One request notes a few things as it goes that later steps of the same request read: the
table it read (an event stream's answer may start from another answer's), whether it is
an event stream's own answer (no rate limit counts it), whether its action holds its
table's lock, whether it has committed its change, how many rounds its answer is drawn
from (the heavy pages' limit), and its tap's key and answer (a tap applied once). They
live in one :class:`RequestState` in Flask's ``g``, made on first use.

This module imports nothing of the project (it sits below the store): the database
plumbing (:mod:`companion.transactions`) reads it as well as the live layer and the pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import g, has_request_context, request

STATE = "companion_request"
"""The one ``g`` key: this request's :class:`RequestState`."""


@dataclass
class RequestState:
    """What the request under way has noted (see the module)."""

    read_table: Any = None
    """The store's ``Table`` a request that only reads has in hand (found by the pages'
    ``find_table``, or given before it runs: an event stream's answer starts from the table
    another answer to the same change found, :mod:`companion.live.push`)."""
    pushed: bool = False
    """The request is an event stream's own answer (:mod:`companion.live.push`)."""
    locked: bool = False
    """The action holds its table's lock (:func:`companion.live.versions.locked`)."""
    committed: bool = False
    """The request has committed its change: it only reads from now on
    (:func:`companion.transactions.reads_only`)."""
    drawn_from: int = 0
    """How many rounds the answer is drawn from (the heavy pages' limit)."""
    tap: str | None = None
    """The digest of the tap this request carries, claimed (a keyed request that writes;
    :mod:`companion.web.taps`)."""
    tap_answer: tuple[int, str | None] | None = None
    """The answer the view said, before its commit, the tap will get: (status, Location)."""
    tap_kept: tuple[int, str | None] | None = None
    """The answer kept with the tap's key at its commit (the tap was applied)."""
    tap_repeated: bool = False
    """The request is a repeat of a tap already applied, answered from the first."""
    form_key: str | None = None
    """The key the forms of the page being drawn carry (a browser without JavaScript)."""


def request_state() -> RequestState:
    """The request's state, made on first use (inside a request or an app context)."""
    state = g.get(STATE)
    if state is None:
        state = RequestState()
        setattr(g, STATE, state)
    return state


def in_place() -> bool:
    """True for an htmx tap (not a boosted link or form): its answer, or its refusal, is the
    region it was made on, swapped in place; a boosted form gets a page."""
    return request.headers.get("HX-Request") == "true" and not request.headers.get("HX-Boosted")


def state_if_any() -> RequestState | None:
    """The request's state when there is a request and it noted something; else None."""
    return g.get(STATE) if has_request_context() else None


__all__ = ["RequestState", "in_place", "request_state", "state_if_any"]
