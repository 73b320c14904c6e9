"""The rules' facts said in the device's language.

The rules never speak English to a player directly: a refusal is a
:class:`~companion.rules.errors.RuleError` and a line of a round's explanation is a
:class:`~companion.rules.errors.Phrase`, each a stable ``code`` and its facts (names, cards,
numbers, and fragments that are Phrases themselves). Their English is
``errors.MESSAGES[code]``; :func:`say` says the same code in the device's language from
the catalogue, whose entry for a code has the code as its context (``msgctxt``) and the
English as its ``msgid``, so a translator reads both.

:func:`extract_rule_messages` is how ``pybabel extract`` finds those entries
(``babel.cfg``): every code the rules and the layers above them register.
:func:`extract_added_messages` finds those of one module (a game with catalogues of its
own: the codes its rules module adds with ``add_messages``).

A translation is a :meth:`str.format` template with the English's placeholders and these
format specs, said the way the device's language says them (``Babel``'s lists and plural
rules): ``and`` ("A, B et C"), ``or``, ``list``, ``cards``, ``scores``, ``counts``
("3 à 5"), ``holders``, and ``plural:ONE|OTHER`` (the word for the count's plural
category: ``{jacks} {jacks:plural:valet|valets}``). The English-only ``s`` and
``possessive`` are read as the English would in a catalogue that still uses them.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from typing import Any

from babel import Locale
from babel.lists import format_list
from flask_babel import gettext, pgettext

from ..rules import common
from ..rules.errors import MESSAGES, OWNERS, MessageFormatter, Phrase, RuleError
from .device import locale_name

Fact = RuleError | Phrase | str


class _Said(MessageFormatter):
    """The rules' format specs (:class:`MessageFormatter`) in one locale: the specs a
    language says its own way (lists, counts, "none", plurals) said with Babel."""

    def __init__(self, locale: Locale) -> None:
        super().__init__()
        self.locale = locale

    def _list(self, items: Any, style: str) -> str:
        words = [str(item) for item in items]
        return format_list(words, style=style, locale=self.locale) if words else ""

    def format_field(self, value: Any, format_spec: str) -> str:
        spec = format_spec
        if spec in ("and", "possessive"):
            return self._list(value, "standard")
        if spec == "or":
            return self._list(value, "or")
        if spec == "counts":
            return counts_said(value)
        if spec == "holders" and not value:
            return gettext("none")
        if spec.startswith("plural:"):
            one, _, other = spec[len("plural:"):].partition("|")
            return one if self.locale.plural_form(abs(int(value))) == "one" else other
        return super().format_field(value, format_spec)


def counts_said(counts: Any) -> str:
    """How many players in the device's language: ``4``, ``3 to 5`` (``3 à 5``), ``2, 4``."""
    counts = list(counts)
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        return gettext("%(low)s to %(high)s", low=counts[0], high=counts[-1])
    return ", ".join(map(str, counts))


def and_list(names: Any) -> str:
    """Names as a sentence of the device's language says them: "Sam, Nick and Bo",
    "Sam, Nick et Bo", "Sam, Nick und Bo" (English as the rules write it)."""
    words = [str(name) for name in names]
    if locale_name() == "en" or len(words) < 2:
        return common.and_list(words) if words else ""
    return format_list(words, locale=Locale.parse(locale_name()))


def _param(value: Any) -> Any:
    """A param ready to be said: a Phrase or a RuleError in the device's language, and so
    each item of a list or a tuple; anything else as it is."""
    if isinstance(value, (Phrase, RuleError)):
        return say(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_param(item) for item in value)
    return value


def say(fact: Fact | None) -> str:
    """``fact`` (a refusal of the rules, a phrase of an explanation, or text already said)
    in the device's language; English where no catalogue has it.

    English is exactly the rules' own text (``str(fact)``). A translation that does not
    format with the fact's params (a catalogue slip) falls back to that English rather than
    failing the page; ``tests/web/test_words.py`` keeps every catalogue free of such slips.
    """
    if fact is None:
        return ""
    if not isinstance(fact, (Phrase, RuleError)):
        return str(fact)
    language = locale_name()
    if language == "en":
        return str(fact)
    template = pgettext(fact.code, MESSAGES[fact.code])
    try:
        params = {key: _param(value) for key, value in fact.params.items()}
        return _Said(Locale.parse(language)).format(template, **params)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return str(fact)


def sentence(fact: Fact | Exception, *, full_stop: bool = True) -> str:
    """A refusal or a fact said as a sentence on a screen, in the device's language (a rules
    fact said from its code: :func:`say`): a capital first and (unless ``full_stop`` is
    False) a full stop last, where it has none yet. The one place a message shown on its
    own is made a sentence.

    >>> sentence(ValueError("banen: Cy's card: J♠ is not a tarot card"))
    "Banen: Cy's card: J♠ is not a tarot card."
    """
    text = say(fact) if isinstance(fact, (Phrase, RuleError)) else str(fact)
    text = text[:1].upper() + text[1:]
    return text if not full_stop or text.endswith((".", "!", "?")) else text + "."


def _register_every_code() -> None:
    """Import every module of the rules, the web layer and the games, so that each code
    registered with ``errors.add_messages`` is in ``MESSAGES``."""
    for package in ("companion.rules", "companion.web", "companion.games"):
        root = importlib.import_module(package)
        for found in pkgutil.walk_packages(root.__path__, package + "."):
            importlib.import_module(found.name)


def extract_rule_messages(fileobj: Any, keywords: Any, comment_tags: Any,
                          options: Mapping[str, Any]) -> Iterator[tuple[int, str, tuple[str, str],
                                                                        list[str]]]:
    """A ``pybabel extract`` method (``babel.cfg``): each code of ``errors.MESSAGES`` that
    the app's own modules registered, as a ``pgettext(code, english)`` entry, with a
    translator's note on the placeholders."""
    _register_every_code()
    for code in sorted(MESSAGES):
        if not OWNERS.get(code, "companion.").startswith("companion."):
            continue  # a game of its own catalogues (a test's made-up game), imported too
        english = MESSAGES[code]
        note = "Keep each {placeholder}; specs: and, or, list, cards, scores, counts, " \
               "holders, plural:ONE|OTHER (see companion/web/words.py)."
        yield (0, "pgettext", (code, english), [note] if "{" in english else [])


def extract_added_messages(fileobj: Any, keywords: Any, comment_tags: Any,
                           options: Mapping[str, Any]) -> Iterator[tuple[int, str,
                                                                         tuple[str, str],
                                                                         list[str]]]:
    """A ``pybabel extract`` method for one module: each code its ``add_messages({...})``
    calls add (a dict of literal strings), as a ``pgettext(code, english)`` entry, as
    :func:`extract_rule_messages` gives the app's. A game with catalogues of its own names
    its rules module with it in its ``babel.cfg``."""
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "add_messages"
                and node.args and isinstance(node.args[0], ast.Dict)):
            continue
        for key, value in zip(node.args[0].keys, node.args[0].values, strict=True):
            code, english = ast.literal_eval(key), ast.literal_eval(value)
            note = "Keep each {placeholder} (see companion/web/words.py)."
            yield (key.lineno, "pgettext", (code, english), [note] if "{" in english else [])


def register(app: Any) -> None:
    """Give the templates the ``say`` filter (a rules fact in the device's language) and
    ``and_list`` (names joined as the device's language joins them)."""
    app.jinja_env.filters["say"] = say
    app.jinja_env.filters["and_list"] = and_list


__all__ = ["and_list", "counts_said", "extract_added_messages", "extract_rule_messages",
           "register", "say", "sentence"]
