"""Issue 38: a page with a kept tap asks the server whether it is there (``GET /taps/here``),
and a page marks itself out of date within seconds of its stream going silent (the server's
heartbeat, which the page's sync.js mirrors)."""

from __future__ import annotations

import re
from pathlib import Path

from companion.live import streams
from companion.web.taps import HERE

ROOT = Path(__file__).resolve().parents[2]


def test_the_server_says_it_is_there_with_an_empty_answer_never_stored(client):
    answer = client.get(HERE)
    assert answer.status_code == 204
    assert answer.get_data() == b""
    assert answer.headers["Cache-Control"] == "no-store"  # a stored answer would lie


def test_asking_whether_the_server_is_there_opens_no_session_and_writes_nothing(client):
    answer = client.get(HERE)
    assert "Set-Cookie" not in answer.headers, "a probe every 2 s: no cookie, no session"


def test_the_page_expects_the_heartbeat_the_server_sends():
    sync = (ROOT / "static" / "app" / "sync.js").read_text(encoding="utf-8")
    said = int(re.search(r"export const HEARTBEAT_MS = (\d+);", sync).group(1))
    assert said == streams.HEARTBEAT * 1000
    taps = (ROOT / "static" / "app" / "taps.js").read_text(encoding="utf-8")
    assert f'HERE_URL = "{HERE}"' in taps
    assert streams.HEARTBEAT <= 2, "a silent stream is noticed within 5 s"
