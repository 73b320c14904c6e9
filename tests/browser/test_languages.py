"""A French phone and a German phone at an English table.

Rob chooses French and Sam German at the foot of their phones' pages; the tablet, Nick and
Emily stay in English. They play a Tromplemond round (the vote on the phones, the hands on
the tablet) and then a Clumond round on the phones. At each moment every screen is in its
own language (no word of the English interface on the French and German ones) and shows the
same numbers as the English screens: the scores, the stacks and the money.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.games.tromplemond import enter_quick_hands
from tests.browser.screens import LIVE_MS, accept_next_dialog, end_game
from tests.web.test_every_page_in_each_language import english_left

LANGS = {"Rob": "fr", "Sam": "de"}
CLUMOND_ROUND = {"Rob": (3, ["3♥", "7♠", "4♦"]), "Sam": (4, ["A♣", "2♣", "K♥"]),
                 "Nick": (6, ["5♦", "6♦", "Q♠"])}


def choose_language(page, lang: str) -> None:
    """The player picks their language at the foot of the page; it is drawn in it at once."""
    page.locator("#language-choice").select_option(lang)
    page.get_by_test_id("language-switch").get_by_role("button").click()
    expect(page.locator("html")).to_have_attribute("lang", lang, timeout=LIVE_MS)


def own_language(table, moment: str) -> None:
    """Every screen at ``moment`` is in its own language: the French and German phones hold no
    word of the English interface, the tablet and the other phones are English."""
    expect(table.tablet.locator("html")).to_have_attribute("lang", "en")
    for name, page in table.phones.items():
        lang = LANGS.get(name, "en")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        if lang != "en":
            left = english_left(page.content(), lang)
            assert not left, f"{moment}: English on {name}'s {lang} phone: {left}"


def digits(text: str) -> str:
    """The figures of a number or a sum, whatever the language writes around them."""
    return re.sub(r"[^0-9½−-]", "", text).replace("−", "-")


def numbers(page, selector: str) -> list[str]:
    """The figures of each element of ``selector`` on ``page``."""
    return [digits(text) for text in page.locator(selector).all_inner_texts()]


def same_numbers(pages: dict, selector: str) -> None:
    """Each page shows the same figures in ``selector`` as the English one (``Nick``)."""
    english = numbers(pages["Nick"], selector)
    assert english and any(english), selector
    for name in LANGS:
        assert numbers(pages[name], selector) == english, (name, selector)


class AnyLanguage:
    """Taps on the Clumond entry page that read no words (the page is in the phone's own
    language): the tricks' tile and the kept cards, then the page's figures."""

    @staticmethod
    def pick(phone, tricks: int, kept) -> None:
        phone.locator(f'label.tile:has(> input[name="tricks"][value="{tricks}"])').click()
        for card in kept:
            code = card[:-1] + {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}[card[-1]]
            phone.locator(f'label.pick:has(> input[name="kept"][value="{code}"])').click()
        expect(phone.get_by_test_id("kept-count")).to_contain_text("3", timeout=LIVE_MS)


def test_french_and_german_phones_at_an_english_table(tromplemond_table, clumond_table,
                                                      screenshot):
    table = tromplemond_table()
    tablet, phones = table.tablet, table.phones
    for name, lang in LANGS.items():
        choose_language(phones[name], lang)
    own_language(table, "seated")

    # --- Tromplemond: the vote on the phones, the hands on the tablet --------------------------
    table.start(joining_fee="2.00", rounds=1)
    own_language(table, "dealing")
    table.open_vote()
    own_language(table, "the vote open")
    screenshot(phones["Rob"], "fr-vote", docs="phone-fr")  # (each fits 360 px, light and
    #                                                         dark, at 200 % text)
    table.vote({"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Rob"})
    table.wait_phase("hands")
    own_language(table, "Emily voted off")
    enter_quick_hands(table)
    table.confirm_round()
    table.wait_phase("end")
    own_language(table, "the Tromplemond over")
    screenshot(phones["Sam"], "de-tromplemond-over")
    for selector in ('[data-testid="score-table"] tfoot td', '[data-testid="money"] li'):
        if phones["Nick"].locator(selector).count():
            same_numbers(phones, selector)
    end_game(tablet)

    # --- Clumond of Rob, Sam and Nick, on their phones -----------------------------------------
    tablet.get_by_test_id("next-game").select_option("clumond")
    tablet.get_by_test_id("set-next-game").click()
    accept_next_dialog(tablet)  # "Take seat 4 away? Emily sits out the next game."
    tablet.get_by_test_id("remove-4").click()
    expect(tablet.locator("li.seat")).to_have_count(3, timeout=LIVE_MS)
    tablet.get_by_test_id("dealer-choice").select_option("3")
    tablet.get_by_test_id("set-dealer").click()
    tablet.get_by_test_id("start-game").click()
    tablet.get_by_test_id("rounds").fill("1")
    tablet.get_by_test_id("start-options").click()
    clumond = clumond_table(tablet, {name: phones[name] for name in CLUMOND_ROUND})
    clumond.wait_phase("offer")
    own_language(clumond, "going for Clumond")
    clumond.nobody_goes(["Rob", "Sam", "Nick"])
    own_language(clumond, "the tricks")
    for name, (tricks, kept) in CLUMOND_ROUND.items():
        clumond.open_entry(name)
        AnyLanguage.pick(phones[name], tricks, kept)
        own_language(clumond, f"{name}'s entry")
        if name in LANGS:
            screenshot(phones[name], f"{LANGS[name]}-clumond-entry")
    for name in CLUMOND_ROUND:
        phones[name].get_by_test_id("save-entry").click()
        expect(phones[name].get_by_test_id("my-entry")).to_have_attribute(
            "data-entered", "yes", timeout=LIVE_MS)
    expect(tablet.get_by_test_id("preview")).to_be_visible(timeout=LIVE_MS)
    for name in CLUMOND_ROUND:
        expect(phones[name].get_by_test_id("my-explain")).to_be_visible(timeout=LIVE_MS)
    own_language(clumond, "the round's scores")
    screenshot(phones["Rob"], "fr-clumond-scores")
    clumond.confirm_round()
    clumond.wait_phase("end")
    own_language(clumond, "the Clumond over")
    for name in CLUMOND_ROUND:
        clumond.expect_stacks({"Rob": 109, "Sam": 96, "Nick": 95}, page=phones[name])
    same_numbers(phones, '[data-testid="score-table"] tfoot td')
