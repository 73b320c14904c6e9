"""Live updates: how every screen at a table comes to show a change made on one of them.

This package is transport only, a layer below the pages (:mod:`companion.web`): it knows
tables, their versions and requests, never what a page draws. It imports nothing from
``companion.web``; the pages tell it what it needs through the hooks it owns
(:mod:`companion.live.hooks`), registered when the app is made.

Glossary (the same words as ``docs/architecture.md``):

version
    A table's counter (``tables.version``), raised by every change a screen shows
    (:func:`companion.store.commits.bump`). A page says the version it shows; a page
    showing the latest one needs nothing.
unchanged poll
    A screen's poll whose version is still the table's: answered ``204`` before the app
    starts, with one indexed read (:mod:`.polls`).
pulse
    A live page's one polled element (``#pulse``), and its URL: it carries the page's
    version and stamps, and its answer brings the regions that changed.
stamp
    A short mark of what a region was drawn from, carried in the pulse's URL: ``v`` the
    table's version, ``s`` the scoreboard's, ``p`` the seats', ``g`` the game the header
    names. A region whose stamp did
    not change is not drawn again.
region
    A part of a page drawn on its own and swapped in by its id (the round, the
    scoreboard, the seats).
moment
    What a game's screen shows at one version (a game flow's view): made once per
    version and shared by every screen (:mod:`.versions`).
version memo
    Values made from a table's facts at its latest version, kept per process and shared
    by every screen that asks (:mod:`.versions`).
commit record
    What a request's commit raised: the tables, and the database tables it wrote
    (:mod:`companion.store.commits`, where each change is noted).
change feed
    How a server hears that a table changed: this process's own commits at once, other
    processes' at once on PostgreSQL (``LISTEN``/``NOTIFY``), within half a second on
    SQLite (:mod:`.feed`, :class:`~.feed.ChangeFeed`).
event stream
    A screen's open ``GET /t/<code>/events`` (server-sent events): it says the table's
    version each time it changes (:mod:`.streams`; once called the doorbell, and a
    table's listeners its bell).
push
    An event stream bringing its page the pulse's answer itself, instead of only the
    news (:mod:`.push`). The page a change came from is its origin (once ``Maker``);
    what a stream needs to answer for its page is a :class:`~.push.PagePush` (once
    ``Pusher``); the table one answer loaded and its table's other streams start from is
    a :class:`~.push.SharedTable` (once ``Shared``).
front door
    Everything a request meets before Flask, in order: its body read whole, an unchanged
    poll answered (:mod:`.polls`), the gate, a refusal paused (server plumbing, beside
    this package: :mod:`companion.door`).
gate
    At most a few requests at work at once in a server process, changes first (a part
    of the front door: :class:`companion.door.Gate`).
request state
    What a request notes for its own later steps (the table in hand, a pushed answer,
    the lock held, the commit made, the rounds drawn): one
    :class:`~companion.request_state.RequestState`.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

PUBLIC = {
    "at_version": "versions", "locked": "versions",
    "request_state": "companion.request_state", "state_if_any": "companion.request_state",
    "RequestState": "companion.request_state",
    "ChangeFeed": "feed",
    "Hooks": "hooks",
}
"""The package's public names, by the module that makes them (the request's own state is
:mod:`companion.request_state`, below the store, which the database plumbing
:mod:`companion.transactions` reads too). They are imported when first asked for, so
that importing one module of the package does not bring the rest with it."""


def __getattr__(name: str) -> Any:
    module = PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    where = module if module.startswith("companion.") else f"{__name__}.{module}"
    return getattr(import_module(where), name)


__all__ = sorted(PUBLIC)
