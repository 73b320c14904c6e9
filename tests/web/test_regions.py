"""A live region is one object (``companion.web.regions.REGIONS``): its template, its stamp and
its context; a page includes it by name, and one template carries a page's pulse answer."""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import pytest

from companion.web import regions

pytestmark = pytest.mark.db

ROOT = Path(__file__).resolve().parents[2]
HTMX = {"HX-Request": "true"}


def test_each_region_is_one_object_with_its_template_stamp_and_context(app):
    templates = [region.template for region in regions.REGIONS.values()]
    assert len(templates) == len(set(templates))
    for name, region in regions.REGIONS.items():
        assert region.name == name
        assert (ROOT / "templates" / region.template).is_file(), region.template
        assert region.stamp in regions.STAMPS
        assert callable(region.context)
    assert set(regions.PAGES) == {"tablet", "phone", "game", "join"}
    assert {r.name for r in regions.REGIONS.values() if r.every_answer} == {
        "tablet-round", "phone-round"}


def test_a_page_includes_its_regions_by_name_and_its_pulse_carries_those(app):
    """A page's template names its regions (``region("…")``): the pulse answers with those,
    and every region is shown by some page."""
    with app.test_request_context():
        shown = {page: [r.name for r in regions.regions_of(live.template)]
                 for page, live in regions.PAGES.items()}
    assert shown == {
        "tablet": ["bar", "requests", "tablet-round", "scoreboard", "game-area", "seats"],
        "phone": ["bar", "you", "phone-round", "scoreboard"],
        "game": ["scoreboard"],
        "join": ["join-game", "join"],
    }
    assert {name for names in shown.values() for name in names} == set(regions.REGIONS)


def test_one_pulse_template_and_no_region_included_by_its_file():
    assert sorted(p.name for p in (ROOT / "templates").rglob("*pulse*.html")) == ["_pulse.html"]
    for region in regions.REGIONS.values():
        for page in (ROOT / "templates").rglob("*.html"):
            assert f'include "{region.template}"' not in page.read_text(encoding="utf-8"), page
    source = (ROOT / "companion" / "web" / "regions.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    names = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    # The pages' regions live with the pages that show them.
    assert not names & {"seats_context", "start_problems", "scoreboard_context", "you_context",
                        "join_context", "requests_context"}


def test_a_pulse_answer_carries_the_regions_whose_stamp_changed(actions, client):
    code = actions.create_table()
    phones = actions.seat_everyone(code)
    actions.start(code)
    tablet = client.get(f"/t/{code}/pulse?v=0&s=x&p=x", headers=HTMX).get_data(as_text=True)
    for region in ('id="pulse"', 'id="round"', 'id="scoreboard"', 'id="requests-live"',
                   'id="keeper-live"'):
        assert region in tablet, region
    phone = phones[0].get(f"/t/{code}/seat/pulse?v=0&s=x&p=x", headers=HTMX).get_data(as_text=True)
    assert 'id="round"' in phone and 'id="scoreboard"' in phone and 'id="you-live"' in phone
    assert 'id="keeper-live"' not in phone
    unchanged = client.get(f"/t/{code}/pulse?v=0&" + _stamps(tablet), headers=HTMX)
    unchanged = unchanged.get_data(as_text=True)
    assert 'id="round"' in unchanged and 'id="scoreboard"' not in unchanged
    assert 'id="keeper-live"' not in unchanged


def _stamps(answer: str) -> str:
    """The scoreboard's and seats' stamps an answer's pulse names (its version left out)."""
    query = re.search(r'id="pulse" hidden hx-get="[^"?]*\?([^"]*)"', answer).group(1)
    return "&".join(part for part in html.unescape(query).split("&") if not part.startswith("v="))


def _header(answer: str) -> str | None:
    """The words of the header's game region in a page or a pulse answer (None: not in it)."""
    found = re.search(r'<(?:h1|span) class="bar-title" id="bar-title"[^>]*>([^<]*)<', answer)
    return html.unescape(found.group(1)) if found else None


def _title(answer: str) -> str | None:
    found = re.search(r"<title>([^<]*)</title>", answer)
    return html.unescape(found.group(1)) if found else None


def _pulse_url(answer: str) -> str:
    return html.unescape(re.search(r'id="pulse" hidden hx-get="([^"]*)"', answer).group(1))


def test_the_header_and_title_follow_the_table_on_to_its_next_game(actions):
    """Every phone's header and title name the game the table plays: once the tablet goes
    on to the next game, the next pulse answer brings them again (out of band, the title at
    the top where htmx takes it), and only then."""
    code = actions.create_table(name="Saturday")
    phones = actions.seat_everyone(code)
    actions.start(code)
    pages = [phone.get(f"/t/{code}/seat").get_data(as_text=True) for phone in phones]
    tablet = actions.keeper.get(f"/t/{code}").get_data(as_text=True)
    newcomer = actions.phone()
    joining = newcomer.get(f"/j/{code}").get_data(as_text=True)
    assert re.search(r'id="join-game"[^>]*>Tromplemond<', joining)
    for page in [*pages, tablet]:
        assert _header(page) == "Saturday · Tromplemond"
        assert _title(page) == "Saturday · Tromplemond · The companion"
    # A change that keeps the game brings no header.
    assert actions.post(f"/t/{code}/seats/1/free").status_code == 303
    answer = phones[1].get(_pulse_url(pages[1]), headers=HTMX).get_data(as_text=True)
    assert 'id="round"' in answer and _header(answer) is None and _title(answer) is None

    assert actions.post(f"/t/{code}/games/1/end", {"game": "tremp"}).status_code == 303
    for phone, page in zip(phones[1:], pages[1:], strict=True):
        answer = phone.get(_pulse_url(page), headers=HTMX).get_data(as_text=True)
        assert _header(answer) == "Saturday · Tremp"
        assert re.search(r'id="bar-title"[^>]*hx-swap-oob="true"', answer)
        assert _title(answer) == "Saturday · Tremp · The companion"
        assert answer.index("<title>") < answer.index('id="bar-title"')  # at the top level
    answer = actions.keeper.get(_pulse_url(tablet), headers=HTMX).get_data(as_text=True)
    assert _header(answer) == "Saturday · Tremp"
    assert _title(answer) == "Saturday · Tremp · The companion"
    assert "<h1" in answer  # the tablet's header is its page's heading
    answer = newcomer.get(_pulse_url(joining), headers=HTMX).get_data(as_text=True)
    assert re.search(r'id="join-game"[^>]*hx-swap-oob="true"[^>]*>Tremp<', answer)
    page = phones[2].get(f"/t/{code}/seat").get_data(as_text=True)
    assert _header(page) == "Saturday · Tremp"
    assert _title(page) == "Saturday · Tremp · The companion"
