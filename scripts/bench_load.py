"""Load on the app as the Procfile starts it: many tables' screens polling, and writes.

Starts the companion under gunicorn exactly as the Procfile does (``flask db
upgrade``, then ``gunicorn -c gunicorn.conf.py 'companion:create_app()'``) on
127.0.0.1 and a free port, against a temporary SQLite file or against
PostgreSQL (``--database``; its ``public`` schema is dropped and made again
first). Tables are made through the app's own pages, as people would: the
scorekeeper's form (``POST /new``, Tromplemond, four named players), four
phones taking their seats from the join page, the scorekeeper starting the
game, each with its own session cookie and CSRF token.

A driver (this process, pinned to another core than the server) then plays
every table's five screens (the tablet and four phones) as ``static/app/`` (sync-page.js)
and htmx do: each screen keeps its table's event stream open (with its page's
id and pulse, so that the stream brings the answers: ``--versions-only``, the
stream says the versions only and the screen polls for each change; ``--polling``,
no stream and a poll every 2 s) and one keep-alive connection for its polls
(``#pulse``, ``HX-Request: true``), following the pulse URL that an answer
brings; each table's scorekeeper ticks a checklist step about every 10 s (the
same step, so it toggles forever), which every screen of the table then picks
up (the tablet from its tap's answer, which brings its new pulse: sync-page.js sends a
tap with what its page shows). It does so for a ladder of table counts up to
``--tables``, ``--seconds`` each after a warm-up (the screens wait while the
next rung's tables are being made, and nobody writes until the new screens'
streams are open: a thousand streams opening at once are seconds of the
server's work, a restart's, not a steady evening's), and prints the latencies (polls and writes
apart), the answers the streams brought ("pushed"), counts, errors, the
server's CPU and each worker's memory. A ceiling is measured in the same run:
the most requests a second 16 keep-alive connections get from a bare Flask
hello-world under the same
gunicorn settings, from an unchanged poll (204) and from a changed poll.

With ``--servers N`` (PostgreSQL only) it starts N gunicorn servers on the one database
(each pinned to a core of its own where there are enough, the driver on another; on a
machine with fewer cores than servers and driver, the driver shares them), makes each
table through one of them, and spreads each table's screens over the servers: the
tablet, which writes, and every other phone on the table's own server, the other
phones on the next one, so that their pushes must cross from one server to the other
(``CHANGE_FEED``: PostgreSQL's notifications). The servers share the sealing keys and
the rate limits in Redis (``--redis``), as several hosts must. It prints "seen" split
into same-server and cross-server screens, and each server's CPU. ``--workers N`` runs N
workers in each server (default 1; with more than one the rate limits are in Redis).

It prints figures and asserts nothing. The last line is the summary (``p95_ms``: the
larger of the polls' and the writes' p95 at the most tables; ``poll_ratio``: an unchanged
poll's requests a second over bare Flask's)::

    bench_load: tables=200 p95_ms=18.4 errors=0 poll_ratio=0.61 db=sqlite

Run it from the project's folder::

    .venv/bin/python scripts/bench_load.py --tables 200 --seconds 30
    .venv/bin/python scripts/bench_load.py --database postgresql+psycopg://postgres@127.0.0.1:5432/bench
    .venv/bin/python scripts/bench_load.py --servers 2 --database postgresql+psycopg://postgres@127.0.0.1:5432/bench
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import html
import json
import math
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
LADDER = (1, 10, 25, 50, 100, 200)
POLL_EVERY = 2.0  # static/app/sync.js: TICK_MS
WRITE_EVERY = 10.0
WARM_UP = 4.0
REQUEST_TIMEOUT = 30.0
CREATING_AT_ONCE = 8  # tables being made at the same time
CEILING_CONNECTIONS = 16
SERVER_CORE, DRIVER_CORE = 0, 1
START_TIMEOUT = 60.0
PLAYERS = ("Rob", "Sam", "Nick", "Emily")
OPTIONS = {"unit": "GBP", "joining_fee": "2.50", "payout_winner": "75",
           "payout_runner_up": "25", "tromp_stake": "0.50", "rounds": "8", "target": "200"}
WRITE_STEP = "deck:0"  # round 1's deck checklist: a tick toggles it, so it repeats forever
TAP_KEYS = ["yes"]
"""Whether a write carries a tap key, as static/app/taps-page.js sends one (--tap-keys): "yes",
"no", or "ab" (every other write of each table: the two kinds measured apart in the same run)."""

PULSE = re.compile(r'<div id="pulse"[^>]*?\shx-get="([^"]+)"')
EVENTS = re.compile(r'<div id="pulse"[^>]*?\sdata-events="([^"]+)"')
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"|"X-CSRFToken": "([^"]+)"')
VERSION = re.compile(r"([?&]v=)(\d+)")
LOGGED_ERROR = re.compile(r"[A-Za-z_][\w.]*(Error|Exception)\b")  # a traceback's last line

HELLO_APP = '''\
from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello():
    return "Hello, World!"
'''

HELLO_CONF = '''\
"""The project's gunicorn.conf.py, but for a hello-world app without a database."""
import runpy

globals().update({{name: value for name, value in runpy.run_path({conf!r}).items()
                  if not name.startswith("_") and name != "post_fork"}})
'''


# --------------------------------------------------------------------------- HTTP client


class StaleConnection(ConnectionError):
    """The server had closed a kept-alive connection before the request: nothing came back."""


@dataclass
class Response:
    """One HTTP answer: the status, its headers (names in lower case) and the body."""

    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        """The body as text."""
        return self.body.decode("utf-8", "replace")


class Connection:
    """One keep-alive HTTP/1.1 connection to 127.0.0.1, with a browser's cookie jar.

    Minimal on purpose (the driver must serve a thousand screens on one core):
    a request line and headers, then the status, the headers and a body read by
    Content-Length (or chunks, or to the end when the server closes).
    """

    def __init__(self, port: int, cookies: dict[str, str]) -> None:
        self.port = port
        self.cookies = cookies
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, target: str, headers: dict[str, str] | None = None,
                      body: bytes = b"") -> Response:
        """Send one request and read its whole answer; reconnect once if the server had
        closed the kept-alive connection (as browsers do)."""
        for attempt in range(2):
            reused = self.writer is not None
            if not reused:
                self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
            try:
                self.writer.write(self._head(method, target, headers or {}, body) + body)
                return await self._answer(method)
            except (StaleConnection, ConnectionResetError, BrokenPipeError):
                self.close()
                if not reused or attempt:
                    raise
            except BaseException:
                self.close()
                raise
        raise AssertionError("unreachable")

    def _head(self, method: str, target: str, headers: dict[str, str], body: bytes) -> bytes:
        lines = [f"{method} {target} HTTP/1.1", f"Host: {HOST}:{self.port}",
                 "Accept-Encoding: gzip"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if body or method == "POST":
            lines += ["Content-Type: application/x-www-form-urlencoded",
                      f"Content-Length: {len(body)}"]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def _answer(self, method: str) -> Response:
        reader = self.reader
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as error:
            if not error.partial:
                raise StaleConnection("closed before the answer") from None
            raise
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(None, 2)[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            if not line:
                continue
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                self._keep_cookie(value)
            headers[name] = value
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            body = b""
        elif "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            body = await self._chunks()
        else:
            body = await reader.read()
            headers["connection"] = "close"
        if headers.get("connection", "").lower() == "close":
            self.close()
        if headers.get("content-encoding") == "gzip":
            body = zlib.decompress(body, 16 + zlib.MAX_WBITS)
        return Response(status, headers, body)

    async def _chunks(self) -> bytes:
        parts = []
        while True:
            size = int((await self.reader.readline()).split(b";")[0], 16)
            if size == 0:
                while (await self.reader.readline()) not in (b"\r\n", b""):
                    pass
                return b"".join(parts)
            parts.append((await self.reader.readexactly(size + 2))[:-2])

    async def events(self, target: str, opened: Callable[[], None] = lambda: None,
                     ) -> AsyncIterator[int | tuple[str, str]]:
        """Open an event stream (as EventSource does) and yield each version it says, or
        each pulse answer it brings (the pulse URL it answers, the answer); ends when the
        server ends the stream (a 204: it holds no more streams). ``opened`` is called
        once the server has answered with the stream."""
        self.close()
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        self.writer.write(self._head("GET", target, {"Accept": "text/event-stream"}, b""))
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(None, 2)[1])
        chunked = any(line.lower().startswith("transfer-encoding:") and "chunked" in
                      line.lower() for line in lines)
        if status != 200:
            self.close()
            if status == 204:
                return
            raise ConnectionError(f"event stream: {status}")
        opened()
        pending = b""
        while True:
            if chunked:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                if size == 0:
                    break
                pending += (await self.reader.readexactly(size + 2))[:-2]
            else:
                data = await self.reader.read(4096)
                if not data:
                    break
                pending += data
            while b"\n\n" in pending:
                message, pending = pending.split(b"\n\n", 1)
                lines = message.decode().split("\n")
                data = [line[6:] if line.startswith("data: ") else line[5:]
                        for line in lines if line.startswith("data:")]
                if "event: pulse" in lines:
                    yield data[0], "\n".join(data[1:])
                elif data and data[0].strip().isdigit():
                    yield int(data[0])
        self.close()

    def _keep_cookie(self, header: str) -> None:
        pair, _, attributes = header.partition(";")
        name, _, value = pair.strip().partition("=")
        if not value or "max-age=0" in attributes.lower().replace(" ", ""):
            self.cookies.pop(name, None)
        else:
            self.cookies[name] = value

    def close(self) -> None:
        """Close the connection (the next request opens a new one)."""
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def csrf_of(response: Response) -> str:
    """The CSRF token a page gives its client (as its forms and htmx send it)."""
    match = CSRF.search(response.text)
    if match is None:
        raise RuntimeError(f"no CSRF token in a {response.status} answer")
    return html.unescape(match.group(1) or match.group(2))


def pulse_of(text: str) -> str | None:
    """The URL the page's #pulse element polls (its hx-get), or None."""
    match = PULSE.search(text)
    return html.unescape(match.group(1)) if match else None


def expect(response: Response, status: int, what: str) -> Response:
    """``response``, or stop the benchmark: making the tables must work."""
    if response.status != status:
        raise RuntimeError(f"{what}: {response.status} (wanted {status}): "
                           f"{response.text[:300]!r}")
    return response


# --------------------------------------------------------------------------- measuring


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (``share`` from 0 to 1); NaN when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


@dataclass
class Stats:
    """What the screens saw while recording: latencies (ms), statuses and errors."""

    recording: bool = False
    polls: list[float] = field(default_factory=list)
    writes: list[float] = field(default_factory=list)
    updates: list[float] = field(default_factory=list)
    """From a write's answer to another screen showing it (ms), each screen and write."""
    same: list[float] = field(default_factory=list)
    """The same, for the screens on the server of the write (``--servers``) ..."""
    crossed: list[float] = field(default_factory=list)
    """... and for those on another server."""
    pushes: int = 0
    """Pulse answers the streams brought (each one a poll not made)."""
    keyed: list[float] = field(default_factory=list)
    """With ``--tap-keys ab``: the writes that carried a tap key (ms) ..."""
    unkeyed: list[float] = field(default_factory=list)
    """... and those that did not."""
    statuses: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    unrecorded: Counter = field(default_factory=Counter)
    """Errors outside the measured windows (warm-ups, the ends of rungs)."""

    def reset(self, recording: bool) -> None:
        """Forget everything and start (or stop) recording."""
        self.recording = recording
        self.polls, self.writes, self.updates, self.pushes = [], [], [], 0
        self.same, self.crossed = [], []
        self.keyed, self.unkeyed = [], []
        self.statuses, self.errors = Counter(), Counter()

    def ok(self, kind: str, milliseconds: float, status: int) -> None:
        """A request that did what it should."""
        if self.recording:
            (self.polls if kind == "poll" else self.writes).append(milliseconds)
            self.statuses[f"{kind} {status}"] += 1

    def pushed(self) -> None:
        """A screen took the answer its stream brought."""
        if self.recording:
            self.pushes += 1

    def updated(self, milliseconds: float, crossed: bool = False) -> None:
        """A screen shows a write, ``milliseconds`` after the write's answer (``crossed``:
        the screen is on another server than the write)."""
        if self.recording:
            self.updates.append(milliseconds)
            (self.crossed if crossed else self.same).append(milliseconds)

    def error(self, kind: str, what: str) -> None:
        """A request that failed (a bad status, a timeout, a closed connection …)."""
        (self.errors if self.recording else self.unrecorded)[f"{kind} {what}"] += 1


def process_ids(master: int) -> list[int]:
    """gunicorn's master and its workers (the master's children)."""
    pids = [master]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == master:
                pids.append(int(entry))
    return pids


def cpu_ticks(pids: list[int]) -> int:
    """User and system clock ticks used so far by ``pids``."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
    return total


def rss_mb(pid: int) -> float:
    """A process's resident memory in MB."""
    try:
        pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    except OSError:
        return math.nan
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def core_ticks() -> dict[int, tuple[int, int]]:
    """Each core's busy and total clock ticks so far (from /proc/stat)."""
    cores = {}
    for line in Path("/proc/stat").read_text().splitlines():
        name, *values = line.split()
        if name.startswith("cpu") and name[3:].isdigit():
            ticks = [int(v) for v in values[:8]]
            cores[int(name[3:])] = (sum(ticks) - ticks[3] - ticks[4], sum(ticks))
    return cores


class CpuMeter:
    """CPU % of gunicorn's master and workers (and of this driver) over an interval, and
    how busy each core was (with everything else running on the machine)."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.pids = process_ids(master)
        self.ticks = cpu_ticks(self.pids)
        self.cores = core_ticks()
        self.driver = time.process_time()
        self.started = time.monotonic()

    def read(self) -> tuple[float, float]:
        """Server CPU % (100 = one core) and driver CPU % since the meter was made."""
        elapsed = time.monotonic() - self.started
        server = (cpu_ticks(self.pids) - self.ticks) / os.sysconf("SC_CLK_TCK")
        driver = time.process_time() - self.driver
        return 100 * server / elapsed, 100 * driver / elapsed

    def busy(self) -> str:
        """How busy the server's and the driver's cores were, in %, by anything."""
        now = core_ticks()
        shares = []
        for core in (SERVER_CORE, DRIVER_CORE):
            if core in now and core in self.cores:
                busy = now[core][0] - self.cores[core][0]
                total = now[core][1] - self.cores[core][1]
                shares.append(f"{100 * busy / total:.0f}" if total else "?")
        return "/".join(shares) or "?"


# --------------------------------------------------------------------------- the tables


@dataclass
class Screen:
    """One screen at a table (the tablet or a phone): its connection, its pulse URL, and its
    table's event stream."""

    connection: Connection
    pulse: str
    referer: str
    events: str
    written: dict[int, float] = field(default_factory=dict)
    """The table's writes: when each version's write was answered (shared by its screens)."""
    page: str = field(default_factory=lambda: secrets.token_hex(8))
    """The page's id, as sync-page.js makes one (its stream and its taps say it)."""
    push: bool = True
    """Whether its stream is opened with its pulse (so it brings the answers)."""
    crossed: bool = False
    """Whether it is on another server than its table's writes (``--servers``)."""

    @property
    def version(self) -> int:
        """The table's version this screen shows."""
        return int(VERSION.search(self.pulse).group(2))

    async def poll(self, stats: Stats) -> None:
        """One pulse poll, as htmx sends it; follow the new pulse of a changed answer."""
        started = time.perf_counter()
        try:
            response = await asyncio.wait_for(self.connection.request(
                "GET", self.pulse, {"HX-Request": "true", "HX-Trigger": "pulse",
                                    "HX-Current-URL": self.referer}), REQUEST_TIMEOUT)
        except (TimeoutError, OSError, EOFError, ValueError) as error:
            self.connection.close()
            stats.error("poll", type(error).__name__)
            return
        milliseconds = (time.perf_counter() - started) * 1000
        if response.status == 200:
            if not self.shows(response.text):
                stats.error("poll", "200 without a pulse")
                return
            self.seen(stats)
        elif response.status != 204:
            stats.error("poll", str(response.status))
            return
        stats.ok("poll", milliseconds, response.status)

    def shows(self, answer: str) -> bool:
        """Take a pulse answer's new pulse (False: the answer has none)."""
        pulse = pulse_of(answer)
        if pulse is not None:
            self.pulse = pulse
        return pulse is not None

    def seen(self, stats: Stats) -> None:
        """The screen shows its version now: how long after the write's answer."""
        written = self.written.get(self.version)
        if written is not None:
            stats.updated((time.perf_counter() - written) * 1000, self.crossed)

    async def follow(self, stats: Stats, gate: Gate, deadline: float) -> None:
        """As sync-page.js does: keep the table's event stream open (with the page's id and pulse,
        so that it brings the answers), take an answer it brings when it answers the pulse
        shown, and poll the pulse when the version it says is not the one shown (never
        while nothing changed)."""
        loop = asyncio.get_running_loop()
        stream = Connection(self.connection.port, self.connection.cookies)
        try:
            while not gate.stopped and loop.time() < deadline:
                target = self.events
                if self.push:
                    target += f"?page={self.page}&pulse={quote(self.pulse, safe='')}"
                try:
                    async for said in stream.events(target, gate.stream_opened):
                        if gate.stopped:
                            return
                        if isinstance(said, tuple):
                            answers, answer = said
                            if answers == self.pulse and self.shows(answer):
                                stats.pushed()
                                self.seen(stats)
                                continue
                            found = VERSION.search(pulse_of(answer) or "")
                            version = int(found.group(2)) if found else self.version + 1
                        else:
                            version = said
                        if version != self.version:
                            await gate.wait(0.0, POLL_EVERY)
                            gate.busy += 1
                            try:
                                await self.poll(stats)
                            finally:
                                gate.busy -= 1
                    stats.error("stream", "ended or refused")
                except (OSError, EOFError, ValueError, asyncio.IncompleteReadError) as error:
                    stats.error("stream", type(error).__name__)
                await asyncio.sleep(2.0)  # the browser's retry
        finally:
            stream.close()


@dataclass
class Table:
    """A table made through the pages: its code, five screens, the scorekeeper's writes."""

    code: str
    index: int
    screens: list[Screen]
    writer: Connection
    token: str
    writes: int = 0

    async def write(self, stats: Stats) -> None:
        """The scorekeeper ticks the deck step on the tablet (htmx): it toggles each time.

        As sync-page.js does, the tap says what the tablet's page shows (its pulse), and the
        tablet follows the new pulse its answer brings (so it does not poll for its own tap).
        As taps-page.js does, it carries a key of its own (the server keeps it with the change).
        It sends the checklist's old form, ``step=`` (which a page drawn before the ticks said
        their state still sends): it turns the tick over, so every write is a change.
        """
        tablet = self.screens[0]
        body = urlencode({"csrf_token": self.token, "round": "1",
                          "step": WRITE_STEP}).encode()
        headers = {"HX-Request": "true", "X-CSRFToken": self.token,
                   "X-Companion-Pulse": tablet.pulse, "X-Companion-Page": tablet.page,
                   "HX-Current-URL": f"http://{HOST}/t/{self.code}"}
        keyed = TAP_KEYS[0] == "yes" or (TAP_KEYS[0] == "ab" and self.writes % 2 == 0)
        if keyed:
            headers["X-Companion-Tap"] = secrets.token_hex(16)
        started = time.perf_counter()
        try:
            response = await asyncio.wait_for(self.writer.request(
                "POST", f"/t/{self.code}/games/1/tick", headers, body), REQUEST_TIMEOUT)
        except (TimeoutError, OSError, EOFError, ValueError) as error:
            self.writer.close()
            stats.error("write", type(error).__name__)
            return
        milliseconds = (time.perf_counter() - started) * 1000
        self.writes += 1
        if 200 <= response.status < 400:
            stats.ok("write", milliseconds, response.status)
            if TAP_KEYS[0] == "ab":
                (stats.keyed if keyed else stats.unkeyed).append(milliseconds)
            tablet.pulse = pulse_of(response.text) or tablet.pulse
            tablet.written[tablet.version] = time.perf_counter()
        else:
            stats.error("write", str(response.status))


async def make_table(ports: list[int], index: int) -> Table:
    """Make one table as people do: the form, four phones joining, the game started; on
    the table's own server (of ``ports``), its screens then spread over the servers (every
    other one on the next server: :func:`spread`)."""
    port = ports[index % len(ports)]
    cookies: dict[str, str] = {}
    keeper = Connection(port, cookies)
    form = expect(await keeper.request("GET", "/new"), 200, "the new-table form")
    token = csrf_of(form)
    made = expect(await keeper.request("POST", "/new", body=urlencode({
        "csrf_token": token, "name": f"Bench {index + 1}", "game": "tromplemond",
        "seats": "4", "player": PLAYERS, "dealer": "1"}, doseq=True).encode()),
        303, "making a table")
    code = urlsplit(made.headers["location"]).path.rstrip("/").rsplit("/", 1)[-1]
    phones = []
    for position in range(1, len(PLAYERS) + 1):
        phone = Connection(port, {})
        join = expect(await phone.request("GET", f"/j/{code}"), 200, "the join page")
        expect(await phone.request("POST", f"/j/{code}/claim", body=urlencode({
            "csrf_token": csrf_of(join), "seat": str(position)}).encode()),
            303, "taking a seat")
        phones.append(phone)
    start = expect(await keeper.request("GET", f"/t/{code}/start"), 200, "the start page")
    token = csrf_of(start)
    expect(await keeper.request("POST", f"/t/{code}/start", body=urlencode(
        {"csrf_token": token, **OPTIONS}).encode()), 303, "starting the game")
    screens: list[Screen] = []
    written: dict[int, float] = {}
    for connection, page in [(keeper, f"/t/{code}")] + [(p, f"/t/{code}/seat") for p in phones]:
        answer = expect(await connection.request("GET", page), 200, "a screen's page")
        pulse, events = pulse_of(answer.text), EVENTS.search(answer.text)
        if pulse is None or events is None:
            raise RuntimeError(f"no #pulse with its events on {page}")
        screens.append(Screen(connection, pulse, f"http://{HOST}:{port}{page}",
                              html.unescape(events.group(1)), written))
    spread(screens, ports, index)
    return Table(code, index, screens, Connection(port, cookies), token)


def spread(screens: list[Screen], ports: list[int], index: int) -> None:
    """Move table ``index``'s screens over the servers: screen j (0: the tablet, which
    writes) to the server after the table's own by j, so that with two servers the tablet
    and two phones are on the table's server and two phones on the other."""
    home = index % len(ports)
    for j, screen in enumerate(screens):
        port = ports[(home + j) % len(ports)]
        if port != screen.connection.port:
            screen.connection.close()
            screen.connection = Connection(port, screen.connection.cookies)
            screen.crossed = True


CREATION_FAILURES = 10


async def make_tables(ports: list[int], tables: list[Table], count: int) -> int:
    """Make tables until there are ``count`` (a few at a time); returns how many attempts
    failed (each printed, and another table made instead; at most ``CREATION_FAILURES``)."""
    limit = asyncio.Semaphore(CREATING_AT_ONCE)
    failures = 0

    async def one(index: int) -> Table:
        async with limit:
            return await asyncio.wait_for(make_table(ports, index), 10 * REQUEST_TIMEOUT)

    while len(tables) < count:
        made = await asyncio.gather(*(one(i) for i in range(len(tables), count)),
                                    return_exceptions=True)
        for result in made:
            if isinstance(result, Table):
                result.index = len(tables)
                tables.append(result)
            elif isinstance(result, Exception):
                failures += 1
                print(f"  making a table failed: {type(result).__name__}: "
                      f"{str(result)[:200]}", flush=True)
                if failures > CREATION_FAILURES:
                    raise RuntimeError("too many tables could not be made") from result
            else:
                raise result
    return failures


class Gate:
    """Lets the screens and the writers run, or holds them while tables are being made (so
    that making them is not slowed by the traffic, nor the traffic measured meanwhile)."""

    def __init__(self) -> None:
        self.open = asyncio.Event()
        self.open.set()
        self.stopped = False
        self.busy = 0  # requests in flight
        self.streams = 0  # event streams the server has opened (re-openings count again)

    async def wait(self, origin: float, period: float) -> float | None:
        """Wait while held; the next tick in the loop's own rhythm after a hold, or None
        when not held (None also when stopped: see ``stopped``)."""
        if self.open.is_set():
            return None
        await self.open.wait()
        now = asyncio.get_running_loop().time()
        return origin + (math.floor((now - origin) / period) + 1) * period

    async def hold(self, limit: float) -> None:
        """Hold every loop, and wait (at most ``limit`` s) for the requests in flight."""
        self.open.clear()
        loop = asyncio.get_running_loop()
        until = loop.time() + limit
        while self.busy and loop.time() < until:
            await asyncio.sleep(0.05)

    def stream_opened(self) -> None:
        """Count a stream the server opened."""
        self.streams += 1

    async def streams_open(self, count: int, limit: float) -> None:
        """Wait (at most ``limit`` s) until ``count`` streams have been opened."""
        loop = asyncio.get_running_loop()
        until = loop.time() + limit
        while self.streams < count and loop.time() < until:
            await asyncio.sleep(0.05)

    def release(self) -> None:
        """Let the loops run again."""
        self.open.set()

    def stop(self) -> None:
        """End every loop (at its next turn)."""
        self.stopped = True
        self.open.set()


async def paced(gate: Gate, origin: float, period: float, deadline: float,
                send: Callable[[], Awaitable[None]], queue_last: bool) -> None:
    """Call ``send`` at ``origin + k * period`` until stopped (or the deadline).

    With ``queue_last``, as sync-page.js and htmx poll: a tick that comes while a request is in
    flight sends one as soon as it is back (hx-trigger's default queue, "last"); the others
    are dropped. Without, the next one waits for its own tick.
    """
    loop = asyncio.get_running_loop()
    tick = origin
    while not gate.stopped and loop.time() < deadline:
        delay = tick - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        resumed = await gate.wait(origin, period)
        if gate.stopped:
            break
        if resumed is not None:
            tick = resumed
            continue
        sent = loop.time()
        gate.busy += 1
        try:
            await send()
        finally:
            gate.busy -= 1
        tick = origin + (math.floor((sent - origin) / period) + 1) * period
        if not queue_last:
            tick = max(tick, loop.time())


def start_table(table: Table, stats: Stats, gate: Gate, deadline: float,
                polling: bool) -> list[asyncio.Task]:
    """Set a table's five screens following it (their event streams, or polling every 2 s)
    and its scorekeeper writing, staggered."""
    loop = asyncio.get_running_loop()
    spread = random.Random(table.index)
    now = loop.time()
    if polling:
        tasks = [asyncio.create_task(paced(
            gate, now + spread.uniform(0, POLL_EVERY), POLL_EVERY, deadline,
            functools.partial(screen.poll, stats), queue_last=True))
            for screen in table.screens]
    else:
        tasks = [asyncio.create_task(screen.follow(stats, gate, deadline))
                 for screen in table.screens]
    tasks.append(asyncio.create_task(paced(
        gate, now + spread.uniform(0, WRITE_EVERY), WRITE_EVERY, deadline,
        functools.partial(table.write, stats), queue_last=False)))
    return tasks


# --------------------------------------------------------------------------- the ceiling


async def closed_loop(port: int, target: str, cookies: dict[str, str], seconds: float,
                      want: int) -> tuple[float, int]:
    """Requests a second that ``CEILING_CONNECTIONS`` keep-alive connections get, each
    sending its next request as soon as the last is back; and how many failed."""
    loop = asyncio.get_running_loop()
    done = Counter()
    headers = {"HX-Request": "true"}

    async def one(connection: Connection, until: float, counting: bool) -> None:
        while loop.time() < until:
            try:
                response = await asyncio.wait_for(
                    connection.request("GET", target, headers), REQUEST_TIMEOUT)
                ok = response.status == want
            except (TimeoutError, OSError, EOFError, ValueError):
                connection.close()
                ok = False
            if counting:
                done["ok" if ok else "failed"] += 1

    connections = [Connection(port, dict(cookies)) for _ in range(CEILING_CONNECTIONS)]
    await asyncio.gather(*(one(c, loop.time() + 1.0, False) for c in connections))  # warm-up
    started = loop.time()
    await asyncio.gather(*(one(c, started + seconds, True) for c in connections))
    elapsed = loop.time() - started
    for connection in connections:
        connection.close()
    return (done["ok"] + done["failed"]) / elapsed, done["failed"]


CEILING_ROUNDS = 2


async def measure_ceiling(seconds: float, hello_port: int, hello_pid: int, app_port: int,
                          master: int, phone: Screen) -> dict[str, float]:
    """The ceiling: (a) the bare hello, (b) an unchanged poll, (c) a changed poll, in turn,
    ``CEILING_ROUNDS`` times (the best of each kept: other load on the machine comes and
    goes); poll_ratio = (b) / (a)."""
    each = min(10.0, max(3.0, seconds / 3)) / CEILING_ROUNDS
    print(f"ceiling: {CEILING_CONNECTIONS} keep-alive connections, {CEILING_ROUNDS} rounds "
          f"of {each:.1f} s each, best round kept", flush=True)
    stale = VERSION.sub(lambda m: f"{m.group(1)}{int(m.group(2)) - 1}", phone.pulse, count=1)
    cookies = phone.connection.cookies
    runs = {"hello": (hello_port, hello_pid, "/", 200), "quiet": (app_port, master,
            phone.pulse, 204), "fresh": (app_port, master, stale, 200)}
    best: dict[str, tuple[float, int, float, str]] = {}
    for _ in range(CEILING_ROUNDS):
        for name, (port, pid, target, want) in runs.items():
            meter = CpuMeter(pid)
            rate, failed = await closed_loop(port, target, cookies, each, want)
            cpu = meter.read()[0]
            busy = meter.busy()
            failed += best.get(name, (0, 0, 0, ""))[1]
            if rate >= best.get(name, (-1, 0, 0, ""))[0]:
                best[name] = (rate, failed, cpu, busy)
            else:
                best[name] = (best[name][0], failed, *best[name][2:])
    for label, name in (("(a) bare Flask hello (200)", "hello"),
                        ("(b) unchanged poll (204)", "quiet"),
                        ("(c) changed poll (200, regions)", "fresh")):
        rate, failed, cpu, busy = best[name]
        print(f"  {label:32} {rate:8.0f} req/s  failed {failed}  server CPU {cpu:.0f} %  "
              f"cores {SERVER_CORE}/{DRIVER_CORE} busy {busy} %", flush=True)
    ratio = best["quiet"][0] / best["hello"][0] if best["hello"][0] else math.nan
    print(f"  poll_ratio (b)/(a) = {ratio:.2f}", flush=True)
    return {"ratio": ratio, "failed": sum(b[1] for b in best.values())}


# --------------------------------------------------------------------------- the servers


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def cores() -> set[int]:
    """The cores this process may run on."""
    return os.sched_getaffinity(0)


SPEED_LOOP = """\
import time
best = None
for _ in range(3):
    started = time.perf_counter()
    total = 0
    for i in range(1_000_000):
        total += i * i % 7
    took = time.perf_counter() - started
    best = took if best is None else min(best, took)
print(best * 1000)
"""


def machine_speed() -> float:
    """Milliseconds a fixed loop of plain Python takes on the server's core (best of three):
    on a shared machine the same code gets more or less of a core from one hour to the
    next, and latencies near a core's limit grow much faster than this does."""
    done = subprocess.run(pinned([sys.executable, "-c", SPEED_LOOP], SERVER_CORE),
                          capture_output=True, text=True, check=True, timeout=60)
    return float(done.stdout)


def pinned(command: list[str], core: int) -> list[str]:
    """``command`` run on one core (taskset), when there are two cores to split."""
    if {SERVER_CORE, DRIVER_CORE} <= cores() and core in cores() and shutil.which("taskset"):
        return ["taskset", "-c", str(core), *command]
    return command


def server_cores(servers: int) -> tuple[list[int], int | None]:
    """The core of each server, and the driver's (None: it shares them): each its own where
    there are enough; else the servers spread over the cores and the driver unpinned."""
    have = sorted(cores())
    if servers == 1:
        return [SERVER_CORE], DRIVER_CORE
    if len(have) > servers:
        return have[:servers], have[servers]
    return [have[i % len(have)] for i in range(servers)], None


def start_server(app: str, config: Path, port: int, env: dict[str, str],
                 log: Path, core: int = SERVER_CORE) -> subprocess.Popen:
    """gunicorn with ``config`` serving ``app`` on 127.0.0.1:``port``, on ``core``."""
    command = pinned([sys.executable, "-m", "gunicorn", "-c", str(config), app], core)
    with log.open("wb") as output:
        return subprocess.Popen(command, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT,
                                env={**env, "COMPANION_HOST": HOST, "PORT": str(port)})


def wait_ready(process: subprocess.Popen, port: int, log: Path) -> None:
    """Wait until the server answers (or stop: it died, or took too long)."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn stopped ({process.returncode}):\n{log.read_text()}")
        try:
            with socket.create_connection((HOST, port), timeout=1) as probe:
                probe.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if probe.recv(12).startswith(b"HTTP/1.1"):
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer in {START_TIMEOUT:.0f} s:\n{log.read_text()}")


def stop_server(process: subprocess.Popen) -> None:
    """Stop gunicorn (SIGTERM to the master, which stops its workers), by its own id."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def reset_postgres(url: str) -> None:
    """Drop and make again the database's public schema, so that every run starts empty."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def gunicorn_settings(env: dict[str, str]) -> dict[str, object]:
    """The values gunicorn.conf.py gives with ``env`` (what both servers run with), read in a
    process of their own (the file patches the standard library for gevent)."""
    names = ("workers", "worker_class", "threads", "keepalive", "worker_connections",
             "preload_app")
    code = ("import json, runpy, sys; conf = runpy.run_path(sys.argv[1]); "
            f"print(json.dumps({{name: conf.get(name) for name in {names!r}}}))")
    read = subprocess.run([sys.executable, "-c", code, str(ROOT / "gunicorn.conf.py")],
                          env={**os.environ, **env}, cwd=ROOT, capture_output=True, text=True,
                          check=True)
    return json.loads(read.stdout.strip().splitlines()[-1])


# --------------------------------------------------------------------------- the run


@dataclass
class Step:
    """The figures of one rung of the ladder."""

    tables: int
    polls: list[float]
    writes: list[float]
    updates: list[float]
    same: list[float]
    crossed: list[float]
    pushes: int
    statuses: Counter
    errors: Counter
    seconds: float
    server_cpu: list[float]
    driver_cpu: float
    busy: str
    rss: list[float]

    @property
    def error_count(self) -> int:
        """All errors at this rung."""
        return sum(self.errors.values())


def ladder(tables: int, lowest: int = 1) -> list[int]:
    """The table counts to run: the usual rungs from ``lowest`` up to ``tables``, and
    ``tables`` itself."""
    return sorted({t for t in LADDER if lowest <= t < tables} | {tables})


async def drive(args: argparse.Namespace, ports: list[int], masters: list[int],
                hello_port: int, hello: subprocess.Popen) -> tuple[list[Step], dict]:
    """Make the tables, measure the ceiling (on the first server), then climb the ladder."""
    loop = asyncio.get_running_loop()
    tables: list[Table] = []
    app_port, master = ports[0], masters[0]
    await make_tables(ports, tables, 1)

    phone = tables[0].screens[1]
    await phone.poll(Stats())  # the current pulse (the game's start was seen)
    ceiling = await measure_ceiling(args.seconds, hello_port, hello.pid, app_port, master,
                                    phone)
    stop_server(hello)

    stats = Stats()
    gate = Gate()
    rungs = ladder(args.tables, args.lowest)
    # Every loop ends by this time at the latest, whatever happens.
    deadline = loop.time() + len(rungs) * (args.seconds + WARM_UP + 600)
    tasks: list[asyncio.Task] = []
    steps = []
    try:
        for count in rungs:
            started = len(tables)
            made_at = time.monotonic()
            await gate.hold(REQUEST_TIMEOUT + 5)
            failed = await make_tables(ports, tables, count)
            if count > started:
                print(f"T={count}: made {count - started} tables through the pages in "
                      f"{time.monotonic() - made_at:.1f} s"
                      + (f" ({failed} attempts failed)" if failed else ""), flush=True)
            for table in tables[len(tasks) // 6:]:
                for screen in table.screens:
                    screen.push = not args.versions_only
                tasks += start_table(table, stats, gate, deadline, args.polling)
            if not args.polling:  # the new screens open their streams before anyone writes
                await gate.streams_open(5 * count, REQUEST_TIMEOUT + 5)
            gate.release()
            stats.reset(recording=False)
            await asyncio.sleep(WARM_UP)
            stats.reset(recording=True)
            meters = [CpuMeter(pid) for pid in masters]
            window = loop.time()
            await asyncio.sleep(args.seconds)
            stats.recording = False
            readings = [meter.read() for meter in meters]
            step = Step(count, stats.polls, stats.writes, stats.updates, stats.same, stats.crossed,
                        stats.pushes, stats.statuses, stats.errors, loop.time() - window,
                        [server for server, _ in readings], readings[0][1], meters[0].busy(),
                        [rss_mb(pid) for meter in meters for pid in meter.pids
                         if pid not in masters])
            steps.append(step)
            print(row(step), flush=True)
            if len(ports) > 1:
                print(servers_row(step), flush=True)
            if TAP_KEYS[0] == "ab":
                print(keys_row(count, stats.keyed, stats.unkeyed), flush=True)
    finally:
        gate.stop()
        if tasks:
            await asyncio.wait(tasks, timeout=REQUEST_TIMEOUT + 5)
        for task in tasks:
            task.cancel()
        for table in tables:
            for screen in table.screens:
                screen.connection.close()
            table.writer.close()
    for what, count in sorted(stats.unrecorded.items()):
        print(f"  outside the measured windows: {count} x {what}", flush=True)
    return steps, ceiling


HEADER = (f"{'T':>4} {'screens':>7} {'polls':>7} {'204':>7} {'200':>6} "
          f"{'poll p50/p95/p99 ms':>21} {'writes':>6} {'write p50/p95/p99 ms':>22} "
          f"{'pushed':>6} {'seen p50/p95 ms':>16} {'errors':>6} {'req/s':>6} {'srv CPU':>7} "
          f"{'drv CPU':>7} {'busy 0/1':>8}  worker RSS MB")


def row(step: Step) -> str:
    """One line of the results table."""
    def triple(values: list[float]) -> str:
        return "/".join(f"{percentile(values, q):.1f}" for q in (0.5, 0.95, 0.99))

    total = len(step.polls) + len(step.writes) + step.error_count
    seen = "/".join(f"{percentile(step.updates, q):.0f}" for q in (0.5, 0.95))
    return (f"{step.tables:>4} {step.tables * 5:>7} {len(step.polls):>7} "
            f"{step.statuses['poll 204']:>7} {step.statuses['poll 200']:>6} "
            f"{triple(step.polls):>21} {len(step.writes):>6} {triple(step.writes):>22} "
            f"{step.pushes:>6} {seen:>16} "
            f"{step.error_count:>6} {total / step.seconds:>6.0f} {sum(step.server_cpu):>6.0f}% "
            f"{step.driver_cpu:>6.0f}% {step.busy:>8}  " + " ".join(f"{mb:.0f}" for mb in step.rss))


def servers_row(step: Step) -> str:
    """With several servers: "seen" on the writing server and on another, each server's
    CPU."""
    def pair(values: list[float]) -> str:
        return "/".join(f"{percentile(values, q):.0f}" for q in (0.5, 0.95))

    same = step.same
    return (f"  T={step.tables}: seen p50/p95 same-server {pair(same)} ms ({len(same)}), "
            f"cross-server {pair(step.crossed)} ms ({len(step.crossed)}); server CPU "
            + " ".join(f"{cpu:.0f}%" for cpu in step.server_cpu))


def keys_row(tables: int, keyed: list[float], unkeyed: list[float]) -> str:
    """With ``--tap-keys ab``: the writes with a tap key against those without, same run."""
    def triple(values: list[float]) -> str:
        return "/".join(f"{percentile(values, q):.1f}" for q in (0.5, 0.95, 0.99))

    ratios = "/".join(f"{percentile(keyed, q) / percentile(unkeyed, q):.2f}"
                      if unkeyed else "nan" for q in (0.5, 0.95, 0.99))
    return (f"  T={tables}: writes with a tap key {len(keyed)}, p50/p95/p99 {triple(keyed)} ms; "
            f"without {len(unkeyed)}, {triple(unkeyed)} ms; with/without {ratios}")


def main() -> None:
    """Start the servers, drive them, print the figures and the summary line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="the most tables (200)")
    parser.add_argument("--lowest", type=int, default=1,
                        help="skip the rungs of the ladder below this many tables (1)")
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="seconds measured at each table count (30)")
    parser.add_argument("--database", default="",
                        help="a PostgreSQL URL (default: a temporary SQLite file)")
    parser.add_argument("--polling", action="store_true",
                        help="screens poll every 2 s, as a page without its event stream does "
                             "(default: they follow their table's event stream)")
    parser.add_argument("--versions-only", action="store_true",
                        help="the streams say the versions only, and the screens poll for "
                             "each change (default: the streams bring the answers)")
    parser.add_argument("--tap-keys", choices=("yes", "no", "ab"), default="yes",
                        help="whether the writes carry a tap key (X-Companion-Tap), as "
                             "static/app/taps-page.js sends: yes (default), no, or ab (every other "
                             "write of each table, the two measured apart in the same run)")
    parser.add_argument("--servers", type=int, default=1,
                        help="gunicorn servers on the one database, each table's screens "
                             "spread over them (PostgreSQL only; default 1)")
    parser.add_argument("--workers", type=int, default=1,
                        help="worker processes in each server (WEB_CONCURRENCY; default 1)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/13",
                        help="the Redis the servers share (sealing keys, rate limits) when "
                             "there are several servers or workers")
    args = parser.parse_args()
    TAP_KEYS[0] = args.tap_keys
    if args.tables < 1 or args.seconds <= 0:
        parser.error("--tables and --seconds must be positive")
    db_name = "postgresql" if args.database.startswith("postgres") else "sqlite"
    if args.servers < 1 or args.workers < 1:
        parser.error("--servers and --workers must be positive")
    if args.servers > 1 and db_name != "postgresql":
        parser.error("several servers share one PostgreSQL database (--database)")

    speed_before = machine_speed()
    with tempfile.TemporaryDirectory(prefix="bench_load-") as folder:
        temp = Path(folder)
        url = args.database or f"sqlite:///{temp / 'companion.sqlite3'}"
        env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": secrets.token_hex(32),
               # every table is made from this one address, hundreds in a minute
               "COMPANION_NEW_TABLE_LIMIT": "100000/minute",
               # and every screen comes from it too (at a table each phone has its own)
               "COMPANION_STREAMS_PER_ADDRESS": "100000",
               "PYTHONPATH": os.pathsep.join(
                   p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p),
               "WEB_CONCURRENCY": str(args.workers)}
        if args.servers > 1:
            env["COMPANION_SEALING_STORE"] = args.redis
        if args.servers > 1 or args.workers > 1:
            env["RATELIMIT_STORAGE_URI"] = args.redis
        if db_name == "postgresql":
            reset_postgres(args.database)
        subprocess.run([sys.executable, "-m", "flask", "--app", "companion", "db", "upgrade"],
                       cwd=ROOT, env=env, check=True, capture_output=True)
        (temp / "hello.py").write_text(HELLO_APP, encoding="utf-8")
        (temp / "hello_conf.py").write_text(
            HELLO_CONF.format(conf=str(ROOT / "gunicorn.conf.py")), encoding="utf-8")
        settings = gunicorn_settings(env)
        ports, hello_port = [free_port() for _ in range(args.servers)], free_port()
        logs, hello_log = ([temp / f"gunicorn-app-{n}.log" for n in range(args.servers)],
                           temp / "gunicorn-hello.log")
        placed, driver_core = server_cores(args.servers)
        hello_env = {**env, "PYTHONPATH": os.pathsep.join((folder, env["PYTHONPATH"]))}
        hello = start_server("hello:app", temp / "hello_conf.py", hello_port, hello_env,
                             hello_log)
        servers = [start_server("companion:create_app()", ROOT / "gunicorn.conf.py", port,
                                env, log, core)
                   for port, log, core in zip(ports, logs, placed, strict=True)]
        try:
            wait_ready(hello, hello_port, hello_log)
            for server, port, log in zip(servers, ports, logs, strict=True):
                wait_ready(server, port, log)
            split = {SERVER_CORE, DRIVER_CORE} <= cores() and driver_core is not None
            if split:
                os.sched_setaffinity(0, {driver_core})
            threads = (f" x {settings['threads']} threads"
                       if settings["worker_class"] == "gthread" else "")
            print(f"bench_load: {args.servers} companion server(s) under gunicorn on "
                  f"{HOST}:{','.join(map(str, ports))}, db={db_name}"
                  f"{'' if args.database else ' (temporary file)'}; "
                  f"{settings['workers']} {settings['worker_class']} worker(s){threads}, "
                  f"keepalive {settings['keepalive']} s, "
                  f"worker_connections {settings['worker_connections']}, "
                  f"preload {settings['preload_app']}", flush=True)
            on = ", ".join(map(str, placed))
            print("  cores: " + (f"server(s) on {on}, driver on {driver_core}" if split
                                 else f"server(s) on {on}, the driver sharing them (fewer "
                                 "cores than servers and driver)" if args.servers > 1
                                 else "not pinned (fewer than two cores)"), flush=True)
            if args.servers > 1:
                print(f"  each table made through one server, its tablet (which writes) and "
                      f"every other phone there, the other phones on the next server; "
                      f"sealing keys and rate limits in {args.redis}", flush=True)
            print("  rate limits: the app's own, but for tables made (the benchmark makes "
                  "them all from one address); only wrong codes, i.e. 404s, count, and the "
                  "benchmark makes none", flush=True)
            following = (f"polling every {POLL_EVERY:.0f} s (no event streams)" if args.polling
                         else "following their table's event stream (polling when it says a "
                         "version only)" if args.versions_only
                         else "following their table's event stream (which brings the "
                         "answers; polling when it cannot)")
            print(f"  each table: 5 screens {following}, the scorekeeper ticking "
                  f"'{WRITE_STEP}' every {WRITE_EVERY:.0f} s "
                  f"(tap keys: {TAP_KEYS[0]}); {WARM_UP:.0f} s warm-up, "
                  f"{args.seconds:g} s measured per T; seen: from a write's answer to another "
                  "screen showing it", flush=True)
            steps, ceiling = asyncio.run(drive(args, ports, [s.pid for s in servers],
                                               hello_port, hello))
        finally:
            stop_server(hello)
            for server in servers:
                stop_server(server)
            log = [line for app_log in logs
                   for line in app_log.read_text(errors="replace").splitlines()]
            tail = [line for line in log if "ERROR" in line or "[CRITICAL]" in line
                    or LOGGED_ERROR.match(line)]
            if tail:
                print(f"gunicorn's log: {len(tail)} error lines; the last ones:", flush=True)
                print("\n".join("  " + line[:300] for line in tail[-6:]), flush=True)

    print()
    print(f"machine: a fixed Python loop took {speed_before:.0f} ms on the server's core "
          f"before the run, {machine_speed():.0f} ms after (more: less of a core)")
    print(HEADER)
    for step in steps:
        print(row(step))
        if args.servers > 1:
            print(servers_row(step))
    for step in steps:
        for what, count in sorted(step.errors.items()):
            print(f"  T={step.tables}: {count} x {what}")
    last = steps[-1]
    worst = max((p for p in (percentile(last.polls, 0.95), percentile(last.writes, 0.95))
                 if not math.isnan(p)), default=math.nan)
    split = ""
    if args.servers > 1:
        split = (f" seen_p95_same_ms={percentile(last.same, 0.95):.0f} "
                 f"seen_p95_cross_ms={percentile(last.crossed, 0.95):.0f}")
    print(f"bench_load: tables={last.tables} p95_ms={worst:.1f} "
          f"errors={last.error_count} poll_ratio={ceiling['ratio']:.2f} db={db_name} "
          f"servers={args.servers} workers={args.workers}{split}")


if __name__ == "__main__":
    main()
