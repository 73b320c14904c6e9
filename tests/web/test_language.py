"""Each device reads the app in its own language, and numbers and money in its own format."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.frontend import ExtractMessages
from babel.messages.pofile import read_po

from companion.web.device import CATALOGUES, LANGUAGES, compile_catalogues
from companion.web.forms import money_text

from ..conftest import csrf_token

ROOT = Path(__file__).resolve().parents[2]


def lang_of(page: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', page)
    assert found, page[:200]
    return found.group(1)


@pytest.mark.parametrize(("accepted", "lang", "word"), [
    ("fr-FR,fr;q=0.9,en;q=0.5", "fr", "Langue"),
    ("de-CH, en;q=0.3", "de", "Sprache"),
    ("nn-NO", "nb", "Språk"),
    ("no", "nb", "Språk"),
    ("es-ES, it;q=0.8", "en", "Language"),
])
def test_the_page_is_in_the_language_the_browser_asks_for(client, accepted, lang, word):
    page = client.get("/", headers={"Accept-Language": accepted}).get_data(as_text=True)
    assert lang_of(page) == lang
    assert f'<label for="language-choice">{word}</label>' in page


def test_a_device_keeps_the_language_it_chose_whatever_its_browser_says(app, client):
    token = csrf_token(client)
    chosen = client.post("/language", data={"csrf_token": token, "lang": "de",
                                            "next": "/recover?from=home"},
                         headers={"Accept-Language": "fr"})
    assert chosen.status_code == 303 and chosen.headers["Location"] == "/recover?from=home"
    page = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert lang_of(page) == "de" and "Sprache" in page
    assert '<option value="de" lang="de" selected>Deutsch</option>' in page
    other = app.test_client()  # another device at the same table: its own language
    assert lang_of(other.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)) \
        == "fr"


@pytest.mark.parametrize("lang", ["xx", "", "../etc"])
def test_an_unknown_language_changes_nothing(client, lang):
    token = csrf_token(client)
    answer = client.post("/language", data={"csrf_token": token, "lang": lang, "next": "/"})
    assert answer.status_code == 303
    assert client.get_cookie("lang") is None
    assert lang_of(client.get("/").get_data(as_text=True)) == "en"


@pytest.mark.parametrize("back", ["//evil.example/", "https://evil.example/", "\\\\evil", ""])
def test_the_switch_only_sends_back_to_a_page_of_the_app(client, back):
    token = csrf_token(client)
    answer = client.post("/language", data={"csrf_token": token, "lang": "fr", "next": back})
    assert answer.status_code == 303 and answer.headers["Location"] == "/"


def test_the_switch_needs_its_form_token(client):
    assert client.post("/language", data={"lang": "fr", "next": "/"}).status_code == 400
    assert client.get_cookie("lang") is None


@pytest.mark.parametrize(("lang", "amounts"), [
    ("en", ["£1.50", "−€0.05", "+$1,234.50", "1 chip", "15 chips"]),
    ("fr", ["1,50\xa0£GB", "−0,05\xa0€", "+1\u202f234,50\xa0$US", "1 jeton", "15 jetons"]),
    ("de", ["1,50\xa0£", "−0,05\xa0€", "+1.234,50\xa0$", "1 Chip", "15 Chips"]),
    ("nb", ["1,50\xa0£", "−0,05\xa0€", "+1\xa0234,50\xa0USD", "1 sjetong", "15 sjetonger"]),
])
def test_money_is_written_as_the_device_s_language_writes_it(app, lang, amounts):
    with app.test_request_context(headers={"Accept-Language": lang}):
        shown = [money_text(150, "GBP"), money_text(-5, "EUR"),
                 money_text(123450, "USD", sign=True), money_text(1, "chips"),
                 money_text(15, "chips")]
    assert shown == amounts


def test_every_catalogue_translates_every_string_the_app_marks(tmp_path):
    """pybabel finds every marked string; each language's catalogue has them all, none
    left untranslated or fuzzy."""
    template = tmp_path / "messages.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract",
                    "--ignore-dirs=node_modules .* _*", "-F", str(ROOT / "babel.cfg"),
                    "-o", str(template), "."], cwd=ROOT, check=True, capture_output=True)
    with template.open("rb") as source:
        wanted = {message.id if isinstance(message.id, str) else tuple(message.id)
                  for message in read_po(source) if message.id}
    assert len(wanted) >= 10
    for lang in set(LANGUAGES) - {"en"}:
        with (CATALOGUES / lang / "LC_MESSAGES" / "messages.po").open("rb") as source:
            catalogue = read_po(source, locale=lang)
        have = {m.id if isinstance(m.id, str) else tuple(m.id): m for m in catalogue if m.id}
        assert sorted(map(str, wanted - set(have))) == [], f"{lang}: not in the catalogue"
        untranslated = [m.id for m in have.values()
                        if not (all(m.string) if isinstance(m.string, tuple) else m.string)]
        assert untranslated == [], f"{lang}: untranslated"
        assert [m.id for m in have.values() if m.fuzzy] == [], f"{lang}: fuzzy"


def messages_of(template: Path) -> set:
    """The entries of a catalogue template, each as its context and its id (a plural's two
    forms), its header left out."""
    with template.open("rb") as source:
        return {(message.context, message.id if isinstance(message.id, str)
                 else tuple(message.id)) for message in read_po(source) if message.id}


def test_the_committed_template_holds_what_the_app_marks_and_nothing_else(tmp_path):
    """companion/translations/messages.pot is what babel.cfg's extraction makes of the code
    now (its dates and source places aside): a string added to the code is in it, one taken
    out is gone, so ``pybabel update`` from it brings the catalogues up to date."""
    command = ExtractMessages()  # ``pybabel extract``, as babel.cfg says, in this process
    command.initialize_options()
    command.mapping_file = str(ROOT / "babel.cfg")
    command.ignore_dirs = "node_modules .* _*"
    command.input_paths = [str(ROOT)]
    command.output_file = str(tmp_path / "messages.pot")
    command.finalize_options()
    command.run()
    marked = messages_of(tmp_path / "messages.pot")
    committed = messages_of(CATALOGUES / "messages.pot")
    assert len(marked) >= 10
    assert sorted(map(str, marked - committed)) == [], "marked, not in messages.pot (extract)"
    assert sorted(map(str, committed - marked)) == [], "in messages.pot, no longer marked"


def test_a_catalogue_is_compiled_when_its_source_is_newer(tmp_path):
    source = CATALOGUES / "fr" / "LC_MESSAGES" / "messages.po"
    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "messages.po").write_bytes(source.read_bytes())
    assert compile_catalogues(tmp_path) == ["fr"]
    assert (folder / "messages.mo").stat().st_size > 100
    assert compile_catalogues(tmp_path) == []  # up to date: left as it is
