"""Settings, read from the environment (each one in docs/configuration.md).

Every setting has a default that works on a laptop at a table with no set-up:
SQLite in the instance folder, a secret key made once and kept there, htmx
from the app's own copy on a LAN, and on a public host name from the pinned CDN
copy (with the app's own when the CDN is out of reach: ``companion.web.security``).

The front-end packages and their versions are named once, in the project's
``package.json``; the htmx version is read from there.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from limits import parse_many

PACKAGE_JSON = Path(__file__).resolve().parent.parent / "package.json"


def pinned_version(package: str, package_json: Path = PACKAGE_JSON) -> str:
    """The exact version of the npm ``package`` that ``package_json`` depends on."""
    return json.loads(package_json.read_text(encoding="utf-8"))["dependencies"][package]


HTMX_PACKAGE = "htmx.org"
HTMX_FILE = "dist/htmx.min.js"  # the file in the npm package, and so on the CDN
HTMX_URL = f"https://unpkg.com/{HTMX_PACKAGE}@{pinned_version(HTMX_PACKAGE)}/{HTMX_FILE}"
# The SHA-384 of that file: the CDN copy and the app's own (static/vendor/) must both match it.
HTMX_SRI = "sha384-2OatzQy1H+Zd/IIrjr1TcuDGqLXeHhbooAyJY1KdQMKnr4LZ22k31GBLdYKHmVjg"
HTMX_COPY = "vendor/htmx.min.js"  # the app's own copy of the same file, under static/
SECRET_KEY_FILE = "secret_key"
DEFAULT_STREAMS = 1000
"""Event streams a server process holds at most: 200 tables of five screens."""
DEFAULT_AT_ONCE = {"sqlite": 2, "postgresql": 1}
"""Requests a server process works on at once, by database: the faster of one and two in
``scripts/bench_load.py`` at 200 tables (``docs/performance.md``)."""
SQLITE_FILE = "companion.sqlite3"

# Inbound limits (each in the README's "Limits", with why).
BODY_LIMIT = 512 * 1024
"""Bytes a request's body may have: the largest record the API imports, with room to spare
(``COMPANION_MAX_BODY``)."""
BODY_SECONDS = 10.0
"""Seconds any request's body may take to arrive, a second more for every 16 KiB it has
(``COMPANION_BODY_SECONDS``; ``companion.door``)."""
STREAMS_PER_ADDRESS = 40
"""Event streams one address may hold open (``COMPANION_STREAMS_PER_ADDRESS``): four tables
of a tablet and nine phones behind one café's Wi-Fi; beyond, its screens poll every 2 s
(``companion.live.streams``)."""
NEW_TABLE_LIMIT = "10/minute;60/hour"
"""Tables one address may make (``COMPANION_NEW_TABLE_LIMIT``): a club's evening behind one
router starts a table or two a minute; each table costs a slow hash of its recovery code."""
OFFLINE_MOUNT = "/here/app"
"""Where the pages of a table on this device live (``companion.offline``): the app's root as
the tablet's browser sees it, under the page that runs it (``companion.web.here``)."""

IMPORT_LIMIT = "2/minute;20/hour"
"""Records one address may import (``COMPANION_IMPORT_LIMIT``; the API and the import page
together, only those taken counting): a backup put back or a move from another server, a few
at a time; a record at ``RECORD_ROUNDS`` holds the server for 40 to 150 taps' time."""
REFUSED_IMPORT_LIMIT = "10/minute;100/hour"
"""Records one address may have refused (``COMPANION_REFUSED_IMPORT_LIMIT``): a person
correcting a file tries again every few seconds at most, and at this pace the refusals cost
the server no more than the imports it takes (the costliest, a record at ``RECORD_ROUNDS``
refused at its last round, is a sixth of one taken: ``docs/security.md``)."""
HEAVY_PAGE_LIMIT = "20/minute;300/hour"
"""Heavy pages one address may ask for (``COMPANION_HEAVY_PAGE_LIMIT``): a game's page or
record, an evening's page, CSV or record, a table's evenings, each drawn from more than
``HEAVY_ROUNDS`` rounds (``companion.web.limits``). Two a minute for each device of a full
table behind one Wi-Fi, which opens such a page once and then follows it live; 30 in a
burst slowed the other tables' taps several times over on PostgreSQL
(``scripts/bench_hostile.py``, ``docs/performance.md``)."""
REFUSAL_PAUSE = 1.0
"""Seconds a request refused for a rate limit (or an event stream refused) waits for its
answer (``companion.door``); a setting of the same name changes it."""
HEAVY_ROUNDS = 50
"""From how many rounds a page counts as heavy: a longer game's page takes ten taps' time
and more (``scripts/bench_records.py``); the usual games (8 to 30 rounds) never count."""
RECORD_ROUNDS = 200
"""Rounds a record imported by the API may hold, a game's or an evening's games' together
(``COMPANION_RECORD_ROUNDS``): a whole night of the game with the most rounds (a hand
every two or three minutes), and every page of its table is then drawn in a fraction of
a second (``scripts/bench_records.py``)."""


def database_url(url: str | None, instance_path: str) -> str:
    """The SQLAlchemy URL to use: ``url`` with the psycopg driver, or SQLite in the instance.

    Hosts hand out ``postgres://`` and ``postgresql://`` URLs; SQLAlchemy needs
    the driver named.

    >>> database_url("postgres://u:p@db/x", "/i")
    'postgresql+psycopg://u:p@db/x'
    >>> database_url("postgresql://u@db/x", "/i")
    'postgresql+psycopg://u@db/x'
    >>> database_url("postgresql+psycopg://u@db/x", "/i")
    'postgresql+psycopg://u@db/x'
    >>> database_url("", "/srv/instance")
    'sqlite:////srv/instance/companion.sqlite3'
    """
    if not url:
        return f"sqlite:///{Path(instance_path) / SQLITE_FILE}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def database_kind(url: str) -> str:
    """``"sqlite"`` for a SQLite URL, else ``"postgresql"`` (the one server the app knows).

    >>> database_kind("sqlite:////srv/x.db"), database_kind("postgresql+psycopg://db/x")
    ('sqlite', 'postgresql')
    """
    return "sqlite" if url.startswith("sqlite") else "postgresql"


def engine_options(url: str) -> dict[str, Any]:
    """The database engine's options for ``url``: a server's pool keeps enough connections
    for the requests a worker serves at once, the one used last first (the others lie
    idle, and are pinged before they are used again: ``companion.transactions``); SQLite's
    file needs nothing.

    >>> engine_options("postgresql+psycopg://db/x")
    {'pool_size': 10, 'max_overflow': 20, 'pool_use_lifo': True}
    >>> engine_options("sqlite:////srv/instance/companion.sqlite3")
    {}
    """
    if database_kind(url) == "sqlite":
        return {}
    return {"pool_size": 10, "max_overflow": 20, "pool_use_lifo": True}


def event_streams(environ: Mapping[str, str]) -> int:
    """How many screens' event streams a server process holds open at most
    (``COMPANION_STREAMS``; see ``companion.live.streams``): each waits in a greenlet (or
    holds a thread, with gunicorn's gthread worker).

    >>> event_streams({}), event_streams({"COMPANION_STREAMS": "0"})
    (1000, 0)
    """
    return max(0, int(environ.get("COMPANION_STREAMS") or DEFAULT_STREAMS))


SHARED_STORAGE = ("redis://", "rediss://", "redis+sentinel://", "redis+cluster://")
"""Rate-limit storage that several processes share (``RATELIMIT_STORAGE_URI``)."""


def default_workers(environ: Mapping[str, str], cores: int) -> int:
    """How many worker processes a server runs when ``WEB_CONCURRENCY`` does not say: one
    per core when the setting allows it (the database on PostgreSQL, which every process
    reaches, and the rate limits in Redis, which every process counts in), else one
    (SQLite: the laptop's case; or limits counted in each process's memory).

    >>> default_workers({}, 4), default_workers({"DATABASE_URL": "postgres://db/x"}, 4)
    (1, 1)
    >>> default_workers({"DATABASE_URL": "postgres://db/x",
    ...                  "RATELIMIT_STORAGE_URI": "redis://r:6379"}, 4)
    4
    """
    url = environ.get("DATABASE_URL") or ""
    storage = environ.get("RATELIMIT_STORAGE_URI") or ""
    if url and database_kind(database_url(url, "")) == "postgresql" \
            and storage.startswith(SHARED_STORAGE):
        return max(1, cores)
    return 1


def requests_at_once(environ: Mapping[str, str], url: str = "sqlite://") -> int:
    """How many requests a server process works on at once (``COMPANION_REQUESTS_AT_ONCE``;
    0: no limit; by default :data:`DEFAULT_AT_ONCE` for the database at ``url``); the
    others wait their turn (see ``companion.door``).

    >>> requests_at_once({}), requests_at_once({"COMPANION_REQUESTS_AT_ONCE": "0"})
    (2, 0)
    >>> requests_at_once({}, "postgresql+psycopg://db/x")
    1
    """
    given = environ.get("COMPANION_REQUESTS_AT_ONCE")
    if given:
        return max(0, int(given))
    return DEFAULT_AT_ONCE[database_kind(url)]


def _positive(environ: Mapping[str, str], name: str, default: float, kind: type = int):
    """The setting ``name`` as a positive number of ``kind`` (``default`` when not set).

    >>> _positive({"X": "20"}, "X", 5), _positive({}, "X", 5)
    (20, 5)
    >>> _positive({"X": "2.5"}, "X", 1.0, float)
    2.5
    >>> _positive({"X": "lots"}, "X", 5)
    Traceback (most recent call last):
    ...
    ValueError: X must be a positive whole number, not 'lots'
    """
    given = environ.get(name)
    if not given:
        return default
    try:
        value = kind(given)
    except ValueError:
        value = 0
    if value <= 0:
        what = "whole number" if kind is int else "number"
        raise ValueError(f"{name} must be a positive {what}, not {given[:20]!r}")
    return value


def _rate(environ: Mapping[str, str], name: str, default: str) -> str:
    """The rate limit ``name`` (``"10/minute;60/hour"``; ``default`` when not set), checked.

    >>> _rate({"X": "5/minute"}, "X", "1/hour"), _rate({}, "X", "1/hour")
    ('5/minute', '1/hour')
    >>> _rate({"X": "lots"}, "X", "1/hour")
    Traceback (most recent call last):
    ...
    ValueError: X must be rate limits such as '10/minute;60/hour', not 'lots'
    """
    given = environ.get(name) or default
    try:
        parse_many(given)
    except ValueError:
        raise ValueError(f"{name} must be rate limits such as '10/minute;60/hour', not "
                         f"{given[:40]!r}") from None
    return given


def secret_key(instance_path: str) -> str:
    """The key that signs cookies: made once and kept in the instance folder.

    Kept on disk so that seats and scorekeeper keys survive a restart.
    """
    path = Path(instance_path) / SECRET_KEY_FILE
    if path.is_file():
        key = path.read_text(encoding="utf-8").strip()
        if key:
            return key
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    # Created readable by the owner only: the key can forge any seat.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(key + "\n")
    return key


def htmx_fallback(url: str, sri: str) -> str | None:
    """The app's own copy (under static/) that stands in when ``url`` does not load.

    Only the pinned CDN file under its pinned hash has one: a copy set with
    ``COMPANION_HTMX_URL`` is the only one used.

    >>> htmx_fallback(HTMX_URL, HTMX_SRI)
    'vendor/htmx.min.js'
    >>> htmx_fallback("/static/my-htmx.js", "") is None
    True
    """
    return HTMX_COPY if (url, sri) == (HTMX_URL, HTMX_SRI) else None


def from_environment(instance_path: str, environ: Mapping[str, str] | None = None,
                     ) -> dict[str, Any]:
    """All settings, from ``environ`` (default: the process environment).

    >>> settings = from_environment("/srv/i", {"COMPANION_HTMX_URL": "/static/htmx.js",
    ...                                        "DATABASE_URL": "postgres://db/x"})
    >>> settings["HTMX_URL"], settings["HTMX_SRI"], settings["SQLALCHEMY_DATABASE_URI"]
    ('/static/htmx.js', '', 'postgresql+psycopg://db/x')
    """
    env = os.environ if environ is None else environ
    htmx_url = env.get("COMPANION_HTMX_URL") or HTMX_URL
    # The pinned hash only fits the pinned file; another copy gets none unless given.
    default_sri = HTMX_SRI if htmx_url == HTMX_URL else ""
    url = database_url(env.get("DATABASE_URL"), instance_path)
    return {
        # None here: create_app makes (or reads) the instance key only if nothing sets one.
        "SECRET_KEY": env.get("SECRET_KEY") or None,
        "SQLALCHEMY_DATABASE_URI": url,
        "PUBLIC_URL": (env.get("COMPANION_PUBLIC_URL") or "").rstrip("/"),
        "HTMX_URL": htmx_url,
        "HTMX_SRI": env.get("COMPANION_HTMX_SRI", default_sri),
        "RATELIMIT_STORAGE_URI": env.get("RATELIMIT_STORAGE_URI") or "memory://",
        "PROXY_FIX": env.get("COMPANION_PROXY_FIX", "") == "1",
        # Where the private keys of open sealings live: memory (None) or a Redis that keeps
        # nothing on disk (see store.sealing_keys).
        "SEALING_STORE": env.get("COMPANION_SEALING_STORE") or None,
        # No longer used (each sealing has a key pair of its own): create_app says so.
        "BALLOT_KEY": env.get("COMPANION_BALLOT_KEY") or None,
        # How a process hears of other processes' changes (None: by the database's kind;
        # companion.live.feed).
        "CHANGE_FEED": env.get("COMPANION_CHANGE_FEED") or None,
        "EVENT_STREAMS": event_streams(env),
        "REQUESTS_AT_ONCE": requests_at_once(env, url),
        "MAX_CONTENT_LENGTH": _positive(env, "COMPANION_MAX_BODY", BODY_LIMIT),
        "BODY_SECONDS": _positive(env, "COMPANION_BODY_SECONDS", BODY_SECONDS, float),
        "RECORD_ROUNDS": _positive(env, "COMPANION_RECORD_ROUNDS", RECORD_ROUNDS),
        "STREAMS_PER_ADDRESS": _positive(env, "COMPANION_STREAMS_PER_ADDRESS",
                                         STREAMS_PER_ADDRESS),
        "NEW_TABLE_LIMIT": _rate(env, "COMPANION_NEW_TABLE_LIMIT", NEW_TABLE_LIMIT),
        "API_LIMIT": _rate(env, "COMPANION_IMPORT_LIMIT", IMPORT_LIMIT),
        "REFUSED_IMPORT_LIMIT": _rate(env, "COMPANION_REFUSED_IMPORT_LIMIT",
                                      REFUSED_IMPORT_LIMIT),
        "HEAVY_PAGE_LIMIT": _rate(env, "COMPANION_HEAVY_PAGE_LIMIT", HEAVY_PAGE_LIMIT),
        # A table on this device (``COMPANION_OFFLINE=1``): the app in the tablet's browser.
        "OFFLINE": env.get("COMPANION_OFFLINE", "") == "1",
    }


OFFLINE_SETTINGS: dict[str, Any] = {
    # One device, no network: nobody to limit, nothing to compress for a Wi-Fi.
    "RATELIMIT_ENABLED": False,
    # No event streams (one screen: its own taps bring what changed), no gate (the browser's
    # Python answers one request at a time), no thread anywhere (Pyodide runs none).
    "EVENT_STREAMS": 0,
    "REQUESTS_AT_ONCE": 0,
}
"""What ``OFFLINE`` sets on top of the other settings (``create_app``): a table on this device,
the whole app in the tablet's browser on Pyodide (``companion.offline``, issue 42)."""


DEFAULTS: dict[str, Any] = {
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_NAME": "companion",
    # A seat must outlive a closed tab and a night's sleep of the phone.
    "PERMANENT_SESSION_LIFETIME": timedelta(days=30),
    # The cookie is sent again only when it changes, not with every poll of every screen.
    "SESSION_REFRESH_EACH_REQUEST": False,
    # The tablet keeps one page open for a whole evening; its token must not expire.
    "WTF_CSRF_TIME_LIMIT": None,
    "RATELIMIT_HEADERS_ENABLED": False,
    # Said, not left to the limiter, which keeps the last app's choice (an OFFLINE one's).
    "RATELIMIT_ENABLED": True,
    # Pages and regions gzipped for the phones' Wi-Fi, small regions left as they are: gzip
    # (in the standard library) only, so no other compressor needs installing.
    "COMPRESS_ALGORITHM": ["gzip"],
    "COMPRESS_ALGORITHM_STREAMING": ["gzip"],
    "COMPRESS_MIN_SIZE": 2048,
    # The fastest level (about half the time of level 6, a few per cent larger): every
    # changed poll of every screen is compressed on the server's one core.
    "COMPRESS_LEVEL": 1,
    # Wrong codes only (a right one never counts), per address: a table of eight phones on
    # one café Wi-Fi with a few typos each stays far below; guessing one of 28**8 codes
    # at 1,000 a day is hopeless (see the README).
    "WRONG_CODE_LIMIT": "30/minute;300/hour;1000/day",
    # The other inbound limits are settings (``from_environment``); see the README's "Limits".
    "HEAVY_ROUNDS": HEAVY_ROUNDS,
}
