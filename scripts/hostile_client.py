"""A hostile client of a companion served on this machine: the loads one client can put on it.

Usage: ``.venv/bin/python scripts/hostile_client.py --port 5000 --attack stall [--seconds 30]
[--code K7TQ2MXB] [--source 127.0.0.66]``

It only ever connects to 127.0.0.1 (the port given), stops after ``--seconds`` (at most
:data:`MOST_SECONDS`), and prints what the server answered. Its connections come from
``--source`` (any address of 127.0.0.0/8 is this machine's own on Linux), so that the server
tells it apart from the screens it disturbs. The attacks (:data:`ATTACKS`):

- ``stall``: a POST's headers (``Content-Length: 100``) and never its body, to a table's
  URL (no cookie, no token, as in the finding: ``/j/<code>/claim``); again as soon as the
  server answers or closes;
- ``slow``: the same POST's body sent a byte every 0.2 s;
- ``heavy``: the heaviest pages of a table holding a long imported game (the evenings list,
  the evening page, its CSV, the game's page and record), one after another;
- ``new``: ``POST /new`` (a table made, as the form does), one after another;
- ``imports``: ``POST /api/games`` with a long game record, one after another;
- ``streams``: as many event streams as the server gives, held open.

A long record is the longest the server takes: :data:`LONGEST` rounds of Trefeltromp
(515 KB, the finding's), else :data:`LIMIT` (a 413 says it has too many).
``scripts/bench_hostile.py`` measures other tables' taps and reads while each runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

HOST = "127.0.0.1"
SOURCE = "127.0.0.66"
MOST_SECONDS = 600.0
LONGEST = 1300
"""Rounds of the finding's record (515 KB): what an import took before it had a limit."""
LIMIT = 200
"""The most rounds a record may hold now (``RECORD_ROUNDS``)."""
CSRF = re.compile(rb'name="csrf_token" value="([^"]+)"')
STATUS = re.compile(rb"HTTP/1\.[01] (\d{3})")


def long_record(rounds: int) -> bytes:
    """A Trefeltromp record of ``rounds`` hands (kept going), as JSON."""
    from tests.rules.gen_trefeltromp import random_record

    return json.dumps(random_record(random.Random(1), rounds=rounds, finish=0.0, cut=0.0,
                                    leave_chance=0.0)).encode()


class Client:
    """Plain HTTP/1.1 from ``source`` to 127.0.0.1:``port``, one request a connection, with
    one cookie jar."""

    def __init__(self, port: int, source: str) -> None:
        self.port, self.source = port, source
        self.cookies: dict[str, str] = {}
        self.longest_refused = False
        """The server refused a record of :data:`LONGEST` rounds (413): send shorter ones."""

    async def open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A new connection."""
        return await asyncio.open_connection(HOST, self.port, local_addr=(self.source, 0))

    def head(self, method: str, path: str, length: int | None = None,
             kind: str = "application/x-www-form-urlencoded") -> bytes:
        """A request's head (with the cookies)."""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}", "Connection: close"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if length is not None:
            lines += [f"Content-Type: {kind}", f"Content-Length: {length}"]
        return ("\r\n".join(lines) + "\r\n\r\n").encode()

    async def request(self, method: str, path: str, body: bytes | None = None,
                      kind: str = "application/x-www-form-urlencoded") -> tuple[int, bytes]:
        """One whole request: the status and the body (read to the end)."""
        reader, writer = await self.open()
        try:
            writer.write(self.head(method, path, None if body is None else len(body), kind)
                         + (body or b""))
            answer = await reader.read()
        finally:
            writer.close()
        head, _, rest = answer.partition(b"\r\n\r\n")
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"set-cookie:"):
                pair = line.split(b":", 1)[1].split(b";", 1)[0].strip().decode()
                name, _, value = pair.partition("=")
                self.cookies[name] = value
        found = STATUS.match(answer)
        return (int(found.group(1)) if found else 0), rest


async def held_post(client: Client, path: str, every: float | None, ends: float,
                    seen: Counter) -> None:
    """POSTs whose body never comes (``every`` None) or comes a byte at a time, one after
    another until ``ends``; each answer noted (``408``, or what ended it)."""
    loop = asyncio.get_running_loop()
    while loop.time() < ends:
        reader, writer = await client.open()
        writer.write(client.head("POST", path, 100))
        answer = b""
        try:
            while loop.time() < ends and not answer:
                try:
                    answer = await asyncio.wait_for(reader.read(200), every or 0.5)
                    if not answer:
                        answer = b"closed"
                except TimeoutError:
                    if every is not None:
                        writer.write(b"x")
        except ConnectionError:
            answer = b"reset"
        finally:
            writer.close()
        found = STATUS.match(answer)
        seen[found.group(1).decode() if found else (answer.decode() or "still held")] += 1


async def stall(port: int, code: str, seconds: float, source: str) -> Counter:
    """The POST whose body never comes."""
    seen: Counter = Counter()
    ends = asyncio.get_running_loop().time() + seconds
    await held_post(Client(port, source), f"/j/{code}/claim", None, ends, seen)
    return seen


async def slow(port: int, code: str, seconds: float, source: str) -> Counter:
    """The POST whose body comes a byte every 0.2 s."""
    seen: Counter = Counter()
    ends = asyncio.get_running_loop().time() + seconds
    await held_post(Client(port, source), f"/j/{code}/claim", 0.2, ends, seen)
    return seen


async def in_a_loop(seconds: float, once: Callable[[], Awaitable[int]]) -> Counter:
    """``once()`` again and again for ``seconds``; the statuses it got, counted."""
    seen: Counter = Counter()
    ends = asyncio.get_running_loop().time() + seconds
    while asyncio.get_running_loop().time() < ends:
        try:
            seen[str(await asyncio.wait_for(once(), ends - asyncio.get_running_loop().time()))] += 1
        except TimeoutError:
            seen["unanswered"] += 1
        except ConnectionError as error:
            seen[type(error).__name__] += 1
    return seen


async def import_longest(client: Client, seen: Counter | None = None) -> tuple[int, bytes]:
    """Import the longest record the server takes (:data:`LONGEST` rounds, or once that was
    refused with a 413, :data:`LIMIT`); the answer."""
    status, body = 413, b""
    if not client.longest_refused:
        status, body = await client.request("POST", "/api/games", _record(LONGEST),
                                            "application/json")
    if status == 413:
        if seen is not None and not client.longest_refused:
            seen[f"413 for {LONGEST} rounds"] += 1
        client.longest_refused = True
        status, body = await client.request("POST", "/api/games", _record(LIMIT),
                                            "application/json")
    return status, body


_MADE: dict[int, bytes] = {}


def _record(rounds: int) -> bytes:
    """:func:`long_record`, made once."""
    if rounds not in _MADE:
        _MADE[rounds] = long_record(rounds)
    return _MADE[rounds]


async def heavy(port: int, code: str, seconds: float, source: str) -> Counter:
    """The heaviest pages of table ``code`` (one holding a long imported game), in turn."""
    client = Client(port, source)
    pages = [f"/t/{code}/evenings", f"/t/{code}/evenings/1", f"/t/{code}/evenings/1/lines.csv",
             f"/t/{code}/games/1", f"/t/{code}/games/1/record.json"]
    turns = iter(range(10**9))

    async def once() -> int:
        return (await client.request("GET", pages[next(turns) % len(pages)]))[0]

    return await in_a_loop(seconds, once)


async def new(port: int, code: str, seconds: float, source: str) -> Counter:
    """Tables made with the form, one after another."""
    client = Client(port, source)
    _status, form = await client.request("GET", "/new")
    token = CSRF.search(form).group(1).decode()
    body = urlencode({"csrf_token": token, "name": "Hostile", "game": "tremp", "seats": "4",
                      "player": ["A", "B", "C", "D"], "dealer": "1"}, doseq=True).encode()

    async def once() -> int:
        return (await client.request("POST", "/new", body))[0]

    return await in_a_loop(seconds, once)


async def imports(port: int, code: str, seconds: float, source: str) -> Counter:
    """The longest record the server takes, imported again and again."""
    client = Client(port, source)
    seen: Counter = Counter()
    _record(LONGEST), _record(LIMIT)  # made before the clock starts

    async def once() -> int:
        return (await import_longest(client, seen))[0]

    seen.update(await in_a_loop(seconds, once))
    return seen


async def streams(port: int, code: str, seconds: float, source: str, most: int = 1100,
                  at_once: int = 50) -> Counter:
    """As many event streams on table ``code`` as the server gives (up to ``most``, asked
    for ``at_once`` at a time), held open for ``seconds``."""
    client = Client(port, source)
    seen: Counter = Counter()
    held: list[asyncio.StreamWriter] = []
    loop = asyncio.get_running_loop()
    ends = loop.time() + seconds

    async def one() -> None:
        reader, writer = await client.open()
        writer.write(client.head("GET", f"/t/{code}/events"))
        try:
            said = await first_event(reader, max(0.1, ends - loop.time()))
        except TimeoutError:
            said = "unanswered"
        seen[said] += 1
        if said == "open":
            held.append(writer)
        else:
            writer.close()

    try:
        asked = 0
        while asked < most and loop.time() < ends:
            batch = min(at_once, most - asked)
            await asyncio.gather(*(one() for _ in range(batch)))
            asked += batch
        await asyncio.sleep(max(0.0, ends - loop.time()))
    finally:
        for writer in held:
            writer.close()
    return seen


async def first_event(reader: asyncio.StreamReader, patience: float = 30.0) -> str:
    """What an event stream says first: ``full`` (the server holds no more streams for this
    client: it is to poll), ``open`` (its version), or ``closed``."""
    said = b""
    while b"event: full" not in said and b"data: " not in said.partition(b"\r\n\r\n")[2]:
        part = await asyncio.wait_for(reader.read(600), patience)
        if not part:
            return "closed"
        said += part
    return "full" if b"event: full" in said else "open"


ATTACKS: dict[str, Callable[[int, str, float, str], Awaitable[Counter]]] = {
    "stall": stall, "slow": slow, "heavy": heavy, "new": new, "imports": imports,
    "streams": streams}


def main(argv: list[str] | None = None) -> int:
    """Run one attack for a while and print what the server answered."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True, help="the server's port on 127.0.0.1")
    parser.add_argument("--attack", choices=sorted(ATTACKS), required=True)
    parser.add_argument("--seconds", type=float, default=30.0, help="how long (30; at most 600)")
    parser.add_argument("--code", default="", help="a table's code (heavy: one holding a long "
                        "game; left out: a long game is imported first)")
    parser.add_argument("--source", default=SOURCE, help=f"the address to come from ({SOURCE})")
    args = parser.parse_args(argv)
    if not args.source.startswith("127."):
        parser.error("--source must be an address of this machine (127.x.x.x)")
    seconds = min(max(args.seconds, 0.0), MOST_SECONDS)

    async def run() -> Counter:
        code = args.code
        if not code:
            status, body = await import_longest(Client(args.port, args.source))
            if status != 201:
                raise SystemExit(f"the long game was not imported: {status} {body[:200]!r}")
            code = json.loads(body)["table_url"].rstrip("/").rsplit("/", 1)[-1]
        return await ATTACKS[args.attack](args.port, code, seconds, args.source)

    started = time.monotonic()
    seen = asyncio.run(run())
    print(f"hostile_client: {args.attack} for {time.monotonic() - started:.0f} s: "
          + ", ".join(f"{count} x {what}" for what, count in seen.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
