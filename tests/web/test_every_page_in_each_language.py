"""Every page of every phase of every registered game reads in French, German and
Norwegian: no word of the English interface is left, and numbers and money are written as
the language writes them.

Each phase of ``tests.web.phases`` (each registered game's, from its test helper: the
set-up, the dealing, each game's own moments, the game over, the evening closed, an
imported evening; a game with no helper, its set-up only) is made once; then every page of
the table a browser can open (each GET route of the app but the feeds, the files and the
records for machines) is read by the scorekeeper's tablet and by a seated phone, with each
language chosen on the device. The words looked for are the English catalogues' (the app's
``messages.pot`` and each game's own, where its registry entry says: every marked string
and every rules phrase), longer than three letters, less those that are also words of that
language (they appear in its own catalogues: "Tarot", "Total", "Chips", or in its names of
the currencies: "Real") and the games' own words, which every language keeps.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from html.parser import HTMLParser

import pytest
from babel import Locale
from babel.messages.pofile import read_po

from companion.rules import GAMES
from companion.rules.games import registered
from companion.web.device import catalogue_folders
from companion.web.games import load_flows
from tests.web.phases import PHASES, Phase, helper_of

LANGS = ("fr", "de", "nb")

GAME_WORDS = {
    "tromplemond", "clumond", "trumplestiltskin", "trefeltromp", "tremp", "petit", "moyenne",
    "grand", "fyrsturkalla", "banenkalla", "banen", "fyrst", "kalla", "tarot", "excuse",
}
"""Words of the games themselves, kept in every language (each catalogue's README says so)."""

NAMES = {"emily", "nick", "friday", "night", "large", "imported"}
"""Player and table names the test tables use (``Rob``, ``Sam``, …: those of three letters
or fewer are not looked for), and the names of the test tables and evenings (a table
imported through the API is named in the language of that request, English here: "Large
(imported)", a name that stays as it was made whoever reads it)."""

SKIPPED = re.compile(r"/(events|pulse|record\.json|evening\.json|lines\.csv|recap\.(svg|txt))$"
                     r"|^/(static|sw\.js|manifest|theme)")
"""Routes that are not pages: the live feeds, the files for machines and the switches."""

ATTRIBUTES = ("aria-label", "title", "placeholder", "alt", "data-confirm")
"""The attributes whose text a player reads or hears."""

_URL = re.compile(r"https?://\S+")
_WORD = re.compile(r"[A-Za-z][a-z]{3,}")
_PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|\{[^{}]*\}|<[^<>]*>")


class _Text(HTMLParser):
    """The text a player reads on a page: its text nodes (not scripts or styles) and the
    text of :data:`ATTRIBUTES`; none of an element marked ``lang="en"`` (the language
    switch names English in English) or ``translate="no"``."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
            "source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[bool] = []

    def handle_starttag(self, tag, attrs) -> None:
        values = dict(attrs)
        hidden = (tag in ("script", "style", "template") or values.get("lang") == "en"
                  or values.get("translate") == "no" or (bool(self.stack) and self.stack[-1]))
        if not hidden:
            self.parts.extend(str(values[name]) for name in ATTRIBUTES if values.get(name))
        if tag not in self.VOID:
            self.stack.append(hidden)

    def handle_endtag(self, tag) -> None:
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data) -> None:
        if not (self.stack and self.stack[-1]):
            self.parts.append(data)


def page_text(html: str) -> str:
    """What a player reads (or hears) on the page ``html`` (less its addresses: a link to
    share is written as it is)."""
    reader = _Text()
    reader.feed(html)
    return " ".join(_URL.sub(" ", " ".join(reader.parts)).split())


def _words(text: str) -> set[str]:
    return {word.lower() for word in _WORD.findall(_PLACEHOLDER.sub(" ", text))}


def english_words(lang: str) -> frozenset[str]:
    """The interface's English words (over three letters) that ``lang`` does not also use:
    those of the app's catalogues and of each registered game's own."""
    return _english_words(lang, tuple(catalogue_folders()), tuple(GAMES))


@cache
def _english_words(lang: str, folders: tuple, games: tuple) -> frozenset[str]:
    english: set[str] = set()
    theirs: set[str] = set()
    for folder in folders:
        with (folder / "messages.pot").open("rb") as source:
            template = read_po(source)
        for message in template:
            if message.id:
                for text in (message.id if isinstance(message.id, tuple) else (message.id,)):
                    english |= _words(text)
        own = folder / lang / "LC_MESSAGES" / "messages.po"
        if not own.is_file():
            continue
        with own.open("rb") as source:
            for message in read_po(source):
                for text in (message.string if isinstance(message.string, tuple)
                             else (message.string,)):
                    theirs |= _words(text or "")
    for game in games:  # each game's rules text in the language, where its registry entry says
        rules = registered(game).translated(lang)
        if rules is not None:
            theirs |= _words(rules.read_text(encoding="utf-8"))
    # the currencies' names as Babel writes them in the language (the money select's)
    theirs |= _words(" ".join(Locale.parse(lang).currencies.values()))
    return frozenset(english - theirs - GAME_WORDS - set(games) - NAMES)


def english_left(html: str, lang: str) -> list[str]:
    """The words of the English interface on the page ``html`` read in ``lang``."""
    found = _WORD.findall(page_text(html))
    return sorted({word for word in found if word.lower() in english_words(lang)})


def in_context(html: str, word: str) -> str:
    """Where ``word`` is on the page: the text around its first place."""
    text = page_text(html)
    found = re.search(rf"\b{re.escape(word)}\b", text)
    return text[max(0, found.start() - 40):found.end() + 40] if found else ""


ENGLISH_MONEY = re.compile(r"[£€$]\d|\d\.\d\d\b")
"""Money as English writes it (the symbol first, a decimal point): none of the three
languages does."""

ENGLISH_DATE = re.compile(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b|\b\d{1,2} (Jan|Feb|Mar|Apr|May|"
                          r"Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b")
"""A date as English writes it ("Sat 28 Nov 2026")."""


def _pages(app, phase: Phase, place) -> list[tuple[str, str]]:
    """Each page of the table in ``phase`` as (who reads it, path)."""
    flows = load_flows()
    steps = list(flows[phase.game].sealed_steps) or ["none"]
    values = {"code": [place.code], "number": ["1"], "game_number": ["1"],
              "position": [str(place.seat), "1"], "round_number": ["1"],
              "hand_number": ["1"], "step": steps}
    paths: list[str] = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or SKIPPED.search(rule.rule):
            continue
        if "code" not in rule.arguments or not set(rule.arguments) <= values.keys():
            continue  # (the pages of no table: test_the_pages_of_no_table_...)
        owner = rule.endpoint.split(".")[0]
        if owner in flows and owner != phase.game:
            continue  # another game's own pages: not this table's
        found = [rule.rule]
        for name in rule.arguments:
            found = [re.sub(rf"<(?:[^>:]+:)?{name}>", value, path)
                     for path in found for value in values[name]]
        paths.extend(found)
    return [(who, path) for path in sorted(set(paths)) for who in ("tablet", "phone")]


@pytest.mark.parametrize("phase", PHASES, ids=str)
def test_every_page_reads_in_each_language(app, actions, phase):
    """Each page of the phase, on the tablet and on a seated phone, in each language: no
    English word of the interface, and no money, decimal or date written the English way."""
    read_in_each_language(app, actions, phase)


def read_in_each_language(app, actions, phase: Phase) -> None:
    """Every page of a table in ``phase``, on the tablet and on a seated phone, read in
    each language: fails with each English word, English number and English date found."""
    place = phase.build(actions)
    readers = {"tablet": actions.keeper, "phone": place.phone}
    read = Counter()
    problems: list[str] = []
    for who, path in _pages(app, phase, place):
        client = readers[who]
        client.set_cookie("lang", "en")
        client.get(path)  # drawn in English first: a moment shared by the table's screens
        #                   must not keep the words of the screen that drew it first
        for lang in LANGS:
            client.set_cookie("lang", lang)
            answer = client.get(path)
            if answer.status_code != 200 or answer.mimetype != "text/html":
                continue
            html = answer.get_data(as_text=True)
            read[lang] += 1
            if "<html" in html and f'<html lang="{lang}"' not in html:
                problems.append(f"{lang} {who} {path}: the page does not say it is in {lang}")
            left = english_left(html, lang)
            if left:
                problems.append(f"{lang} {who} {path}: {', '.join(left)} "
                                f"(as in {in_context(html, left[0])!r})")
            money = ENGLISH_MONEY.findall(page_text(html))
            if money:
                problems.append(f"{lang} {who} {path}: English-style numbers {money}")
            dates = [found.group() for found in ENGLISH_DATE.finditer(page_text(html))]
            if dates:
                problems.append(f"{lang} {who} {path}: English dates {dates}")
    for client in readers.values():
        client.set_cookie("lang", "en")
    assert min(read.values(), default=0) >= 5, f"only {dict(read)} pages read in {phase}"
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_the_pages_of_no_table_read_in_each_language(client, lang):
    """Home, a new table, taking a table back, the games and their rules, the
    import and the offline page."""
    read_pages_of_no_table(client, lang)


@pytest.mark.parametrize("game", GAMES)
def test_each_game_s_pages_are_read_in_each_of_its_phases(game):
    """The sweep reads each registered game's tables in its own phases (its test helper's,
    ``tests.web.phases``); a game with no helper is read at its set-up only, and this says
    so."""
    if helper_of(game) is None:
        pytest.skip(f"{game} has no test helper: its pages are read at its set-up only")
    assert len([phase for phase in PHASES if phase.game == game]) >= 3


def read_pages_of_no_table(client, lang: str) -> None:
    """The pages of no table read in ``lang`` (each registered game's rules page among
    them): fails with each English word found."""
    client.set_cookie("lang", lang)
    paths = ["/", "/new", "/recover", "/rules", "/import", "/offline",
             *(f"/rules/{game}" for game in load_flows())]
    english_texts = english_rules_texts(lang)
    problems = []
    for path in paths:
        answer = client.get(path)
        assert answer.status_code == 200, path
        left = english_left(answer.get_data(as_text=True), lang)
        if path == "/rules" or path.removeprefix("/rules/") in english_texts:
            left = [word for word in left  # a text the game lacks is read in English
                    if word.lower() not in english_texts.get(path.removeprefix("/rules/"),
                                                             set().union(*english_texts.values()))]
        if left:
            problems.append(f"{path}: {', '.join(left)}")
    assert not problems, "\n".join(problems)


def english_rules_texts(lang: str) -> dict[str, set[str]]:
    """The games with no rules text in ``lang`` (their registry entry says where their
    texts are), each with the words of its English text, which its rules page and the
    games page show instead (none for the five games: each has its text in each
    language)."""
    found = {}
    for game in GAMES:
        entry = registered(game)
        if entry.translated(lang) is None and entry.translated("en"):
            found[game] = _words(entry.translated("en").read_text(encoding="utf-8"))
    return found


def test_the_check_finds_english_left_in_a_page():
    """The check itself: an English button on a French page is found; the same page in
    French, a game's word and an English language name marked as such are not."""
    words = english_words("fr")
    assert {"confirm", "scorekeeper", "round"} <= words  # (not French words)
    assert "total" not in words and "tromplemond" not in words  # (French too; a game's)
    assert english_left("<p>Confirm</p>", "fr") == ["Confirm"]
    assert english_left('<button aria-label="Undo the last round">↶</button>', "fr")
    assert english_left('<p>Tromplemond !</p><option lang="en">English</option>', "fr") == []
    assert english_left("<script>const text = 'Confirm';</script>", "fr") == []


