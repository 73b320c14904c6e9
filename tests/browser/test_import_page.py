"""A French tablet imports a game from a file, at the shipped import limits.

The scorekeeper picks a file that is not JSON, then one the rules refuse, then the good one,
through the page's file input and its Import button. Each refusal is said in French on the
import page, with the form to pick again and no word of the English interface; the good file
after the two bad ones is taken (two refusals do not use up the imports of the minute), and
the tablet is the scorekeeper of a table named in French after the game.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from companion import config
from companion.extensions import limiter
from tests.web.test_every_page_in_each_language import english_left
from tests.web.test_import_page import CLUMOND, TRICKS_15

NOT_READ = ("Ce fichier n'est pas une feuille de partie ni de soirée : il n'a pas pu être lu. "
            "Choisissez le fichier .json exporté par le compagnon.")
RULES = ("Les règles refusent cette feuille, donc rien n'a été créé. Manche 1 : les plis font "
         "15 au total, pas 13. Corrigez cela dans le fichier, ou choisissez celui que le "
         "compagnon a exporté.")


@pytest.fixture
def shipped_import_limits(live_wsgi):
    """The import limits as shipped, counted afresh (the other browser tests relax them, and
    import from the same address); relaxed again after."""
    app = live_wsgi.app
    relaxed = {key: app.config[key] for key in ("API_LIMIT", "REFUSED_IMPORT_LIMIT")}
    app.config.update(API_LIMIT=config.IMPORT_LIMIT,
                      REFUSED_IMPORT_LIMIT=config.REFUSED_IMPORT_LIMIT)
    limiter.reset()
    yield
    app.config.update(relaxed)
    limiter.reset()


def pick(page, body: bytes) -> None:
    """Pick ``body`` as record.json in the page's file input, and press Import."""
    page.get_by_test_id("record-file").set_input_files(
        {"name": "record.json", "mimeType": "application/json", "buffer": body})
    page.get_by_test_id("import").click()


def refused_in_french(page, message: str, console_errors) -> None:
    """The import page again, saying ``message``, in French, with its form to pick again."""
    expect(page.get_by_test_id("error")).to_have_text(message)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_test_id("record-file")).to_be_visible()
    assert not english_left(page.content(), "fr")
    # A refusal is a 400, whose status the browser logs, as it should.
    console_errors[:] = [e for e in console_errors if "status of 400" not in e]


def test_a_french_tablet_is_refused_in_french_and_takes_the_good_file_after_two_bad(
        new_context, shipped_import_limits, console_errors, screenshot):
    tablet = new_context("tablet", locale="fr-FR").new_page()
    tablet.goto("/import")
    expect(tablet.locator("h1")).to_have_text("Importer une partie ou une soirée")

    pick(tablet, b'{"game": "clumond", "players": ["Ann",, "Bo"]}')
    refused_in_french(tablet, NOT_READ, console_errors)
    pick(tablet, json.dumps(TRICKS_15).encode())
    refused_in_french(tablet, RULES, console_errors)
    screenshot(tablet, "refused-in-french")

    pick(tablet, json.dumps(CLUMOND).encode())
    expect(tablet).to_have_url(re.compile(r"/t/[A-Z0-9]+$"))
    expect(tablet.locator("html")).to_have_attribute("lang", "fr")
    expect(tablet.get_by_text("Clumond (importé)").first).to_be_visible()
