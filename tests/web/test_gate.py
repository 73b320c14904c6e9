"""A server process works on at most a few requests at once; the others wait their turn."""

from __future__ import annotations

import threading
import time

from companion.web.gate import Gate
from tests.conftest import at_once


class Counting:
    """A WSGI app that notes how many requests are inside it at once."""

    def __init__(self, streaming: bool = False) -> None:
        self.inside = self.most = 0
        self.lock = threading.Lock()
        self.streaming = streaming

    def __call__(self, environ, start_response):
        with self.lock:
            self.inside += 1
            self.most = max(self.most, self.inside)
        time.sleep(0.05)  # the app at work (its database's round trips)
        with self.lock:
            self.inside -= 1
        start_response("200 OK", [("Content-Type", "text/plain")])
        if self.streaming:
            return (f"data: {n}\n\n".encode() for n in range(3))
        return [b"done"]


def test_at_most_size_requests_are_worked_on_at_once_and_every_one_is_answered():
    app = Counting()
    gate = Gate(app, 2)

    def send(_n: int) -> int:
        return 200 if b"".join(gate({}, lambda *_: None)) == b"done" else 500

    assert list(at_once(send, range(6)).values()) == [200] * 6
    assert app.most == 2


def test_a_stream_being_sent_holds_no_place():
    gate = Gate(Counting(streaming=True), 1)
    streams = [gate({}, lambda *_: None) for _ in range(3)]  # none read yet: all got in
    assert [b"".join(stream) for stream in streams] == [b"data: 0\n\ndata: 1\n\ndata: 2\n\n"] * 3
