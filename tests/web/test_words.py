"""The rules' refusals and phrases are said in each device's language.

Every code the rules (and the layers above them) register has an entry in each catalogue,
with the same facts as its English and only the format specs the web layer knows, and it
says itself with facts of the right kinds; a refusal whose facts are phrases says those in
the same language.
"""

from __future__ import annotations

import json
import string
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.pofile import read_po

from companion.rules.errors import MESSAGES, Phrase, RuleError
from companion.web import words
from companion.web.device import CATALOGUES
from companion.web.words import _Said, and_list, counts_said, say

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("fr", "de", "nb")
SAME_IN_EVERY_LANGUAGE = {f"field.{key}" for key in (
    "banned", "buys", "called", "calls", "chip_value", "deal", "dealer_forfeit", "hands",
    "leave", "shows", "void", "votes")}
"""Codes that name a key of a game record (``chip_value``, ``void``): a record is written
with those keys whatever the language, so a message names them as they are typed."""
SPECS = {"", "and", "or", "list", "cards", "scores", "counts", "holders"}
"""The format specs a translation may use (and ``plural:ONE|OTHER``)."""


def _every_code() -> list[str]:
    """The codes the app registers (its rules and its web layer), read in a fresh
    interpreter as ``pybabel extract`` reads them: a test's own game (``tests/web/sixth``)
    registers codes of its own in this one."""
    found = subprocess.run(
        [sys.executable, "-c", "import json; from companion.web import words; "
         "words._register_every_code(); print(json.dumps(sorted(words.MESSAGES)))"],
        capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(found.stdout)


CODES = _every_code()
words._register_every_code()  # (the English of every code, here too)


@cache
def catalogue(lang: str) -> dict[str, str]:
    """``lang``'s translation of each rules code (its ``msgctxt``)."""
    with (CATALOGUES / lang / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return {message.context: message.string for message in read_po(source)
                if message.context}


def fields(template: str) -> dict[str, set[str]]:
    """Each placeholder of a template and the format specs it is written with."""
    found: dict[str, set[str]] = {}
    for _text, name, spec, _conversion in string.Formatter().parse(template):
        if name is not None:
            found.setdefault(name, set()).add(spec or "")
    return found


def sample(english: str) -> dict[str, object]:
    """Facts of the kinds the English template says them with."""
    facts: dict[str, object] = {}
    for name, specs in fields(english).items():
        if specs & {"scores", "holders"}:
            facts[name] = [("Ann", 3), ("Bo", 2)]
        elif "counts" in specs:
            facts[name] = [3, 4, 5]
        elif specs & {"and", "or", "list", "cards", "possessive"}:
            facts[name] = ["Ann", "Bo", "Cy"]
        elif "s" in specs:
            facts[name] = 2
        else:
            facts[name] = 7
    return facts


@pytest.mark.parametrize("lang", LANGS)
def test_every_rules_code_is_translated_with_the_same_facts(lang):
    """Each code: translated, the English's placeholders all kept and no other, and only
    the specs the web layer says in every language."""
    translated = catalogue(lang)
    problems = []
    for code in CODES:
        english, theirs = MESSAGES[code], translated.get(code, "")
        if not theirs:
            problems.append(f"{code}: not translated")
            continue
        mine, them = fields(english), fields(theirs)
        if set(mine) != set(them):
            problems.append(f"{code}: facts {sorted(them)} instead of {sorted(mine)}")
        bad = {spec for specs in them.values() for spec in specs
               if spec not in SPECS and not spec.startswith("plural:")}
        if bad:
            problems.append(f"{code}: English-only specs {sorted(bad)}")
    assert not problems, f"{len(problems)} of {len(CODES)}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_every_rules_code_says_itself_in_each_language(app, lang):
    """Each code, with facts of the right kinds, says a sentence in ``lang`` (not the
    English, but for a sentence that is only its facts)."""
    problems = []
    with app.test_request_context(headers={"Cookie": f"lang={lang}"}):
        for code in CODES:
            english = MESSAGES[code]
            facts = sample(english)
            said = say(Phrase(code, facts))
            words = "".join(text for text, *_ in string.Formatter().parse(english))
            if not said.strip():
                problems.append(f"{code}: empty")
            elif said == str(Phrase(code, facts)) and any(c.isalpha() for c in words) \
                    and code not in SAME_IN_EVERY_LANGUAGE:
                problems.append(f"{code}: still English: {said}")
    assert not problems, "\n".join(problems)


def test_a_refusal_and_its_phrases_are_said_in_the_devices_language(app):
    """A refusal naming a round and a bid: all of it in French on a French device, and
    exactly the rules' English on an English one."""
    error = RuleError("bid.out_of_turn", label=Phrase("phrase.round", {"number": 3}),
                      name="Sam", did=Phrase("phrase.passed_word"), turn="Bo")
    with app.test_request_context(headers={"Cookie": "lang=en"}):
        assert say(error) == str(error) == "round 3: Sam passed out of turn; it was Bo's turn"
    with app.test_request_context(headers={"Cookie": "lang=fr"}):
        said = say(error)
    assert "round" not in said and "turn" not in said
    assert "3" in said and "Sam" in said and "Bo" in said


@pytest.mark.parametrize(("lang", "names", "counts"), [
    ("en", "Ann, Bo and Cy", "3 to 5"),
    ("fr", "Ann, Bo et Cy", "3 à 5"),
    ("de", "Ann, Bo und Cy", "3 bis 5"),
    ("nb", "Ann, Bo og Cy", "3 til 5"),
])
def test_names_and_player_counts_as_each_language_says_them(app, lang, names, counts):
    with app.test_request_context(headers={"Cookie": f"lang={lang}"}):
        assert and_list(["Ann", "Bo", "Cy"]) == names
        assert counts_said(range(3, 6)) == counts
        assert counts_said([4]) == "4"


def test_a_count_says_its_own_plural_word(app):
    """``{n:plural:ONE|OTHER}``: the word of the count's plural category in the language
    (French says 0 and 1 in the singular)."""
    said = _Said(Locale.parse("fr"))
    assert said.format("{n} {n:plural:valet|valets}", n=1) == "1 valet"
    assert said.format("{n} {n:plural:valet|valets}", n=0) == "0 valet"
    assert said.format("{n} {n:plural:valet|valets}", n=2) == "2 valets"
    assert _Said(Locale.parse("de")).format("{n:plural:Bube|Buben}", n=0) == "Buben"
