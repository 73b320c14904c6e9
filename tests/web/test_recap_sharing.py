"""Sending the night's recap on from where the table is, through the Flask client.

A phone on the table's Wi-Fi opens the recap over plain http (``http://192.168.1.20:5000``),
where the browser has no share sheet and no clipboard: the picture and the text are there
to download (files, from plain links), and a QR code of the page lets the other phones at
the table open it. The shared text links the recap only at an address that works away from
that Wi-Fi (a configured public address), never at the LAN address ``serve`` falls back to.
An evening of games played for points (no money) says their scores, not "€0.00".

The evenings are imported through the API (``POST /api/evenings``), as a table's own
exported record would be.
"""

from __future__ import annotations

import html
import re

import pytest

from companion.rules import evening as ledger_of
from companion.rules import replay

pytestmark = pytest.mark.db

PLAYERS = ["Ana", "Ben", "Cleo", "Dev"]


def quick(points: int) -> dict:
    return {"points": points, "public_jacks": 0, "secret_jacks": 0}


def tromplemond(fee: int = 0) -> dict:
    """One round; Dev goes off; Ana wins (a game of points unless ``fee`` is given)."""
    options = {"rounds": 1} | ({"joining_fee": fee} if fee else {})
    return {"game": "tromplemond", "players": PLAYERS, "options": options,
            "rounds": [{"hands": {"Ana": quick(30), "Ben": quick(20), "Cleo": quick(10)},
                        "voted_off": "Dev"}]}


def trumplestiltskin() -> dict:
    """One hand of docs/records.md to a target of 5: Ben's 5 wins (Dev, who bid 12 and made
    6, is at −12)."""
    return {"game": "trumplestiltskin", "players": PLAYERS, "first_dealer": "Ana",
            "options": {"target": 5},
            "rounds": [{"bids": [["Ben", 10], ["Cleo", "pass"], ["Dev", 12], ["Ana", "pass"],
                                 ["Ben", "pass"]],
                        "looked": ["Cleo"], "gnome": "9♥",
                        "points": {"Ana": 3, "Ben": 5, "Cleo": 2, "Dev": 6}}]}


def imported(client, games: list[dict]) -> str:
    """The recap's path of a table made of an evening of ``games`` (in euros)."""
    answer = client.post("/api/evenings", json={"unit": "EUR", "games": games})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    code = re.search(r"/t/(\w+)/", answer.get_json()["evening_url"]).group(1)
    return f"/t/{code}/evenings/1/recap"


def page_text(answer) -> str:
    return html.unescape(answer.get_data(as_text=True))


def test_the_picture_and_the_text_download_as_files(client):
    recap = imported(client, [tromplemond(fee=200)])
    code = recap.split("/")[2].lower()
    svg = client.get(recap + ".svg?download=1")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert svg.headers["Content-Disposition"] == f'attachment; filename="recap-{code}-1.svg"'
    assert svg.data.startswith(b"<svg") and b"Tromplemond: won by Ana" in svg.data
    text = client.get(recap + ".txt?download=1")
    assert text.status_code == 200 and text.mimetype == "text/plain"
    assert text.mimetype_params["charset"] == "utf-8"
    assert text.headers["Content-Disposition"] == f'attachment; filename="recap-{code}-1.txt"'
    assert "Cleo pays Ana €2.00" in text.get_data(as_text=True)
    # Shown in the browser, without the query: the page's picture source stays as it was.
    assert "Content-Disposition" not in client.get(recap + ".svg").headers
    assert "Content-Disposition" not in client.get(recap + ".txt").headers


def test_the_page_offers_downloads_and_a_qr_code_of_itself_without_javascript(app, client):
    app.config["PUBLIC_URL"] = "http://192.168.1.20:5000"
    recap = imported(client, [tromplemond(fee=200)])
    page = client.get(recap).get_data(as_text=True)
    for testid, href in (("download-svg", recap + ".svg?download=1"),
                         ("download-text", recap + ".txt?download=1")):
        link = re.search(rf'<a [^>]*data-testid="{testid}"[^>]*>', page).group(0)
        assert f'href="{href}"' in link and "download=" in link and 'hx-boost="false"' in link
        assert " hidden" not in link
        assert client.get(href).status_code == 200
    # Share and copy need a secure page: hidden until recap.js finds them in the browser.
    for testid in ("share-recap", "copy-recap"):
        assert re.search(rf'<button [^>]*hidden[^>]*data-testid="{testid}"', page), testid
    here = f"http://192.168.1.20:5000{recap}"
    assert '<svg role="img" aria-label="QR code of this recap&#39;s address" id="recap-qr"' \
        in page
    assert f'data-testid="recap-address">{here}</a>' in page


def test_the_qr_code_encodes_the_recap_s_address_at_the_table(app, client, monkeypatch):
    from companion.web import qr

    app.config["PUBLIC_URL"] = "http://192.168.1.20:5000"
    recap = imported(client, [tromplemond()])
    encoded = []
    make = qr.qrcode.make
    monkeypatch.setattr(qr.qrcode, "make", lambda data, **kw: encoded.append(data)
                        or make(data, **kw))
    assert client.get(recap).status_code == 200
    assert encoded == [f"http://192.168.1.20:5000{recap}"]


@pytest.mark.parametrize("address", ["", "http://192.168.1.20:5000", "https://10.0.0.5",
                                     "http://localhost:5000", "http://games.local:5000"])
def test_the_shared_text_has_no_link_that_only_works_on_the_table_s_wi_fi(app, client,
                                                                            address):
    app.config["PUBLIC_URL"] = address
    recap = imported(client, [tromplemond(fee=200)])
    for text in (page_text(client.get(recap + ".txt")),
                 re.search(r'data-testid="recap-text" data-text>(.*?)</pre>',
                           page_text(client.get(recap)), re.S).group(1)):
        assert "http" not in text and recap not in text
    assert 'data-testid="no-link"' in client.get(recap).get_data(as_text=True)


def test_the_shared_text_links_the_recap_at_the_public_address(app, client):
    app.config["PUBLIC_URL"] = "https://companion.example.org"
    recap = imported(client, [tromplemond(fee=200)])
    link = f"https://companion.example.org{recap}"
    text = page_text(client.get(recap + ".txt"))
    assert text.rstrip("\n").endswith(f"\n\n{link}")
    page = page_text(client.get(recap))
    assert f"{link}\n</pre>" in page and 'data-testid="no-link"' not in page


def test_a_points_evening_recap_shows_each_game_s_scores(client):
    """Tromplemond without a fee and Trumplestiltskin: no "€0.00", no "who pays whom"; each
    game's totals, its winner first."""
    games = [tromplemond(), trumplestiltskin()]
    ledger = ledger_of({"unit": "EUR", "games": games})
    assert ledger["games"][0]["money"] == {} and ledger["games"][1]["money"] == {}
    recap = imported(client, games)
    text = page_text(client.get(recap + ".txt"))
    picture = page_text(client.get(recap + ".svg"))
    first, second = (replay(game)["totals"] for game in games)
    assert first == {"Ana": 45, "Ben": 40, "Cleo": 35, "Dev": 0}
    assert second == {"Ana": 0, "Ben": 5, "Cleo": 0, "Dev": -12}
    assert "  1. Tromplemond: Ana 45 · Ben 40 · Cleo 35 · Dev 0\n" in text
    # The winner first (the rules' winners), then the totals, highest first.
    assert "  2. Trumplestiltskin: Ben 5 · Ana 0 · Cleo 0 · Dev −12\n" in text
    assert "Trumplestiltskin: won by Ben" in text
    for said in (text, picture):
        assert "€" not in said and "pays" not in said and "square" not in said
        assert "Money tonight" not in said and "Scores" in said
    for name, total in (("Ana", "45"), ("Dev", "−12"), ("Ben", "5")):
        assert f">{name}</text>" in picture and f">{total}</text>" in picture
    print(f"points recap: {text.count(chr(10))} lines of text, SVG {len(picture)} bytes")


def test_a_mixed_evening_keeps_the_money_and_the_points_game_s_scores(client):
    games = [tromplemond(fee=200), trumplestiltskin()]
    recap = imported(client, games)
    text = page_text(client.get(recap + ".txt"))
    assert "Money tonight:" in text and "Cleo pays Ana €2.00" in text
    assert "1. Tromplemond: won by Ana" in text and "2. Trumplestiltskin: won by Ben" in text
    assert "  2. Trumplestiltskin: Ben 5 · Ana 0 · Cleo 0 · Dev −12\n" in text
    assert "1. Tromplemond: Ana" not in text  # its money says it


def test_a_player_of_the_points_games_alone_has_no_money_line(client):
    points = dict(trumplestiltskin(), players=["Ana", "Ben", "Cleo", "Eve"])
    hand = points["rounds"][0]
    hand["points"] = {"Ana": 3, "Ben": 5, "Cleo": 2, "Eve": 6}
    hand["bids"] = [["Ben", 10], ["Cleo", "pass"], ["Eve", 12], ["Ana", "pass"], ["Ben", "pass"]]
    recap = imported(client, [tromplemond(fee=200), points])
    money = page_text(client.get(recap + ".txt")).split("Money tonight:")[1].split("\n\n")[0]
    assert "Ana +€4.00" in money and "Eve" not in money


@pytest.mark.parametrize(("lang", "scores", "money"), [
    ("fr", "Scores :", "L’argent de la soirée"),
    ("de", "Punkte:", "Geld heute Abend"),
    ("nb", "Poeng:", "Penger i kveld"),
])
def test_the_points_recap_is_in_the_device_s_language(client, lang, scores, money):
    recap = imported(client, [tromplemond(), trumplestiltskin()])
    text = page_text(client.get(recap + ".txt", headers={"Accept-Language": lang}))
    assert f"\n{scores}\n" in text and money not in text
    assert "Ben 5 · Ana 0 · Cleo 0 · Dev −12" in text
