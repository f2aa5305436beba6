"""The terminal in Russian and Polish: an evening's scoreboard, hands, settle and every
Error: line it can produce say no English word, plural forms agree with their numbers,
and a session keeps its own language (docs: README, Languages)."""

from __future__ import annotations

import functools
import re

import pytest

RU = ("Борис", "Гена", "Аня", "Вера")
EVENING = (*RU, "Дима")  # with the player who joins
PL = ("Łukasz", "Zofia", "Wojtek", "Ania")

# Words that stay as they are in every language: the
# program's name,
# and (stripped before the check) what a person types — commands in backticks, options,
# quoted typed values ('…', «…», „…”) — and the rule keys `variants` names.
KEPT = {"Error", "napledger"}
TYPED = re.compile(r"`[^`]*`|--?[a-z][\w-]*(?:=\w+)?|'[^']*'|«[^»]*»|„[^”]*”|\b[a-z]+_[a-z_]+\b")
LATIN = re.compile(r"[A-Za-z]+")


def english_words(text: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """The runs of Latin letters left in `text` once the typed parts are taken out."""
    bare = TYPED.sub(" ", text)
    for name in allowed:
        bare = bare.replace(name, " ")
    return [w for w in LATIN.findall(bare) if w not in KEPT]


@functools.cache  # a catalog is read once a run, not once a checked message
def vocabulary(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """The words of napledger's English messages, and those of its `lang` catalog."""
    from pathlib import Path

    from babel.messages.pofile import read_po

    locale = Path(__file__).resolve().parents[2] / "napledger" / "locale"
    with (locale / lang / "LC_MESSAGES" / "napledger.po").open("rb") as source:
        catalog = read_po(source)

    def words(texts: object) -> set[str]:
        found = set()
        for text in texts if isinstance(texts, tuple) else (texts,):
            found |= {w.casefold() for w in re.findall(r"\w+", TYPED.sub(" ", str(text)))}
        return found

    english, own = set(), set()
    for m in catalog:
        if m.id:
            english |= words(m.id)
            own |= words(m.string)
    return frozenset(english), frozenset(own)


def untranslated(text: str, lang: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """English words of napledger's messages left in `text` (a word both languages use,
    such as Polish `to` or `nap`, is not one)."""
    english, own = vocabulary(lang)
    bare = TYPED.sub(" ", text)
    for name in allowed:
        bare = bare.replace(name, " ")
    words = re.findall(r"[^\W\d_]+", bare)  # letters only: a number is no language's
    return [w for w in words if w.casefold() in english - own and w not in KEPT]


@pytest.fixture
def russian(monkeypatch):
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")


@pytest.fixture
def polish(monkeypatch):
    monkeypatch.setenv("LC_ALL", "pl_PL.UTF-8")


def russian_evening(nap) -> None:
    nap(f"new пятница --players {','.join(RU)} --variant russian --chip 100 --currency RUB")
    nap("hand three --by Борис --tricks 3")
    nap("hand napoleon --by Гена --failed")
    nap("hand one --by Аня --tricks 1")
    nap("hand two --by Вера --tricks 0")
    nap("pass")
    nap("join Дима --after Вера")
    nap("leave Вера")
    nap("hand five --by Дима --tricks 5")
    nap("amend 1 --tricks 4")
    nap("undo")


def test_a_russian_evening_reads_in_russian(nap, russian):
    russian_evening(nap)
    board = nap("table").stdout
    assert english_words(board, EVENING) == [], board
    assert "пятница · Наполеон · 5 сдач" in board  # six recorded, the last one undone
    assert "коробка" in board and "деньги ₽" in board and "Сдаёт: " in board
    assert "\u22122\u00a0000,00" in board  # a loss of 20 chips of 100 ₽, as Russian writes it
    hands = nap("hands").stdout
    assert english_words(hands, EVENING) == [], hands
    for said in ("сыграно (взяты 4)", "без", "сыграно (взята 1)", "без двух (взято 0)"):
        assert said in hands
    assert "все спасовали" in hands and "Дима садится на место 5" in hands
    assert "Вера встаёт из-за стола" in hands and "отменена" in hands
    settle = nap("settle").stdout
    assert english_words(settle, EVENING) == [], settle
    assert "Расчёт — пятница" in settle and "→ Аня:" in settle
    closed = nap("close --yes").stdout
    assert english_words(closed, EVENING) == [], closed
    assert "Партия «пятница» закрыта. Коробка:" in closed


def test_the_scoreboard_counts_deals_in_the_right_form(nap, russian):
    nap(f"new вечер --players {','.join(RU)} --variant russian")
    titles = []
    for _ in range(5):
        nap("pass")
        titles.append(nap("table").stdout.splitlines()[0].strip())
    assert [t.rsplit("·", 1)[1].strip() for t in titles] == [
        "1 сдача",
        "2 сдачи",
        "3 сдачи",
        "4 сдачи",
        "5 сдач",
    ]


RUSSIAN_ERRORS = [
    ("hand three --by Икс --tricks 3", 1),
    ("hand three --by Борис --tricks 9", 1),
    ("hand three --by Борис --made --failed", 1),
    ("hand three --by Борис --tricks 3 --made", 1),
    ("hand three --by Борис", 1),
    ("hand семь --by Борис --made", 1),
    ("hand three --by Борис --made --peep Гена", 1),
    ("hand three --by Борис --made --buy Гена=1", 1),
    ("hand three --by Борис --made --buy Борис=3", 1),
    ("hand three --by Борис --made --dealer Икс", 1),
    ("hand three --by Борис --made --expect 7", 1),
    ("void 99", 1),
    ("amend 99 --tricks 2", 1),
    ("amend 1.2 --tricks 2", 2),
    ("join Борис", 1),
    ("join pot", 1),
    ("leave Икс", 1),
    ("close --pot Икс --yes", 1),
    ("reopen", 1),
    ("new пятница --players А,Б,В", 1),
    ("new суббота --players А", 1),
    ("new суббота --players А,Б,В --chip x", 1),
    ("new суббота --players А,Б,В --chip 0", 1),
    ("new 123 --players А,Б,В", 1),
    ("new суббота --players А,А,В", 1),
    ("table --session нет", 1),
    ("settle --session нет", 1),
    ("сдать", 2),  # no command (`пас` is one: a deal passed out)
    ("hand", 2),
    ("hand three --by", 2),
    ("hand three --by Борис --tricks x", 2),
    ("hand three --by Борис --trick 3", 2),
    ("hand three --by Борис --tricks 3 лишнее", 2),
    ("new", 2),
    ("--lang de table", 2),
]


def test_every_error_of_a_russian_evening_is_in_russian(nap, russian):
    nap(f"new пятница --players {','.join(RU)} --variant russian")
    nap("hand three --by Борис --tricks 3")
    for line, code in RUSSIAN_ERRORS:
        said = nap.fails(line, code)
        assert english_words(said, RU) == [], (line, said)
        assert untranslated(said, "ru", RU) == [], (line, said)
    nap("close --yes")
    for line in ("hand three --by Борис --tricks 3", "pass", "undo", "join Дима"):
        said = nap.fails(line)
        assert english_words(said, RU) == [], (line, said)
        assert "закрыта" in said
    nap(f"new суббота --players {','.join(RU)} --variant russian")
    said = nap.fails("undo")
    assert said == "Ошибка: в партии «суббота» нечего отменять"


def test_a_polish_evening_reads_in_polish(nap, polish):
    nap(f"new piątek --players {','.join(PL)} --chip 0.5 --currency PLN")
    nap("hand nap --by Łukasz --tricks 5")
    nap("hand three --by Zofia --tricks 2 --peep Wojtek")
    nap("hand four --by Wojtek --made")
    nap("pass")
    nap("hand misère --by Ania --tricks 0")
    board = nap("table").stdout
    assert untranslated(board, "pl", PL) == [], board
    assert "5 rozdań" in board and "pula" in board and "zł" in board
    hands = nap("hands").stdout
    assert untranslated(hands, "pl", PL) == [], hands
    for said in ("ugrana (wzięto 5)", "bez jednej (wzięte 2)", "podgląda", "Zofia trzy"):
        assert said in hands
    settle = nap("settle").stdout
    assert untranslated(settle, "pl", PL) == [], settle
    for line in (
        "hand nap --by Ktoś --tricks 5",
        "hand nap --by Zofia --tricks 6",
        "hand nap --by Zofia --made --failed",
        "hand nap --by Zofia --revoke Ktoś",
        "void 42",
        "leave Ktoś",
        "table --session brak",
    ):
        said = nap.fails(line)
        assert untranslated(said, "pl", PL) == [], (line, said)
    said = nap.fails("spasuj", 2)  # `pas` is a deal passed out; this is no command
    assert untranslated(said, "pl", PL) == [], said


def test_one_lewa_two_lewy_five_lew(nap, polish):
    nap(f"new lewy --players {','.join(PL)}")
    nap("hand three --by Zofia --tricks 1")
    nap("hand three --by Wojtek --tricks 2")
    nap("hand nap --by Ania --tricks 5")
    hands = nap("hands").stdout
    assert "(wzięta 1)" in hands and "(wzięte 2)" in hands and "(wzięto 5)" in hands


@pytest.mark.parametrize(
    ("lang", "day"), [("ru", "{d:%d}.{d:%m}.{d:%Y}"), ("pl", "{d.day}.{d:%m}.{d:%Y}")]
)
def test_sessions_says_the_day_as_the_language_writes_it(nap, lang, day):
    """05.12.2026 in Russian, 5.12.2026 in Polish (CLDR's short forms), the day where the
    command runs; English keeps 2026-12-05."""
    from datetime import date

    before = date.today()
    nap(f"new дата --players {','.join(RU)} --lang {lang}")
    listed = nap(f"--lang {lang} sessions").stdout
    days = {day.format(d=d) for d in (before, date.today())}
    assert any(d in listed for d in days), listed
    assert not re.search(r"\d{4}-\d\d-\d\d", listed), listed
    english = nap("--lang en sessions").stdout
    assert any(f"{d:%Y-%m-%d}" in english for d in (before, date.today())), english


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "ru",
            (
                "некорректный TOML: строка 2, столбец 6",
                "нет такого файла или папки",
                "(это не файл базы данных SQLite)",
            ),
        ),
        (
            "pl",
            (
                "niepoprawny TOML: wiersz 2, kolumna 6",
                "nie ma takiego pliku ani folderu",
                "(to nie jest plik bazy danych SQLite)",
            ),
        ),
    ],
)
def test_a_rule_file_or_database_path_refused_in_the_language(
    nap, tmp_path, monkeypatch, lang, said
):
    """What the parser, the system and SQLite say in English is said in the table's
    language: a rule file that is not TOML, a path that is not there, a file that is not a
    database."""
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\n[bids\n')
    lines = [
        nap.fails(f"--lang {lang} new x --players A,B,C --variant {bad}"),
        nap.fails(f"--lang {lang} new x --players A,B,C --variant {tmp_path}/none.toml"),
    ]
    monkeypatch.setenv("NAPLEDGER_DB", str(bad))
    lines.append(nap.fails(f"--lang {lang} table"))
    for line, words in zip(lines, said, strict=True):
        assert words in line, line
        bare = re.sub(re.escape(str(tmp_path)) + r"\S*", " ", line)  # the path, as typed
        assert untranslated(bare, lang) == [], line
        if lang == "ru":
            assert english_words(bare, ("TOML", "SQLite")) == [], line
    monkeypatch.setenv("NAPLEDGER_DB", str(tmp_path / "nap.db"))
    english = nap.fails(f"--lang en new x --players A,B,C --variant {bad}")
    assert "not valid TOML at line 2, column 6: Expected ']'" in english


def test_lang_and_napledger_lang_win_over_the_locale(nap, russian, monkeypatch):
    nap(f"new язык --players {','.join(RU)} --variant russian")
    assert "Сдаёт: " in nap("table").stdout
    assert "Rozdaje: " in nap("--lang pl table").stdout
    assert "Next to deal" in nap("--lang en table").stdout
    monkeypatch.setenv("NAPLEDGER_LANG", "pl")
    assert "Rozdaje: " in nap("table").stdout
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    monkeypatch.delenv("NAPLEDGER_LANG")
    assert "Next to deal" in nap("table").stdout  # a language napledger does not speak


def test_json_stays_english_and_machine_written(nap, russian):
    nap(f"new json --players {','.join(RU)} --variant russian --chip 100 --currency RUB")
    nap("hand napoleon --by Гена --failed")
    english = nap("--lang en table --json").stdout
    assert nap("table --json").stdout == english
    assert '"money": "-1600.00"' in english  # a machine's number, whatever the language
    assert nap("hands --json").stdout == nap("--lang en hands --json").stdout
    assert nap("settle --json").stdout == nap("--lang en settle --json").stdout


def test_a_session_keeps_the_language_it_was_started_in(nap, db_path):
    import sqlite3

    nap("new ру --players Борис,Гена,Аня --variant russian --lang ru")
    nap("--lang pl new pl --players A,B,C")
    nap("new bez --players A,B,C")
    with sqlite3.connect(db_path) as db:
        kept = dict(db.execute("SELECT name, language FROM sessions"))
    assert kept == {"ру": "ru", "pl": "pl", "bez": None}
    # `new --lang ru` also says its own lines in Russian.
    said = nap("new ещё --players Борис,Гена,Аня --variant russian --lang ru").stdout
    assert "Партия «ещё» (№4) начата: Наполеон" in said


def test_help_is_translated_where_typer_takes_it(tmp_path):
    """--help texts are declared as the app is built: the program chooses the language
    before (napledger/start.py), so a fresh process says them in Russian or Polish."""
    import os
    import subprocess
    import sys

    environ = {**os.environ, "NAPLEDGER_DB": str(tmp_path / "x.db"), "COLUMNS": "120"}
    said = subprocess.run(
        [sys.executable, "-m", "napledger", "--lang", "ru", "--help"],
        env=environ,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Начать партию и сделать её текущей." in said
    assert "Записать сыгранную сдачу" in said
    environ["LANG"] = "pl_PL.UTF-8"
    said = subprocess.run(
        [sys.executable, "-m", "napledger", "hand", "--help"],
        env=environ,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Ile lew wziął licytant." in said


@pytest.mark.parametrize(
    ("lang", "split", "carry", "empty"),
    [
        (
            "ru",
            "Закрыть партию «пятница»? Новые сдачи записать будет нельзя; коробка (5 фишек) достаётся: "
            "Борис +3, Гена +2",
            "Закрыть партию «пятница»? Новые сдачи записать будет нельзя; коробка (1 фишка) переходит "
            "в следующую партию",
            "Закрыть партию «пятница»? Новые сдачи записать будет нельзя; коробка пуста",
        ),
        (
            "pl",
            "Zamknąć partię „pytanie”? Nie będzie można zapisać kolejnych rozdań; pula (5 żetonów) "
            "przypada: Борис +3, Гена +2",
            "Zamknąć partię „pytanie”? Nie będzie można zapisać kolejnych rozdań; pula (1 żeton) "
            "przechodzi do następnej partii",
            "Zamknąć partię „pytanie”? Nie będzie można zapisać kolejnych rozdań; pula jest pusta",
        ),
    ],
)
def test_close_asks_in_the_language_spoken(lang, split, carry, empty):
    from napledger.core.ledger import POT, Payment
    from napledger.core.read.messages import close_question
    from napledger.core.session import ClosePlan
    from napledger.core.words import speaking

    name = "пятница" if lang == "ru" else "pytanie"
    shares = (Payment(POT, "Борис", 3), Payment(POT, "Гена", 2))
    with speaking(lang):
        assert close_question(ClosePlan(name, 5, "split", shares)) == split
        assert close_question(ClosePlan(name, 1, "carry", ())) == carry
        assert close_question(ClosePlan(name, 0, "split", ())) == empty
