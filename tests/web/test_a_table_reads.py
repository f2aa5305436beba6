"""What a Russian and a Polish table read in an evening, checked line by line (#35).

Each evening is played as a table plays it: one-shot commands, `play` with the mistakes a
noisy table makes (a typo in a bid, a bidder alone, an unknown player, impossible tricks),
errors, `--help` of every command, `serve`'s banner, the page's keeper and new-session
forms, and the workbook's cells. Every line shown is collected, and the test fails on

- an English word: any Latin word in Russian, an English word of napledger's messages in
  Polish; what a person types (commands in backticks, options, rule keys, quoted typed
  values), the players' names and the short list below (docs/words.md: "What stays as
  it is") aside;
- a player's or a session's name where the language would decline it: after a
  preposition or a verb that governs another case (`платит Аня`, `w piątek`,
  `перенесена в суббота`), or beside a past-tense verb, whose ending would follow the
  player's sex (`сдавал Аня`, `rozdawał Ania`).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from tests.cli.test_languages import untranslated
from tests.web.test_languages import shown_text

# What stays as it is in every language (docs/words.md, "What stays as it is"): the
# program, the commands and values a person types, names of other programs and formats,
# keys, and the type Typer shows of an argument.
KEPT = {
    "napledger", "play", "hand", "help", "quit", "exit", "join", "leave", "amend", "undo",
    "new", "close", "reopen", "pass", "split", "carry", "classic", "russian", "seven",
    "card", "en", "ru", "pl", "SQLite", "PostgreSQL", "TOML", "toml", "xlsx", "Ctrl", "C",
    "D", "Tab", "N", "R", "S", "str", "int", "NAPLEDGER", "DB", "LANG", "SESSION", "KEY",
    "http", "Bicycle", "export", "hands", "serve", "sessions", "settle", "stats", "table",
    "use", "variants", "verify", "void", "pool", "two", "misere", "RUB", "PLN", "GBP",
    "list", "x", "JSON", "Excel", "TCP", "closes",  # a key of table --json
    "import", "csv",
}  # fmt: skip
TYPED = re.compile(
    r"`[^`]*`|--?[a-z][\w-]*(?:=\S+)?|'[^']*'|«[^»]*»|„[^”]*”|\b[a-z]+_[a-z_]+\b|\b[A-Z]+_[A-Z_]+\b|https?://\S+|(?<!\w)/\S+"
)
LATIN = re.compile(r"[A-Za-z]+")

SEATS = {
    "ru": ("Борис", "Гена", "Аня", "Вера"),
    "pl": ("Bartek", "Ania", "Zosia", "Łukasz"),
}
JOINS = {"ru": "Дима", "pl": "Ewa"}
SESSIONS = {"ru": ("пятница", "суббота"), "pl": ("piątek", "sobota")}

# Words after which a name would take another case: prepositions, and the verbs of the
# sentences that used to put a name there.
GOVERNS = {
    "ru": {
        "в", "во", "из", "от", "у", "к", "ко", "с", "со", "для", "о", "об", "при", "без",
        "до", "по", "за", "про", "через", "платит", "получает", "закрыть", "перенесена",
        "перенесено", "игрока", "сдатчик", "сдатчику", "партии",
    },
    "pl": {
        "do", "z", "ze", "od", "dla", "o", "przy", "bez", "w", "we", "na", "po", "przez",
        "za", "u", "płaci", "dostaje", "zamknąć", "przeniesiona", "przeniesione", "gracza",
        "partii", "go",
    },
}  # fmt: skip
NOUNS = {"ru": {"игрока", "партии"}, "pl": {"gracza", "partii"}}
# A past-tense verb: its ending follows the subject's sex, which a name does not tell.
PAST = {"ru": re.compile(r"\w{2,}(?:л|ла|ло)$"), "pl": re.compile(r"\w{2,}(?:ł|ła|ło)$")}
NOT_VERBS = {"стола", "стол", "пула", "było", "koło", "pula"}
QUOTES = "«»„”\"'“"


def english(text: str, lang: str, names: tuple[str, ...]) -> list[str]:
    bare = TYPED.sub(" ", text)
    for name in names:
        bare = bare.replace(name, " ")
    if lang == "pl":  # Polish is written in Latin letters: only napledger's English counts
        return [w for w in untranslated(bare, "pl") if w not in KEPT]
    return [w for w in LATIN.findall(bare) if w not in KEPT]


def declined(text: str, lang: str, names: tuple[str, ...]) -> list[str]:
    """Each place where a name stands in a case or beside a gender it does not have."""
    found = []
    for name in names:
        for match in re.finditer(rf"(?<!\w)([{QUOTES}]?){re.escape(name)}(?!\w)", text):
            before = text[: match.start()].split()
            after = text[match.end() :].split()
            word_before = before[-1].strip(QUOTES).casefold() if before else ""
            word_after = after[0].strip(".,;:!?»”").casefold() if after else ""
            quoted = bool(match.group(1))  # `нет игрока 'Зоя'`: a quotation, not declined
            if word_before in GOVERNS[lang] and not (quoted and word_before in NOUNS[lang]):
                found.append(f"{word_before} {name}")
            for word in (word_before, word_after):
                if PAST[lang].fullmatch(word) and word not in NOT_VERBS:
                    found.append(f"{word} ~ {name}")
    return found


def evening(nap, lang: str, tmp_path: Path) -> list[str]:
    """Every line the evening shows, as (where, text)."""
    a, b, c, d = SEATS[lang]
    first, second = SESSIONS[lang]
    shown: list[str] = []

    def run(line: str, ok: bool = True, input: str | None = None) -> None:
        result = nap(line, ok=ok, input=input)
        shown.extend((result.stdout + "\n" + result.stderr).splitlines())

    bid3, bid2, napoleon = {"ru": ("три", "два", "наполеон"), "pl": ("trzy", "cztery", "nap")}[lang]
    variant = "--variant russian" if lang == "ru" else ""
    currency = {"ru": "RUB", "pl": "PLN"}[lang]
    run(f"new {first} --players {a},{b},{c},{d} {variant} --chip 0,05 --currency {currency}")
    run(f"hand {bid3} --by {a} --tricks 1")
    run(f"hand {napoleon} --by {c} --tricks 5")
    run("pass")
    run(f"join {JOINS[lang]}")
    peep = f"--peep {d}" if lang == "pl" else f"--buy {b}=1"  # the russian game has no peeping
    run(f"hand {bid2} --by {b} --failed {peep}")
    run(f"leave {d}")
    run(f"hand {bid3} --by {c} --made")
    run("amend 1 --tricks 3")
    run("undo")
    for line in ("table", "hands", "settle", "sessions", "variants", "variants russian",
                 "variants classic", "stats", "verify"):  # fmt: skip
        run(line)
    # A noisy table's mistakes, one-shot.
    for line in (
        f"hand {bid3} --by Зоя --tricks 1",
        f"hand {bid3} --by {a} --tricks 9",
        f"hand xyz --by {a}",
        "hand",
        f"new {first} --players {a},{b},{c}",
        f"new x --players {a},{b},{c} --chip abc",
        f"new y --players {a},{b},{c} --rule pool=maybe",
        "undo --session nosuch",
    ):
        run(line, ok=False)
    # `play` with typos, a bidder alone, an unknown player and impossible tricks.
    typed = {
        "ru": "борис тир взял\nборис\nтри\nборис три\nзоя три 3\nборис три 9\n"
        "гена наполеон без\nhelp\nборис три без\nquit\n",
        "pl": "bartek trzyy 3\nbartek\ntrzy\nbartek trzy\nzoja trzy 3\nbartek trzy 9\n"
        "ania nap ugrała\nhelp\nbartek trzy bez\nquit\n",
    }[lang]
    run("play", ok=False, input=typed)
    run("close --yes")
    run("reopen")
    run("close --yes --pot carry")
    run(f"new {second} --players {a},{b},{c},{d} {variant} --currency {currency}")
    run("settle")
    out = tmp_path / f"{lang}.xlsx"
    run(f"export --all -o {out}")
    book = openpyxl.load_workbook(out, read_only=True)
    for sheet in book:
        if sheet.title == "napledger":  # the records `import` reads: no person sees them
            continue
        for row in sheet.iter_rows(values_only=True):
            shown.extend(v for v in row if isinstance(v, str) and not v.startswith("="))
    book.close()
    return shown


def helps(lang: str, tmp_path: Path) -> list[str]:
    """`--help` of the program and of every command, as a fresh process says them (Typer
    takes the help texts as the commands are declared: napledger/start.py)."""
    script = (
        "from napledger.core.words import use\n"
        f"use({lang!r})\n"  # before napledger.cli: its help texts are taken as declared
        "from napledger.locale_frame import speak\n"
        f"speak({lang!r})\n"
        "from typer.testing import CliRunner\n"
        "from napledger.cli import app\n"
        "from napledger.cli.app import app as commands\n"
        "runner = CliRunner()\n"
        "for argv in [['--help'], *[[name, '--help'] for name in commands.declared]]:\n"
        "    said = runner.invoke(app, argv, prog_name='napledger', env={'COLUMNS': '100'})\n"
        "    print(said.output)\n"
    )
    environ = {**os.environ, "NAPLEDGER_DB": str(tmp_path / "help.db"), "NO_COLOR": "1"}
    said = subprocess.run(
        [sys.executable, "-c", script], env=environ, capture_output=True, text=True, check=True
    ).stdout
    return said.splitlines()


def banner(lang: str, capsys) -> list[str]:
    from napledger.core.words import speaking
    from napledger.web.serve import announce

    with speaking(lang):
        announce("http://h/s/1", "http://h/s/1/keep?key=k", "http://h/?key=o", lan=False)
    return capsys.readouterr().out.splitlines()


def page(lang: str, client) -> list[str]:
    from napledger.web.keys import organiser_key
    from tests.web.conftest import KEY, SECRET

    headers = {"accept-language": lang}
    shown = []
    for path in (
        "/s/1",
        f"/s/1/keep?key={KEY}",
        f"/s/1/keep/controls?key={KEY}",
        f"/new?key={organiser_key(SECRET)}",
    ):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 200, (path, answer.text)
        shown.extend(shown_text(answer.text).splitlines())
    return shown


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_a_table_reads_its_own_language(lang, nap, tmp_path, monkeypatch, capsys, client):
    monkeypatch.setenv("NAPLEDGER_LANG", lang)
    names = (*SEATS[lang], JOINS[lang], *SESSIONS[lang], "Зоя", "Zoja", "zoja", "зоя")
    shown = [
        *evening(nap, lang, tmp_path),
        *helps(lang, tmp_path),
        *banner(lang, capsys),
        *page(lang, client),
    ]
    left = {line.strip(): english(line, lang, names) for line in shown}
    left = {line: words for line, words in left.items() if words}
    assert not left, "\n".join(f"{words}  {line}" for line, words in left.items())
    wrong = {line.strip(): declined(line, lang, names) for line in shown}
    wrong = {line: found for line, found in wrong.items() if found}
    assert not wrong, "\n".join(f"{found}  {line}" for line, found in wrong.items())
