"""Slips sealed on the device: what the server takes, what it refuses, what it keeps.

A phone's slip form carries the sealing's public key; static/app/slip.js seals the
picked choice to it (tweetnacl) and sends only the sealed slip. These tests seal
as the page says (the helpers of tests/conftest.py, with PyNaCl), and once with
static/app/slip.js itself under node, opened by the server.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlencode

import pytest

from companion.extensions import db
from companion.games.tromplemond.store import vote_status
from companion.store import queries, sealed
from companion.web.vote import PADDED_CHARS, form_length
from tests.conftest import SLIP_FORM, element, sealed_fields
from tests.web.tables import HTMX

pytestmark = pytest.mark.db

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ("Rob", "Sam", "Nick", "Emily")


@pytest.fixture
def table(actions):
    """A Tromplemond game of four, a phone in every seat, the vote open."""
    code = actions.create_table()
    phones = dict(zip(PLAYERS, actions.seat_everyone(code), strict=True))
    actions.start(code)
    opened = actions.post(f"/t/{code}/games/1/tromplemond/vote", {"round": "1"})
    assert opened.status_code == 303
    return code, phones


def round_of(phone, code: str) -> str:
    return element(phone.get(f"/t/{code}/seat/pulse", headers=HTMX).get_data(as_text=True),
                   "round")


def drop(actions, code, phone, fields, **headers):
    return actions.post(f"/t/{code}/games/1/sealed/vote", {"stage": "1", **fields},
                        client=phone, headers=headers)


def current(app, code: str):
    with app.app_context():
        table = db.session.scalar(queries.table_by_code(code))
        return vote_status(table.current_game, 0)


def stored_slips(app) -> dict[str, bytes]:
    with app.app_context():
        return dict(db.session.execute(db.select(sealed.Slip.chooser, sealed.Slip.blob)).all())


def test_the_slip_form_carries_the_sealings_public_key_and_its_chooser(app, table):
    code, phones = table
    key, sealing, chooser = SLIP_FORM.search(round_of(phones["Sam"], code)).groups()
    now = current(app, code)
    assert (int(sealing), chooser) == (now.sealing.id, "Sam")
    assert base64.urlsafe_b64decode(key + "=") == now.sealing.public_key
    html = round_of(phones["Sam"], code)
    assert 'data-testid="unsealed-note"' in html and "<noscript>" in html


def test_a_sealed_slip_is_taken_and_kept_as_sent(app, actions, table):
    code, phones = table
    fields = sealed_fields(round_of(phones["Rob"], code), "Emily")
    response = drop(actions, code, phones["Rob"], fields)
    assert response.status_code == 303
    assert current(app, code).voted == {"Rob"}
    assert stored_slips(app) == {"Rob": sealed.decode_blob(fields["sealed"])}


def test_a_slip_captured_on_the_wire_cannot_be_dropped_by_another_phone(app, actions, table):
    code, phones = table
    robs = sealed_fields(round_of(phones["Rob"], code), "Emily")
    response = drop(actions, code, phones["Sam"], robs)
    assert response.status_code == 403 and "not Sam&#39;s" in response.get_data(as_text=True)
    assert current(app, code).voted == frozenset()
    assert drop(actions, code, phones["Rob"], robs).status_code == 303


def test_a_slip_sealed_for_an_earlier_vote_is_refused(app, actions, table):
    code, phones = table
    old = {name: sealed_fields(round_of(phones[name], code), target)
           for name, target in {"Rob": "Sam", "Sam": "Nick", "Nick": "Emily",
                                "Emily": "Rob"}.items()}
    for name in ("Rob", "Sam", "Nick", "Emily"):  # 1–1–1–1: everyone votes again
        assert drop(actions, code, phones[name], old[name]).status_code == 303
    assert current(app, code).stage == 2
    replayed = actions.post(f"/t/{code}/games/1/sealed/vote", {"stage": "2", **old["Rob"]},
                            client=phones["Rob"])
    assert replayed.status_code == 409 and "sealed for another moment" in \
        replayed.get_data(as_text=True)
    assert current(app, code).voted == frozenset()


@pytest.mark.parametrize(("value", "code_", "message"), [
    ("abc", 400, "could not be read"),
    ("!" * 780, 400, "could not be read"),
    ("A" * 779, 409, "sealed for another moment"),  # the right size, sealed to no key
])
def test_a_sealed_field_that_is_not_a_slip_is_refused(app, actions, table, value, code_,
                                                      message):
    code, phones = table
    before = actions.table(code).version
    response = drop(actions, code, phones["Rob"], {"sealed": value, "choice": "Sam"})
    assert response.status_code == code_ and message in response.get_data(as_text=True)
    assert current(app, code).voted == frozenset()
    assert actions.table(code).version == before, "nothing changed"


def test_sealed_slips_make_bodies_of_one_size_whoever_they_name(actions, table):
    code, phones = table
    token = actions.token(phones["Rob"])
    sizes = set()
    for target in ("Sam", "Nick", "Emily"):
        fields = sealed_fields(round_of(phones["Rob"], code), target)
        sizes.add(len(urlencode({"csrf_token": token, "stage": "1", **fields})))
    assert len(sizes) == 1


def test_without_javascript_the_choices_are_padded_to_one_size(actions, table):
    code, phones = table
    values = re.findall(r'name="choice" value="([^"]*)"', round_of(phones["Rob"], code))
    assert [v.split(" ")[0] for v in values] == ["Sam", "Nick", "Emily"]
    assert {form_length(v) for v in values} == {PADDED_CHARS}
    # As the plain form sends it: the padding comes off, the slip counts.
    response = drop(actions, code, phones["Rob"], {"choice": values[2]})
    assert response.status_code == 303
    assert current(actions.app, code).voted == {"Rob"}


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_slip_sealed_by_slip_js_is_opened_by_the_server(app, actions, table):
    code, phones = table
    if not (ROOT / "node_modules" / "tweetnacl").is_dir():
        pytest.skip("tweetnacl is not in node_modules (npm ci)")
    key, sealing, chooser = SLIP_FORM.search(round_of(phones["Nick"], code)).groups()
    script = ("import nacl from 'tweetnacl/nacl-fast.min.js';"
              "import * as slip from './static/app/slip.js';"
              "const [key, sealing, chooser, choice] = JSON.parse(process.argv[1]);"
              "process.stdout.write(slip.seal(nacl, key, sealing, chooser, choice));")
    sealed_by_js = subprocess.run(
        ["node", "--input-type=module", "-e", script,
         json.dumps([key, int(sealing), chooser, "Emily"])],
        cwd=ROOT, check=True, capture_output=True, text=True, timeout=60).stdout
    response = drop(actions, code, phones["Nick"], {"sealed": sealed_by_js})
    assert response.status_code == 303
    with app.app_context():
        row = db.session.get(sealed.Sealing, int(sealing))
        private = sealed.sealing_keys().private_key(row.public_key)
        assert sealed.open_slip(private, stored_slips(app)["Nick"]) == sealed.OpenedSlip(
            int(sealing), "Nick", "Emily")


def test_a_slip_sealed_to_a_key_a_restart_lost_voids_the_vote_and_says_so(app, actions,
                                                                         table):
    code, phones = table
    assert drop(actions, code, phones["Rob"],
                sealed_fields(round_of(phones["Rob"], code), "Sam")).status_code == 303
    stale = sealed_fields(round_of(phones["Sam"], code), "Nick")
    # The vote's key is lost while this process runs (a Redis key store that restarted): no
    # sweep at a process's first request finds it; the drop itself must.
    public = current(app, code).sealing.public_key
    with app.app_context():
        sealed.sealing_keys().destroy(public)
    before = actions.table(code).version
    response = drop(actions, code, phones["Sam"], stale, **HTMX)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "The server restarted: please vote again." in html and 'data-step="choose"' in html
    assert actions.table(code).version == before + 1
    now = current(app, code)
    assert now.restarted and now.voted == frozenset() and stored_slips(app) == {}


def test_the_tablets_private_slip_is_sealed_for_the_player_without_a_phone(app, actions):
    code = actions.create_table()
    for position in (1, 2, 3):  # Emily has no phone
        actions.claim(code, position)
    actions.start(code)
    actions.post(f"/t/{code}/games/1/tromplemond/vote", {"round": "1"})
    private = f"/t/{code}/games/1/sealed/vote/private"
    page = actions.post(private, {"chooser": "Emily"}).get_data(as_text=True)
    key, sealing, chooser = SLIP_FORM.search(page).groups()
    assert chooser == "Emily"
    fields = sealed_fields(page, "Nick")
    for_sam = sealed_fields(page.replace('data-chooser="Emily"', 'data-chooser="Sam"'), "Nick")
    refused = actions.post(private, {"chooser": "Emily", "stage": "1", **for_sam})
    assert refused.status_code == 403 and "not Emily&#39;s" in refused.get_data(as_text=True)
    dropped = actions.post(private, {"chooser": "Emily", "stage": "1", **fields})
    assert dropped.status_code == 303 and dropped.headers["Location"].endswith("?done=1")
    assert current(app, code).voted == {"Emily"}
    assert stored_slips(app) == {"Emily": sealed.decode_blob(fields["sealed"])}
