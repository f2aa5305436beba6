"""The page in Russian and Polish in real Chromium, as a phone of that language asks for it
(its Accept-Language): no English word on the screen, and the live board and the keeper's
controls stay in that language after a deal arrives. NAPLEDGER_SCREENSHOTS=docs/screenshots
saves the README's pictures (README: Languages)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.test_languages import untranslated
from tests.web import test_browser as shared
from tests.web.conftest import SMALL_PHONE, no_sideways_scroll, watched

pytestmark = shared.pytestmark

LIVE = 15_000  # ms: how long a change may take to reach the page (a busy machine)
TABLES = {
    "ru": (
        ("Борис", "Гена", "Аня", "Вера"),
        "new пятница --players Борис,Гена,Аня,Вера --variant russian --chip 10 --currency RUB",
        ("hand three --by Борис --tricks 3", "hand napoleon --by Гена --failed", "pass"),
        "hand two --by Аня --tricks 2",
        "Записать сдачу",
    ),
    "pl": (
        ("Ania", "Zofia", "Wojtek", "Łukasz"),
        "new piątek --players Ania,Zofia,Wojtek,Łukasz --chip 0.5 --currency PLN",
        ("hand nap --by Ania --tricks 5", "hand three --by Zofia --failed"),
        "hand four --by Wojtek --tricks 4",
        "Zapisz rozdanie",
    ),
}


@pytest.fixture
def phone_in(browser) -> Iterator[object]:
    contexts = []

    def open_in(lang: str):
        locale = {"ru": "ru-RU", "pl": "pl-PL"}[lang]
        context = browser.new_context(viewport=SMALL_PHONE, locale=locale)
        contexts.append(context)
        return watched(context.new_page())

    yield open_in
    for context in contexts:
        context.close()


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_the_keepers_page_on_a_phone_speaks_the_phones_language(
    phone_in, live_server, nap, tmp_path, lang
):
    names, new, deals, later, record = TABLES[lang]
    nap(new)
    for deal in deals:
        nap(deal)
    page = phone_in(lang)
    page.goto(live_server.keeper(1))
    page.wait_for_selector("body[data-live=yes]")
    assert page.locator("html").get_attribute("lang") == lang
    assert untranslated(page.locator("body").inner_text(), lang, names) == []
    no_sideways_scroll(page)
    folder = Path(os.environ.get("NAPLEDGER_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"page-{lang}.png"), full_page=True)

    # A deal typed at the terminal reaches the page, drawn in the page's language.
    number = len(deals) + 1
    nap(later)
    page.wait_for_selector(f'#deals li[data-deal="{number}"]', timeout=LIVE)
    page.wait_for_selector(f'#deal[data-next="{number + 1}"]', timeout=LIVE)
    assert f"{record} {number + 1}" in page.locator("#controls").inner_text()
    assert untranslated(page.locator("body").inner_text(), lang, names) == []
    assert page.problems == []
