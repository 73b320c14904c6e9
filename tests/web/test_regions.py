"""The live regions are declared once (``companion.web.regions.REGIONS``), and one
template carries a page's pulse answer."""

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


def test_each_region_is_declared_once_with_its_template_stamp_and_pages(app):
    seen = set()
    for region in regions.REGIONS:
        assert (region.template, region.pages) not in seen
        seen.add((region.template, region.pages))
        assert (ROOT / "templates" / region.template).is_file(), region.template
        assert region.made_from in {"v", "s", "p"}
        assert region.pages <= set(regions.PAGES), region  # every page says its context
    assert set(regions.PAGES) == {"tablet", "phone", "game", "join"}
    assert {r.name for r in regions.REGIONS if r.every_answer} == {"round"}


def test_one_pulse_template_and_no_region_list_elsewhere():
    assert sorted(p.name for p in (ROOT / "templates").rglob("*pulse*.html")) == ["_pulse.html"]
    source = (ROOT / "companion" / "web" / "regions.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    names = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    # The pages' contexts live with the pages that show them.
    assert not names & {"keeper_context", "seat_context", "join_context", "game_page_context",
                        "seats_context", "start_problems", "tablet_pulse", "phone_pulse"}


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
