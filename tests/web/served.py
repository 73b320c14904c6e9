"""The companion under gunicorn, as the Procfile runs it, for tests of a real server.

:func:`served` starts ``gunicorn -c gunicorn.conf.py 'companion:create_app()'`` on
127.0.0.1 and a free port, against the test's database (whose tables the ``app``
fixture made), and stops it afterwards. :class:`Device` is a browser on one
keep-alive connection: its own cookies, its CSRF token, each request timed.
"""

from __future__ import annotations

import http.client
import math
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from companion.rules import GAMES
from tests.waiting import HANG, Ceiling

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).parent / "gunicorn"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"|"X-CSRFToken": "([^"]+)"')
PLAYERS = ("Rob", "Sam", "Nick", "Emily")


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Server:
    """A running gunicorn: its port, its log, its master process, the devices made for it."""

    port: int
    log: Path
    process: subprocess.Popen
    devices: list[Device] = field(default_factory=list)

    def device(self) -> Device:
        """A new browser on this server (its connection is closed when the server stops)."""
        device = Device(self.port)
        self.devices.append(device)
        return device

    def log_text(self) -> str:
        """What gunicorn wrote so far."""
        return self.log.read_text(errors="replace")


@contextmanager
def served(database_url: str, folder: Path, config: Path = ROOT / "gunicorn.conf.py",
           **settings: str) -> Iterator[Server]:
    """gunicorn serving the companion (settings as environment variables on top)."""
    port = free_port()
    log = folder / f"gunicorn-{port}.log"
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "served",
           "PORT": str(port), "COMPANION_HOST": "127.0.0.1",
           "RATELIMIT_STORAGE_URI": "memory://", **settings}
    with log.open("wb") as output:
        process = subprocess.Popen([str(GUNICORN), "-c", str(config), "companion:create_app()"],
                                   cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    server = Server(port, log, process)
    try:
        ceiling = Ceiling()
        while True:
            assert process.poll() is None, f"gunicorn stopped:\n{server.log_text()}"
            assert not ceiling.passed, f"gunicorn never answered:\n{server.log_text()}"
            try:
                if server.device().get("/")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        yield server
    finally:
        for device in server.devices:  # (the worker waits for open connections as it stops)
            device.connection.close()
        os.killpg(process.pid, signal.SIGTERM)  # master and worker: a session of their own
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


class Device:
    """A browser: one keep-alive connection, its own cookies; it sends forms with its CSRF
    token, as a page would. Each request answers (status, text, seconds it took)."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG)
        self.cookies: dict[str, str] = {}
        self.token = ""
        self.location = ""
        """Where the last answer pointed (a redirect's path)."""

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, str, float]:
        """GET ``path``."""
        return self.request("GET", path, headers=headers)

    def post(self, path: str, form: dict, headers: dict[str, str] | None = None,
             ) -> tuple[int, str, float]:
        """POST a form with this device's CSRF token."""
        body = urlencode({"csrf_token": self.token, **form}, doseq=True).encode()
        return self.request("POST", path, body, {
            "Content-Type": "application/x-www-form-urlencoded", **(headers or {})})

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, str, float]:
        """One request on the kept-alive connection (opened again when the server closed it)."""
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        started = time.perf_counter()
        for attempt in range(2):
            try:
                self.connection.request(method, path, body, headers)
                answer = self.connection.getresponse()
                text = answer.read().decode("utf-8", "replace")
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.connection.close()
                if attempt:
                    raise
        seconds = time.perf_counter() - started
        self.location = urlsplit(answer.headers.get("Location", "")).path
        for header in answer.headers.get_all("Set-Cookie") or ():
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        token = CSRF.search(text)
        if token:
            self.token = token.group(1) or token.group(2)
        return answer.status, text, seconds


def make_table(server: Server, players: tuple[str, ...] = PLAYERS,
               game: str | None = None) -> tuple[str, Device, list[Device]]:
    """A table made through the pages (of ``game``: by default the registry's first): its
    code, the scorekeeper's tablet, a phone per seat."""
    game = game or GAMES[0]
    keeper = server.device()
    keeper.get("/new")
    status, page, _ = keeper.post("/new", {"name": "Served", "game": game,
                                           "seats": str(len(players)), "player": list(players),
                                           "dealer": "1"})
    assert status == 303, page
    code = keeper.location.rsplit("/", 1)[-1]
    status, page, _ = keeper.get(keeper.location)
    assert status == 200, page
    phones = []
    for position in range(1, len(players) + 1):
        phone = server.device()
        phone.get(f"/j/{code}")
        status, page, _ = phone.post(f"/j/{code}/claim", {"seat": str(position)})
        assert status == 303, page
        phones.append(phone)
    return code, keeper, phones


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (``share`` from 0 to 1); NaN when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]
