"""The page in the table's language: the session's own (`new --lang`), else the browser's
Accept-Language, else English; every word through the catalog and money as the locale
writes it (README: Languages). The same check as the terminal's: no English word of
napledger's messages is left, the players' names and what a person types aside."""

from __future__ import annotations

import html
import re

import pytest

from napledger.web.speech import from_browser
from tests.cli.test_languages import PL, RU, untranslated
from tests.web.conftest import KEY

TAG = re.compile(r"<script.*?</script>|<style.*?</style>|<[^>]*>", re.S)
ATTRIBUTE_TEXT = re.compile(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"')


def shown_text(page: str) -> str:
    """What a person reads on the page: its text, and the attributes a browser shows."""
    shown = " ".join(ATTRIBUTE_TEXT.findall(page))
    return html.unescape(TAG.sub(" ", page) + " " + shown)


def russian_evening(nap, *extra: str) -> None:
    nap(
        f"new пятница --players {','.join(RU)} --variant russian --chip 100 --currency RUB "
        + " ".join(extra)
    )
    nap("hand three --by Борис --tricks 3")
    nap("hand napoleon --by Гена --failed")
    nap("hand one --by Аня --tricks 1")
    nap("pass")


def polish_evening(nap) -> None:
    nap(f"new piątek --players {','.join(PL)} --chip 0.5 --currency PLN")
    nap("hand nap --by Ania --tricks 5")
    nap("hand three --by Zofia --failed")
    nap("hand four --by Wojtek --tricks 4")


def pages(client, lang_header: str) -> dict[str, str]:
    headers = {"accept-language": lang_header}
    found = {}
    for name, path in {
        "viewers": "/s/1",
        "keeper": f"/s/1/keep?key={KEY}",
        "controls": f"/s/1/keep/controls?key={KEY}",
        "amending": f"/s/1/keep?key={KEY}&amend=1",
    }.items():
        answer = client.get(path, headers=headers)
        assert answer.status_code == 200, (name, answer.text)
        found[name] = answer.text
    return found


@pytest.mark.parametrize("header", ["ru", "ru-RU,ru;q=0.9,en;q=0.5", "en;q=0.3, ru-RU"])
def test_a_russian_browser_reads_a_russian_evening_in_russian(client, nap, header):
    russian_evening(nap)
    for name, page in pages(client, header).items():
        assert untranslated(shown_text(page), "ru", RU) == [], name
    viewers = pages(client, header)["viewers"]
    assert '<html lang="ru">' in viewers
    assert "Сдаёт: " in viewers and "Коробка" in viewers and "4 сдачи" in viewers
    assert "\u22122\u00a0200,00\u00a0₽" in viewers
    assert "pot" not in shown_text(
        viewers
    )  # the pot's own line, too: коробка  # −22 chips of 100 ₽, as Russian writes it


def test_a_polish_browser_reads_a_polish_evening_in_polish(client, nap):
    polish_evening(nap)
    for name, page in pages(client, "pl-PL,pl;q=0.9").items():
        assert untranslated(shown_text(page), "pl", PL) == [], name
    viewers = pages(client, "pl")["viewers"]
    assert '<html lang="pl">' in viewers
    assert "Pula" in viewers and "3 rozdania" in viewers and "zł" in viewers
    assert re.search(r"\d,50\u00a0zł", viewers), viewers


def test_a_session_kept_in_russian_answers_in_russian_whatever_the_browser_says(client, nap):
    russian_evening(nap, "--lang ru")
    for header in ("en-GB,en;q=0.9", "pl", ""):
        viewers = client.get("/s/1", headers={"accept-language": header}).text
        assert '<html lang="ru">' in viewers
        assert untranslated(shown_text(viewers), "ru", RU) == [], header


def test_an_english_browser_and_none_read_english(client, nap):
    russian_evening(nap)
    for header in ("en-GB", "de, fr;q=0.5", ""):
        viewers = client.get("/s/1", headers={"accept-language": header}).text
        assert '<html lang="en">' in viewers and "Next to deal" in viewers
        assert untranslated(shown_text(viewers), "ru", RU)  # the check finds English


def test_the_json_stays_in_machine_format_whatever_the_language(client, nap):
    russian_evening(nap, "--lang ru")
    english = client.get("/s/1/json").json()
    assert client.get("/s/1/json", headers={"accept-language": "pl"}).json() == english
    assert "сдач" not in str(english) and "−" not in str(english)


def test_refusals_and_missing_pages_speak_the_browsers_language(client, nap):
    russian_evening(nap)
    missing = client.get("/s/99", headers={"accept-language": "ru"})
    assert missing.status_code == 404 and '<html lang="ru">' in missing.text
    assert untranslated(shown_text(missing.text), "ru") == []
    refused = client.post("/s/1/hand", data={"key": "wrong"}, headers={"accept-language": "pl"})
    assert refused.status_code == 403
    assert untranslated(shown_text(refused.text), "pl") == [], refused.text
    assert "zapisującego" in refused.text


def test_a_keepers_refused_deal_is_told_in_the_pages_language(client, nap):
    russian_evening(nap)
    refused = client.post(
        "/s/1/hand",
        data={"key": KEY, "next_deal": "5"},
        headers={"accept-language": "ru"},
        follow_redirects=False,
    )
    assert refused.status_code == 400
    assert "Ошибка:" in refused.text and "выберите назначение" in refused.text


def test_the_live_fragments_are_asked_for_in_the_pages_language(client, nap):
    russian_evening(nap)
    keeper = client.get(f"/s/1/keep?key={KEY}", headers={"accept-language": "pl"}).text
    assert "lang=pl" in re.search(r'data-events="([^"]*)"', keeper).group(1)
    controls = html.unescape(re.search(r'data-controls="([^"]*)"', keeper).group(1))
    assert "lang=pl" in controls
    # Fetched as nap.js does, with no Accept-Language of its own: still Polish.
    fragment = client.get(controls, headers={"accept-language": ""}).text
    assert "Zapisz rozdanie 5" in fragment


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("ru-RU,ru;q=0.9", "ru"),
        ("en-US,en;q=0.9,pl;q=0.8", "en"),
        ("de-DE, pl;q=0.7, ru;q=0.6", "pl"),
        ("ru;q=0.2, pl;q=0.8", "pl"),
        ("ru;q=bad, pl;q=0.1", "pl"),
        ("", "en"),
        ("*", "en"),
    ],
)
def test_accept_language_is_read_as_browsers_mean_it(header, lang):
    assert from_browser(header) == lang


def test_serve_prints_its_links_in_the_terminals_language(capsys):
    from napledger.core.words import speaking
    from napledger.web.serve import announce

    with speaking("ru"):
        announce("http://h/s/1", "http://h/s/1/keep?key=k", "http://h/?key=o", lan=False)
    said = capsys.readouterr().out
    assert "Зрители (только просмотр):" in said and "Записывающий (тайная ссылка):" in said
    assert untranslated(re.sub(r"http\S+|Ctrl-C", " ", said), "ru") == []
    # One column of links, however long the language's labels.
    assert len({line.index("http") for line in said.splitlines() if "http" in line}) == 1


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_the_organisers_list_form_and_manifest_speak_the_browsers_language(client, nap, lang):
    from napledger.web.keys import organiser_key
    from tests.web.conftest import SECRET

    russian_evening(nap)
    headers = {"accept-language": lang}
    key = organiser_key(SECRET)
    for path in (f"/?key={key}", f"/new?key={key}", "/"):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 200, path
        # The rule keys a form names are typed as they are (`pool_ante`), in any language.
        typed = re.sub(r'<label class="setting"><span>[^<]*</span>', " ", answer.text)
        assert untranslated(shown_text(typed), lang, RU) == [], path
    manifest = client.get("/app.webmanifest", headers=headers).json()
    assert manifest["lang"] == lang
    assert untranslated(manifest["description"], lang) == []
