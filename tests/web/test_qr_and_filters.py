"""The join QR encodes the join URL; cards, halves and money are shown as players read them."""

from __future__ import annotations

import pytest
from markupsafe import Markup

from companion.web import qr
from companion.web.filters import card, cards, number, signed, suit


def test_join_url_is_the_public_url_plus_the_join_path(app):
    with app.test_request_context("/", base_url="http://localhost:5000"):
        table = type("T", (), {"code": "K7TQ2MXB"})()
        assert qr.join_url(table) == "http://localhost:5000/j/K7TQ2MXB"
        app.config["PUBLIC_URL"] = "http://192.168.1.20:5000"
        assert qr.join_url(table) == "http://192.168.1.20:5000/j/K7TQ2MXB"


@pytest.mark.db
def test_the_qr_code_on_the_screen_encodes_the_join_url(app, client, actions, monkeypatch):
    app.config["PUBLIC_URL"] = "http://192.168.1.20:5000"
    encoded = []
    make = qr.qrcode.make
    monkeypatch.setattr(qr.qrcode, "make", lambda data, **kw: encoded.append(data)
                        or make(data, **kw))
    code = actions.create_table()
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert encoded == [f"http://192.168.1.20:5000/j/{code}"]
    assert f'<a id="join-url" href="http://192.168.1.20:5000/j/{code}"' in html
    assert '<svg role="img" aria-label="QR code of the join link" id="join-qr"' in html


def test_qr_svg_is_paths_only():
    svg = str(qr.qr_svg("http://192.168.1.20:5000/j/K7TQ2MXB"))
    assert svg.startswith("<svg ") and svg.endswith("</svg>")
    assert "<path" in svg and "<?xml" not in svg
    assert "href" not in svg and "style=" not in svg and "<script" not in svg


@pytest.mark.parametrize(("typed", "shown"), [
    ("10h", '<span class="card red">10♥</span>'),
    ("QD", '<span class="card red">Q♦</span>'),
    ("K♠", '<span class="card black">K♠</span>'),
    ("jc", '<span class="card black">J♣</span>'),
    ("xxi", '<span class="card trump">XXI</span>'),
    ("red joker", '<span class="card red">red joker</span>'),
    ("<i>", '<span class="card">&lt;i&gt;</span>'),
])
def test_cards_show_their_suit_in_colour(typed, shown):
    assert card(typed) == Markup(shown)


def test_several_cards_and_a_suit():
    assert str(cards(["AS", "10D"])) == ('<span class="card black">A♠</span> '
                                         '<span class="card red">10♦</span>')
    assert str(suit("♥")) == '<span class="suit red">♥</span>'
    assert str(suit("<b>")) == '<span class="suit none">&lt;b&gt;</span>'


def test_the_filters_are_in_the_templates(app):
    with app.app_context():
        template = app.jinja_env.from_string("{{ '10h'|card }} {{ 7.5|number }} {{ 5|signed }}")
        assert template.render() == '<span class="card red">10♥</span> 7½ +5'


@pytest.mark.parametrize(("value", "shown"), [
    (12, "12"), (-9, "−9"), (7.5, "7½"), (-0.5, "−½"), (0.25, "¼"), (3.75, "3¾"),
    (0.0625, "1/16"), (2.0, "2"), ("n/a", "n/a")])
def test_numbers_keep_halves_exact(value, shown):
    assert number(value) == shown


def test_money_has_a_sign():
    assert (signed(12), signed(-3), signed(0)) == ("+12", "−3", "0")
