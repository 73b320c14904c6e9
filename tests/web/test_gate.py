"""A server process works on at most a few requests at once; the others wait their turn."""

from __future__ import annotations

import threading
import time

import pytest

from companion.door import Gate as Places
from tests import waiting
from tests.conftest import at_once


class Gate:
    """``app`` behind a gate of ``size`` places, as the front door puts the app behind it
    (:meth:`companion.door.Gate.place` around the app's call); the gate's own
    attributes read through."""

    def __init__(self, app, size: int) -> None:
        self.app = app
        self.places = Places(size)

    def __call__(self, environ, start_response):
        with self.places.place(environ):
            return self.app(environ, start_response)

    def __getattr__(self, name: str):
        return getattr(self.places, name)


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


class Held:
    """A WSGI app whose requests stay inside until let go, noting which are inside."""

    def __init__(self) -> None:
        self.inside: list[str] = []
        self.go = threading.Event()
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        with self.lock:
            self.inside.append(environ["REQUEST_METHOD"])
        self.go.wait(waiting.HANG)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"done"]


def wait_until(condition) -> None:
    """Wait until ``condition()`` (the gate let the request in), up to the hang ceiling."""
    waiting.wait_until(condition, "the gate never let the request in", every=0.005)


def sending(gate: Gate, method: str) -> threading.Thread:
    """A request sent to the gate from a thread of its own (started)."""
    thread = threading.Thread(target=lambda: gate({"REQUEST_METHOD": method}, lambda *_: None))
    thread.start()
    return thread


def tap_inside(app: Held, gate: Gate) -> threading.Thread:
    """A tap sent to the gate, once it is inside (held there until ``app.go``)."""
    tap = sending(gate, "POST")
    wait_until(lambda: app.inside == ["POST"])
    return tap


def test_changes_leave_a_place_for_the_screens_polls():
    app = Held()
    gate = Gate(app, 2)
    taps = [tap_inside(app, gate), sending(gate, "POST")]
    poll = sending(gate, "GET")  # the second tap waits; the poll comes after it and gets in
    wait_until(lambda: app.inside == ["POST", "GET"])
    app.go.set()
    for thread in (*taps, poll):
        thread.join(waiting.HANG)
    assert app.inside == ["POST", "GET", "POST"]


def test_a_waiting_tap_goes_in_before_the_polls_that_came_before_it():
    app = Held()
    gate = Gate(app, 1)
    first = tap_inside(app, gate)
    poll = sending(gate, "GET")
    wait_until(lambda: len(gate._requests) == 1)
    tap = sending(gate, "POST")  # it comes after the poll, and goes in before it
    wait_until(lambda: len(gate._requests) == 2)
    app.go.set()
    for thread in (first, poll, tap):
        thread.join(waiting.HANG)
    assert app.inside == ["POST", "POST", "GET"]


def test_a_gate_of_one_place_still_lets_changes_in():
    app = Counting()
    gate = Gate(app, 1)
    assert b"".join(gate({"REQUEST_METHOD": "POST"}, lambda *_: None)) == b"done"


def test_a_streams_answer_waits_while_a_request_waits():
    app = Held()
    gate = Gate(app, 1)
    tap = tap_inside(app, gate)

    def push() -> None:
        with gate.reading():
            with app.lock:
                app.inside.append("push")

    pushes = [threading.Thread(target=push) for _ in range(2)]
    for thread in pushes:
        thread.start()
    wait_until(lambda: len(gate._later) == 2)
    poll = sending(gate, "GET")  # it comes after the pushes, and goes in before them
    wait_until(lambda: len(gate._requests) == 1)
    app.go.set()
    for thread in (tap, *pushes, poll):
        thread.join(waiting.HANG)
    assert app.inside == ["POST", "GET", "push", "push"]


def test_a_wait_cut_short_leaves_the_places_as_they_were(monkeypatch):
    app = Held()
    gate = Gate(app, 1)
    tap = tap_inside(app, gate)

    class Killed(Exception):
        """What gevent raises in a greenlet killed while it waits (a phone gone)."""

    def killed(*_args, **_kwargs):
        raise Killed

    monkeypatch.setattr(threading.Event, "wait", killed)
    with pytest.raises(Killed), gate.reading():
        raise AssertionError("it went in while the tap held the place")
    monkeypatch.undo()
    assert not gate._later  # it no longer waits, and will never be let in
    app.go.set()
    tap.join(waiting.HANG)
    assert b"".join(gate({"REQUEST_METHOD": "GET"}, lambda *_: None)) == b"done"
    assert gate._inside == 0  # the tap's place given back, and the poll's


def test_a_request_stepping_out_lets_the_others_in_and_goes_back_in_first():
    """A request gives its place up for work that needs neither the database nor the
    interpreter (a slow hash: ``set_aside``); the others go in meanwhile, and it goes back
    in ahead of those that came while it was out."""
    from companion.door import TURN

    seen: list[str] = []
    out, done, b_may_leave = threading.Event(), threading.Event(), threading.Event()

    def app(environ, start_response):
        name = environ["name"]
        seen.append(name)
        if name == "A":
            with gate.stepping_out(environ[TURN]):
                out.set()
                done.wait(30)
            seen.append("A back")
        elif name == "B":
            b_may_leave.wait(30)
        start_response("200 OK", [])
        return [b""]

    gate = Gate(app, 1)

    def send(name: str) -> threading.Thread:
        thread = threading.Thread(target=lambda: gate({"REQUEST_METHOD": "POST", "name": name},
                                                      lambda *_: None))
        thread.start()
        return thread

    a = send("A")
    assert out.wait(30)
    b = send("B")  # in at once: A is out
    wait_until(lambda: seen == ["A", "B"])
    c = send("C")  # waits: B holds the place
    wait_until(lambda: len(gate._requests) == 1)
    done.set()  # A's work is done: it waits to go back in, ahead of C
    wait_until(lambda: len(gate._requests) == 2)
    b_may_leave.set()
    for thread in (a, b, c):
        thread.join(waiting.HANG)
    assert seen == ["A", "B", "A back", "C"]
    assert gate._inside == 0 and not gate._requests
