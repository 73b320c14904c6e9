"""The rules text the project carries (each game's texts, docs/) says what the rules code does.

- every game in ``companion.rules.GAMES`` has its page, companion/games/<game>/texts/en.md;
- every reading in a rules module's docstring is on its page, marked as a
  house decision with the exact text ``**(house)**`` the app badges;
- the pages keep to the Markdown the app renders (Python-Markdown with tables);
- the numbers, tables and worked examples on the pages agree with the code;
- docs/records.md gives every game's options with their defaults, and its
  whole-record examples replay;
- nothing in docs/ or companion/ cites rule or design files outside the
  project.
"""

from __future__ import annotations

import ast
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from companion.games.clumond.rules import SUIT_VALUE, declaration, payment, tricks_that_count
from companion.games.trefeltromp.rules import REVEAL_DIVISOR
from companion.games.tremp.rules import (
    MATCH_TARGET,
    OPENING_BID,
    TRAILING_TARGET,
    hand_points,
    trick_winner,
)
from companion.games.tromplemond.rules import CARD_POINTS, JACK_PENALTY, TrompCall, tromp_call
from companion.rules import GAMES, game_module, replay

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
GAMES_FOLDER = ROOT / "companion" / "games"
INDEX = DOCS / "rules.md"
RECORDS = DOCS / "records.md"
HOUSE = "**(house)**"
SILENT = "Where the rules are silent"


def rules_page(game: str) -> Path:
    """A game's rules text in English (``companion/games/<game>/texts/en.md``)."""
    return GAMES_FOLDER / game / "texts" / "en.md"


PAGES = [rules_page(game) for game in GAMES]
MARKDOWN = [*PAGES, INDEX, RECORDS]
LIST_ITEM = re.compile(r"^(?:[-*+]|\d+\.) ")


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def page(game: str) -> str:
    return text(rules_page(game))


def code_blocks(source: str) -> list[str]:
    """The indented code blocks: runs of lines indented 4 spaces that follow a blank line."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    previous = ""
    for line in source.splitlines():
        if current is not None and (line.startswith("    ") or not line.strip()):
            current.append(line[4:])
        elif line.startswith("    ") and not previous.strip():
            current = [line[4:]]
            blocks.append(current)
        else:
            current = None
        previous = line
    return ["\n".join(block).strip() for block in blocks]


def prose(source: str) -> str:
    """``source`` without its code blocks and code spans."""
    for block in code_blocks(source):
        for line in block.splitlines():
            source = source.replace(f"    {line}\n", "\n", 1)
    return re.sub(r"`[^`\n]*`", "", source)


def section(source: str, heading: str) -> str:
    """The text under ``## heading``, up to the next heading of that level."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", source, re.M | re.S)
    assert match, f"no section '## {heading}'"
    return match.group(1)


def table(source: str) -> list[list[str]]:
    """The rows of the first pipe table in ``source`` (header and rule left out)."""
    lines = [line for line in source.splitlines() if line.startswith("|")]
    assert len(lines) > 2 and set(lines[1]) <= set("|-: "), "no pipe table"
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def list_items(source: str) -> list[str]:
    """The top-level list items of ``source``, each with its continuation lines."""
    items: list[str] = []
    for line in source.splitlines():
        if LIST_ITEM.match(line):
            items.append(line)
        elif items and line.startswith(" ") and line.strip():
            items[-1] += " " + line.strip()
    return items


def readings(game: str) -> list[str]:
    """The bullets of the "Readings" section of the game's module docstring."""
    source = Path(game_module(game).__file__).read_text(encoding="utf-8")
    doc = ast.get_docstring(ast.parse(source)) or ""
    _, _, tail = doc.partition("Readings\n--------\n")
    return list_items(tail)


# --- every game has its page ----------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_page_with_one_title(game):
    assert rules_page(game).is_file(), f"companion/games/{game}/texts/en.md is missing"
    lines = page(game).splitlines()
    assert lines[0] == f"# {game.capitalize()}"
    assert [line for line in prose(page(game)).splitlines() if line.startswith("# ")] == [
        lines[0]]


def test_the_index_links_every_page_and_the_records():
    index = text(INDEX)
    assert index.startswith("# ")
    for game in GAMES:
        assert f"](../companion/games/{game}/texts/en.md)" in index
    assert "](records.md)" in index


@pytest.mark.parametrize("game", GAMES)
def test_every_reading_of_the_rules_module_is_on_the_page_as_a_house_decision(game):
    module_readings = readings(game)
    assert module_readings, f"companion/games/{game}/rules.py has no Readings section"
    items = list_items(section(page(game), SILENT))
    assert len(items) == len(module_readings), (
        f"companion/games/{game}/texts/en.md lists {len(items)} readings under '{SILENT}'; "
        f"the module docstring has {len(module_readings)}: add the new ones to the page")
    assert all(item.startswith(f"- {HOUSE} ") for item in items)


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_house_markers_are_exact_and_inside_a_paragraph_or_list_item(path):
    source = prose(text(path))
    assert source.count("(house") == source.count(HOUSE)
    for line in source.splitlines():
        if HOUSE in line:
            assert not line.startswith(("#", "|")), line


# --- the Markdown the app renders -----------------------------------------------------

@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_pages_are_plain_markdown(path):
    source = text(path)
    assert "```" not in source and "~~~" not in source, "fenced code: indent by 4 instead"
    assert not re.search(r"<[A-Za-z!/]", prose(source)), "raw HTML"
    previous, in_list = "", False
    for line in source.splitlines():
        if LIST_ITEM.match(line):
            # Python-Markdown starts a list only after a blank line.
            assert in_list or not previous.strip(), f"list glued to a paragraph: {line!r}"
            in_list = True
        elif line.strip() and not previous.strip() and not line.startswith(" "):
            in_list = False
        previous = line


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_pages_render_with_python_markdown_and_tables(path):
    markdown = pytest.importorskip("markdown")
    source = text(path)
    html = markdown.markdown(source, extensions=["tables"])
    assert html.count("<h1>") == 1
    assert html.count("<table>") == len(re.findall(r"^\|[-: |]+\|$", source, re.M))
    assert html.count("<strong>(house)</strong>") == prose(source).count(HOUSE)
    assert not re.search(r"<p>(?:[-*] |\d+\. |\|)", html)


# --- the pages agree with the code ----------------------------------------------------

def test_tromplemond_card_points_are_the_codes():
    points = {}
    for ranks, value in table(section(page("tromplemond"), "Card points")):
        for rank in ranks.split(", "):
            points[rank] = value
    assert set(points) == {rank.value for rank in CARD_POINTS}
    for rank, value in CARD_POINTS.items():
        if value:
            assert re.fullmatch(rf"{value}( each)?", points[rank.value])
    assert points["J"] == (f"0 to its holder, and −{JACK_PENALTY} to every other survivor "
                           "(the jack penalty)")
    assert f"− {JACK_PENALTY} × jacks held by the other survivors" in page("tromplemond")


def test_tromplemond_tromp_calls_are_the_codes():
    rows = table(section(page("tromplemond"), "Money: TROMP! betting (optional variant)"))
    assert [row[0] for row in rows] == [call.value for call in TrompCall]
    for name, hand, wins in rows:
        call = TrompCall(name)
        assert wins == call.wins
        if m := re.fullmatch(r"(\d) back, (\d) on show", hand):
            assert tromp_call(int(m[1]), int(m[2])) is call
        if m := re.fullmatch(r"(\d) on show, 0 or 1 back", hand):
            assert tromp_call(0, int(m[1])) is tromp_call(1, int(m[1])) is call


def test_tromplemond_worked_example_replays_to_the_scores_on_the_page():
    scoring = section(page("tromplemond"), "Scoring a round")
    hands = {player: {"public": public.split(), "secret": secret.split()}
             for player, public, secret, _ in table(scoring)}
    off = re.search(r"(\w+) is voted off", scoring)[1]
    players = [*hands, off]
    result = replay({"game": "tromplemond", "players": players, "first_dealer": players[0],
                     "rounds": [{"hands": hands, "voted_off": off}]})
    after_table = scoring[scoring.rindex("|") + 1:]
    shown = {name: int(score.replace("−", "-"))
             for name, score in re.findall(r"(\w+)[^·*]*\*\*(−?\d+)\*\*", after_table)}
    assert shown == result["totals"]
    for player, _, _, own in table(scoring):
        assert own.startswith(str(
            result["rounds"][0]["breakdown"]["players"][player]["own_points"]))


def test_clumond_declaration_and_examples_are_the_codes():
    rules = page("clumond")
    values = dict(re.findall(r"(\d) per (club|heart|spade|diamond)", rules))
    names = {"club": "♣", "heart": "♥", "spade": "♠", "diamond": "♦"}
    assert {names[n]: int(v) for v, n in values.items()} == {
        str(s): v for s, v in SUIT_VALUE.items()}
    examples = section(rules, "Examples")
    tricks, declared, pays = map(int, re.search(
        r"Tricks (\d+) with a declaration of (\d+) pays (\d+)", examples).groups())
    assert payment(tricks, declared) == pays
    cards, value = re.search(r"Kept cards (\S+ \S+ \S+) declare (\d)", examples).groups()
    assert declaration(cards.split()) == int(value)
    won, counted = map(int, re.search(r"(\d+) tricks count as (\d+)", examples).groups())
    assert tricks_that_count(won) == counted and payment(won, counted) == 0


def test_trumplestiltskin_targets_are_the_defaults():
    end = section(page("trumplestiltskin"), "End of the game")
    defaults = game_module("trumplestiltskin").DEFAULTS
    assert f"a player has {defaults['target']} or more" in end
    assert f"the Gnome\nhas {defaults['gnome_target']} or more" in end


def test_trefeltromp_reveal_shares_are_the_codes():
    words = {Fraction(1, 3): "⅓ of the pot", Fraction(1, 2): "½ of the pot",
             Fraction(1): "the whole pot"}
    rules = " ".join(section(page("trefeltromp"), "A hand").split())
    for stage, divisor in REVEAL_DIVISOR.items():
        name = stage.value.capitalize()
        assert re.search(rf"\*\*{name}\*\*: [^*]*The winner takes {words[Fraction(1, divisor)]}",
                         rules), name


def test_tremp_trick_examples_are_what_the_judge_says():
    tricks = " ".join(section(page("tremp"), "Who wins a trick").split())
    lines = re.findall(r"Trump (.), tremp (.): (\S+ \S+ \S+ \S+) — (.*?): the (\w+) card wins",
                       tricks)
    assert len(lines) == 2
    places = ["first", "second", "third", "fourth"]
    for trump, tremp_suit, cards, steps, place in lines:
        result = trick_winner(cards.split(), trump)
        assert (str(result.tremp), result.index) == (tremp_suit, places.index(place))
        for card, against, number in re.findall(r"(\S+) beats (\S+) \((\d)\)", steps):
            step = next(s for s in result.steps if str(s.card) == card)
            assert (str(step.against), step.reason.condition) == (against, int(number))
        for card, against in re.findall(r"(\S+) does not\s+beat (\S+)", steps):
            step = next(s for s in result.steps if str(s.card) == card)
            assert (str(step.against), step.reason) == (against, None)


def test_tremp_numbers_are_the_codes():
    rules = " ".join(page("tremp").split())
    assert f"The bid starts at {OPENING_BID}".replace("-", "−") in rules
    assert f"the first team to {MATCH_TARGET} match points" in rules
    assert f"needs only {TRAILING_TARGET}" in rules
    example = re.search(r"Example, bid (\d+): made → \+(\d+) match points; with (\d+) tricks "
                        r"also \+(\d+) game points\. Failed → opponents \+(\d+) game points; "
                        r"if they took (\d+) tricks, also \+(\d+) match points", rules)
    bid, match, tricks, game, failed_game, theirs, failed_match = map(int, example.groups())
    made = hand_points(bid, tricks)
    assert (made.made, made.match_points, made.game_points) == (True, match, game)
    failed = hand_points(bid, 13 - theirs)
    assert (failed.made, failed.game_points, failed.match_points) == (
        False, failed_game, failed_match)


# --- the records page -----------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_records_page_gives_every_option_with_its_default(game):
    rows = table(section(text(RECORDS), game.capitalize()))
    documented = {name.strip("`"): json.loads(default.strip("`")) for name, default, _ in rows}
    defaults = game_module(game).DEFAULTS
    assert documented == {name: list(v) if isinstance(v, tuple) else v
                          for name, v in defaults.items()}, (
        f"docs/records.md's {game} options table and {game}.DEFAULTS differ")


def whole_records() -> list[dict]:
    found = []
    for block in code_blocks(text(RECORDS)):
        try:
            value = json.loads(block)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and {"game", "players"} <= set(value) and value.get("rounds"):
            found.append(value)
    return found


def test_records_page_has_a_whole_record_of_every_game():
    assert sorted(r["game"] for r in whole_records()) == sorted(GAMES)


@pytest.mark.parametrize("record", whole_records(), ids=lambda r: r["game"])
def test_every_whole_record_on_the_records_page_replays(record):
    result = replay(record)
    assert len(result["rounds"]) == len(record["rounds"]) > 0


# --- the project cites only itself ----------------------------------------------------

OUTSIDE = ("shared/RULES.md", "shared/DESIGN.md", "RULES.md", "DESIGN.md", "../shared")


def project_files() -> list[Path]:
    files = [p for folder in (DOCS, ROOT / "companion") for p in folder.rglob("*")
             if p.is_file() and p.suffix in {".py", ".md", ".html", ".txt", ".json", ".js"}]
    assert files
    return files


def test_nothing_in_docs_or_companion_cites_files_outside_the_project():
    cites = [f"{path.relative_to(ROOT)}: {name}" for path in project_files()
             for name in OUTSIDE if name in path.read_text(encoding="utf-8")]
    assert cites == [], "cite companion/games/<game>/texts/en.md or docs/records.md instead"

