"""`close`'s question, answered as a Russian or a Polish table answers it (#35)."""

from __future__ import annotations

import io

import pytest

from napledger.cli.ask import answer, confirm
from napledger.core.words import speaking


@pytest.mark.parametrize("typed", ["y", "yes", "Y", "да", "Да", "д", "tak", "t", "TAK"])
def test_yes_in_every_language(typed):
    assert answer(typed) is True


@pytest.mark.parametrize("typed", ["n", "no", "нет", "н", "nie", "N", "", "  "])
def test_no_in_every_language_and_nothing_typed_is_no(typed):
    assert answer(typed) is False


@pytest.mark.parametrize("typed", ["maybe", "дань", "ta", "1"])
def test_anything_else_is_asked_again(typed):
    assert answer(typed) is None


@pytest.mark.parametrize(
    ("lang", "prompt", "again"),
    [
        ("ru", "Закрыть? [д/Н]: ", "Ошибка: ответьте «да» или «нет» (д/н)"),
        ("pl", "Zamknąć? [t/N]: ", "Błąd: odpowiedz „tak” albo „nie” (t/n)"),
        ("en", "Close? [y/N]: ", "Error: answer y (yes) or n (no)"),
    ],
)
def test_the_question_is_asked_in_the_language_until_answered(
    lang, prompt, again, monkeypatch, capsys
):
    monkeypatch.setattr("sys.stdin", io.StringIO("может\nда\n" if lang == "ru" else "x\nt\n"))
    question = {"ru": "Закрыть?", "pl": "Zamknąć?", "en": "Close?"}[lang]
    with speaking(lang):
        assert confirm(question) is True
    told = capsys.readouterr().err
    assert told.count(prompt) == 2 and again in told
