"""The server's own limits, under gunicorn as the Procfile runs it.

A request's head: its first line (the address) and each header line at most gunicorn's
limits (414 and 431 beyond), at most 100 headers. A late body is cut off alike by
gevent's worker and by threads (``companion.door``). And a sleep of the whole
machine does not stop the worker (``companion.serving``).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import time

import pytest

from companion.serving import STOOD_STILL, after_a_sleep
from tests.waiting import HANG, Ceiling, wait_until
from tests.web.served import served

pytestmark = pytest.mark.skipif(os.name == "nt", reason="gunicorn runs on Unix")


def first_line(port: int, data: bytes) -> str:
    """Send ``data`` on a new connection: the answer's status line (waited for up to
    :data:`~tests.waiting.HANG`)."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(data)
        sock.settimeout(HANG)
        return sock.recv(200).split(b"\r\n", 1)[0].decode()


def test_a_requests_head_is_held_to_the_servers_limits(app, tmp_path):
    with served(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path) as server:
        def ask(line: str, headers: list[str]) -> str:
            head = "\r\n".join([line, "Host: 127.0.0.1", *headers]) + "\r\n\r\n"
            return first_line(server.port, head.encode())

        def address(length: int) -> str:  # a request line of ``length`` characters
            return "GET /" + "a" * (length - len("GET / HTTP/1.1")) + " HTTP/1.1"

        assert ask(address(4094), []) == "HTTP/1.1 404 NOT FOUND"  # the app's own answer
        assert ask(address(4095), []) == "HTTP/1.1 414 URI Too Long"

        def header(length: int) -> str:  # a header line of ``length`` bytes with its CRLF
            return "X-Padding: " + "a" * (length - len("X-Padding: \r\n"))

        assert ask("GET / HTTP/1.1", [header(8190)]) == "HTTP/1.1 200 OK"
        assert ask("GET / HTTP/1.1", [header(8191)]) == (
            "HTTP/1.1 431 Request Header Fields Too Large")
        many = [f"X-Header-{n}: 1" for n in range(99)]  # and Host: 100 headers
        assert ask("GET / HTTP/1.1", many) == "HTTP/1.1 200 OK"
        assert ask("GET / HTTP/1.1", [*many, "X-One-More: 1"]) == (
            "HTTP/1.1 431 Request Header Fields Too Large")


@pytest.mark.parametrize("worker", ["gevent", "gthread"])
def test_both_workers_answer_a_late_body_408_at_its_deadline(app, tmp_path, worker):
    with served(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path, COMPANION_WORKER=worker,
                COMPANION_BODY_SECONDS="1") as server:
        head = (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n")
        assert first_line(server.port, head) == "HTTP/1.1 408 REQUEST TIMEOUT"  # and no body
        # A byte every 0.1 s of 1000: each read is quick, the whole body would take 100 s.
        # The 408 comes while the body is still coming (a deadline on each read alone would
        # let it go on to its last byte, and answer only then).
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(head.replace(b"Content-Length: 100", b"Content-Length: 1000"))
            sock.settimeout(0.1)
            answer, sent, ceiling = b"", 0, Ceiling()
            while not answer and not ceiling.passed:
                if sent < 999:
                    sock.sendall(b" ")
                    sent += 1
                try:
                    answer = sock.recv(200)
                except TimeoutError:
                    pass
        assert answer.startswith(b"HTTP/1.1 408 REQUEST TIMEOUT"), (answer, sent)
        assert sent < 999, "answered only once the body had all but come"
        # Neither request got in, and the server answers.
        assert first_line(server.port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n") == (
            "HTTP/1.1 200 OK")


def workers(log: str) -> list[int]:
    return [int(pid) for pid in re.findall(r"Booting worker with pid: (\d+)", log)]


def test_a_sleep_of_the_whole_machine_does_not_stop_the_worker(app, tmp_path):
    """Master and worker stopped together (SIGSTOP: the clock goes on, as in a laptop's
    sleep) for longer than the workers' timeout: the same worker serves on. The worker
    stopped alone for as long is stopped by the master, as a stuck one must be."""
    with served(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path,
                GUNICORN_CMD_ARGS="--timeout 2") as server:
        group = server.process.pid
        worker = workers(server.log_text())[-1]
        for _ in range(2):
            os.killpg(group, signal.SIGSTOP)
            time.sleep(STOOD_STILL + 1)
            os.killpg(group, signal.SIGCONT)
            time.sleep(3)  # more than the timeout, awake
            assert first_line(server.port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n") == (
                "HTTP/1.1 200 OK")
        log = server.log_text()
        assert "WORKER TIMEOUT" not in log and workers(log) == [worker], log[-2000:]
        os.kill(worker, signal.SIGSTOP)
        wait_until(lambda: len(workers(server.log_text())) >= 2,
                   lambda: server.log_text()[-2000:], every=0.2)
        assert "WORKER TIMEOUT" in server.log_text()
        with contextlib.suppress(ProcessLookupError):  # (it was killed)
            os.kill(worker, signal.SIGCONT)


def test_the_master_waits_a_whole_timeout_after_it_finds_it_slept(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr("companion.serving.time.monotonic", lambda: clock[0])
    checked = []
    check = after_a_sleep(lambda: checked.append(clock[0]), lambda: 30)

    def at(seconds: float) -> None:
        clock[0] = seconds
        check()

    for second in range(1001, 1004):
        at(second)
    assert checked == [1001, 1002, 1003]  # awake: a check every round
    at(1073)  # the master stood still for 70 s: the machine slept
    for second in range(1074, 1103):
        at(second)
    assert checked == [1001, 1002, 1003]
    at(1103)
    assert checked[-1] == 1103  # 30 s awake: the worker is checked again
