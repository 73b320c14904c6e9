"""Other tables' taps and reads while one hostile client works, against the same without it.

Usage: ``.venv/bin/python scripts/bench_hostile.py [--attacks stall,slow,heavy,new,imports,
streams] [--seconds 20] [--quiet 10] [--tables 4] [--database postgresql+psycopg://…]``

Starts the companion under gunicorn as the Procfile does, pinned to one core
(``scripts/bench_load.py``'s server, on a temporary SQLite file or the PostgreSQL database
given, emptied first). It makes ``--tables`` tables as people do (the form, four phones
joining, the game started) and imports the longest game record the server takes
(``scripts/hostile_client.py``). Then every tablet taps (the round's first checklist step)
and every phone reads its page (a whole page, made in the server) once a second, each on
its own kept-alive connection, while, for each attack in turn: ``--quiet`` seconds without
it, then ``--seconds`` with it, from another address of this machine
(``hostile_client.SOURCE``), ``scripts/hostile_client.py`` run as a process of its own
on the driver's core. Near the end of each window every phone also opens its table's
event stream once, to see whether the server still gives it one.

It prints, per attack, the taps' and the reads' p50 and p95 without and with it (ms; a
request unanswered after 20 s counts as 20 s), the p95 with it over the p95 without it (the
ratio), what the attacker got, and the phones' streams refused. It asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_load  # noqa: E402  (scripts/ is on the path)
import hostile_client  # noqa: E402
from bench_load import (  # noqa: E402
    ROOT,
    Connection,
    Stats,
    Table,
    free_port,
    machine_speed,
    make_table,
    percentile,
    reset_postgres,
    start_server,
    stop_server,
    wait_ready,
)

ANSWER_WITHIN = 20.0
"""Seconds a victim waits for an answer; one that never came counts as this long."""
PAUSE = 3.0
"""Seconds between one attack's window and the next quiet one."""


@dataclass
class Window:
    """What the victims saw in one window: taps' and reads' seconds, streams refused."""

    taps: list[float] = field(default_factory=list)
    reads: list[float] = field(default_factory=list)
    unanswered: int = 0
    streams: Counter = field(default_factory=Counter)


class Victims:
    """The tables' tablets tapping and phones reading, each once a second, into the window
    being recorded."""

    def __init__(self, tables: list[Table]) -> None:
        self.tables = tables
        self.window = Window()
        self.stopped = False

    async def _timed(self, request, into: list[float]) -> None:
        started = time.perf_counter()
        try:
            await asyncio.wait_for(request, ANSWER_WITHIN)
            into.append(time.perf_counter() - started)
        except (TimeoutError, OSError, EOFError, ValueError):
            into.append(ANSWER_WITHIN)
            self.window.unanswered += 1

    async def tablet(self, table: Table) -> None:
        """The tablet's taps (``bench_load``'s: the deck step, toggled), once a second."""
        stats = Stats(recording=True)
        while not self.stopped:
            taps = self.window.taps
            await self._timed(table.write(stats), taps)
            if stats.errors:
                self.window.unanswered += sum(stats.errors.values())
                stats.errors.clear()
                table.writer.close()
            await asyncio.sleep(1.0)

    async def phone(self, table: Table, index: int) -> None:
        """A phone reading its page (made whole in the server), once a second."""
        screen = table.screens[index]
        page = f"/t/{table.code}/seat"
        await asyncio.sleep(0.2 * index)
        while not self.stopped:
            await self._timed(screen.connection.request("GET", page), self.window.reads)
            await asyncio.sleep(1.0)


async def full_stream(connection: Connection, target: str) -> bool:
    """Whether the server answers an event stream with ``full`` (bench_load's reader counts a
    refused stream as one that ended)."""
    reader, writer = await asyncio.open_connection(bench_load.HOST, connection.port)
    try:
        writer.write(connection._head("GET", target, {"Accept": "text/event-stream"}, b""))
        return await hostile_client.first_event(reader, ANSWER_WITHIN) == "full"
    finally:
        writer.close()


async def drive(port: int, args: argparse.Namespace) -> list[tuple[str, Window, Window, str]]:
    """Make the tables and the long game, then each attack's quiet and hostile windows."""
    tables = [await make_table(port, index) for index in range(args.tables)]
    client = hostile_client.Client(port, bench_load.HOST)
    status, body = await hostile_client.import_longest(client)
    if status != 201:
        raise RuntimeError(f"the long game: {status} {body[:200]!r}")
    long_code = body.split(b'"table_url":"', 1)[1].split(b'"', 1)[0].decode().rsplit("/", 1)[-1]
    rounds = hostile_client.LIMIT if client.longest_refused else hostile_client.LONGEST
    print(f"  the long game: {rounds} rounds of Trefeltromp, table {long_code}", flush=True)
    victims = Victims(tables)
    tasks = [asyncio.create_task(victims.tablet(t)) for t in tables]
    tasks += [asyncio.create_task(victims.phone(t, i)) for t in tables for i in range(1, 5)]
    found = []
    try:
        await asyncio.sleep(3.0)  # warm-up
        for name in args.attacks:
            quiet = victims.window = Window()
            await asyncio.sleep(args.quiet)
            quiet.streams = await phones_streams(tables)
            hostile = victims.window = Window()
            attack = await asyncio.create_subprocess_exec(
                sys.executable, str(Path(hostile_client.__file__)), "--port", str(port),
                "--attack", name, "--seconds", str(args.seconds),
                "--code", long_code if name == "heavy" else tables[0].code,
                stdout=asyncio.subprocess.PIPE)
            await asyncio.sleep(args.seconds * 0.8)
            hostile.streams = await phones_streams(tables)
            said = (await attack.communicate())[0].decode().strip().rsplit(" s: ", 1)[-1]
            victims.window = Window()
            found.append((name, quiet, hostile, said))
            print(line(name, quiet, hostile, said), flush=True)
            await asyncio.sleep(PAUSE)
    finally:
        victims.stopped = True
        await asyncio.wait(tasks, timeout=ANSWER_WITHIN + 5)
        for task in tasks:
            task.cancel()
    return found


async def phones_streams(tables: list[Table]) -> Counter:
    """Each phone asks for its table's event stream once: how many were told ``full``."""
    seen: Counter = Counter()
    for table in tables:
        for screen in table.screens[1:]:
            try:
                seen["full" if await full_stream(screen.connection, screen.events)
                     else "given"] += 1
            except (OSError, TimeoutError) as error:
                seen[type(error).__name__] += 1
    return seen


def ms(values: list[float], share: float) -> float:
    return 1000 * percentile(values, share)


HEADER = (f"{'attack':<8} {'taps p50/p95 ms: without':>26} {'with':>16} {'ratio':>6}  "
          f"{'reads p50/p95 ms: without':>26} {'with':>16} {'ratio':>6}  "
          f"{'unanswered':>10} {'streams refused':>15}  attacker got")


def line(name: str, quiet: Window, hostile: Window, said: str) -> str:
    """One attack's row of the report."""
    def pair(values: list[float]) -> str:
        return f"{ms(values, 0.5):.1f}/{ms(values, 0.95):.1f}"

    def ratio(values: list[float], base: list[float]) -> str:
        return f"{ms(values, 0.95) / ms(base, 0.95):.1f}x"

    refused = f"{hostile.streams['full']}/{sum(hostile.streams.values())}"
    return (f"{name:<8} {pair(quiet.taps):>26} {pair(hostile.taps):>16} "
            f"{ratio(hostile.taps, quiet.taps):>6}  {pair(quiet.reads):>26} "
            f"{pair(hostile.reads):>16} {ratio(hostile.reads, quiet.reads):>6}  "
            f"{hostile.unanswered:>10} {refused:>15}  {said}")


def main(argv: list[str] | None = None) -> int:
    """Start the server, run the attacks, print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attacks", default=",".join(hostile_client.ATTACKS),
                        help="which, in order (all)")
    parser.add_argument("--seconds", type=float, default=20.0, help="each attack's window (20)")
    parser.add_argument("--quiet", type=float, default=10.0, help="the window before it (10)")
    parser.add_argument("--tables", type=int, default=4, help="tables tapping and reading (4)")
    parser.add_argument("--database", default="", help="a PostgreSQL URL (default: SQLite)")
    args = parser.parse_args(argv)
    args.attacks = [a for a in args.attacks.split(",") if a]
    unknown = set(args.attacks) - set(hostile_client.ATTACKS)
    if unknown:
        parser.error(f"no such attack: {', '.join(sorted(unknown))}")
    db_name = "postgresql" if args.database.startswith("postgres") else "sqlite"
    speed = machine_speed()
    with tempfile.TemporaryDirectory(prefix="bench_hostile-") as folder:
        url = args.database or f"sqlite:///{folder}/companion.sqlite3"
        env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": secrets.token_hex(32),
               "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get(
                   "PYTHONPATH")) if p)}
        if db_name == "postgresql":
            reset_postgres(args.database)
        subprocess.run([sys.executable, "-m", "flask", "--app", "companion", "db", "upgrade"],
                       cwd=ROOT, env=env, check=True, capture_output=True)
        port, log = free_port(), Path(folder) / "gunicorn.log"
        server = start_server("companion:create_app()", ROOT / "gunicorn.conf.py", port, env,
                              log)
        try:
            wait_ready(server, port, log)
            if {bench_load.SERVER_CORE, bench_load.DRIVER_CORE} <= bench_load.cores():
                os.sched_setaffinity(0, {bench_load.DRIVER_CORE})
            print(f"bench_hostile: companion under gunicorn on 127.0.0.1:{port}, db={db_name}; "
                  f"{args.tables} tables (a tap and four reads a second each); each attack "
                  f"{args.seconds:g} s after {args.quiet:g} s without; the attacker from "
                  f"{hostile_client.SOURCE}", flush=True)
            print(HEADER, flush=True)
            found = asyncio.run(drive(port, args))
        finally:
            stop_server(server)
    print(f"machine: a fixed Python loop took {speed:.0f} ms on the server's core before, "
          f"{machine_speed():.0f} ms after")
    print(HEADER)
    for name, quiet, hostile, said in found:
        print(line(name, quiet, hostile, said))
    return 0


if __name__ == "__main__":
    sys.exit(main())
