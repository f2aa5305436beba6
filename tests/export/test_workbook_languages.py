"""The workbook in the session's language or `--lang`'s: sheet names, headers, notes, the
chart's titles and the money's number formats (read back with openpyxl)."""

from __future__ import annotations

import re
from decimal import Decimal

import openpyxl
import pytest

RU = ("Борис", "Гена", "Аня", "Вера")
# What stays as typed in any language: rule keys, a session's and players' names, the
# currency's code in the sessions table, and the commands a note names (settle, close).
KEPT = re.compile(
    r"\b[a-z]+(?:_[a-z]+)+\b|\bRUB\b|\bsettle\b|\bclose\b|\bnever\b|\bfree\b|\bpays\b"
)


def evening(nap, lang_option: str = "") -> None:
    nap(
        f"new пятница --players {','.join(RU)} --variant russian --chip 12.5 --currency RUB"
        + lang_option
    )
    nap("hand three --by Борис --tricks 3")
    nap("hand napoleon --by Гена --failed")
    nap("hand one --by Аня --tricks 0")
    nap("undo")
    nap("hand one --by Аня --tricks 1")


def texts(path) -> dict[str, list[str]]:
    wb = openpyxl.load_workbook(path)
    found: dict[str, list[str]] = {}
    for ws in wb.worksheets:
        if ws.sheet_state == "veryHidden":  # the records `import` reads: nobody sees them
            continue
        found[ws.title] = [
            str(v) for row in ws.iter_rows(values_only=True) for v in row if isinstance(v, str)
        ]
    return found


def latin(words: list[str]) -> list[str]:
    """The runs of Latin letters left, but for the rule keys (what --rule takes)."""
    from napledger.core.rules import load_preset
    from napledger.core.rules.load import rules_to_dict

    keys = set(rules_to_dict(load_preset("russian"))["settings"])
    left = []
    for text in words:
        if text.startswith("=") or text in keys:  # a formula, a rule's key
            continue
        left += re.findall(r"[A-Za-z]+", KEPT.sub(" ", text))
    return left


def test_a_workbook_exported_with_lang_ru_is_russian(nap, tmp_path):
    evening(nap)
    out = tmp_path / "ru.xlsx"
    nap(f"export --lang ru -o {out}")
    sheets = texts(out)
    assert list(sheets) == ["Итоги", "График", "Сдачи", "Правила", "Проводки", "Балансы"]
    for title in ("Итоги", "Сдачи", "Правила", "Проводки"):
        assert latin(sheets[title]) == [], (title, latin(sheets[title]))
    summary = sheets["Итоги"]
    assert "Вечер игры в «Наполеон»: пятница" in summary and "Итоги вечера" in summary
    assert "Проверка: сумма равна нулю" in summary and "Расчёт: 3 платежа" in summary
    assert any(t.startswith("Наполеон · фишка стоит 12,50\u00a0₽") for t in summary)
    deals = sheets["Сдачи"]
    assert "сыграно (взяты 3)" in deals and "сыграно (взята 1)" in deals
    assert "без одной (взято 0)" in deals and "отменена" in deals and "наполеон" in deals
    wb = openpyxl.load_workbook(out)
    formats = {c.number_format for ws in wb.worksheets for row in ws.iter_rows() for c in row}
    assert '[$-419]#,##0.00 "₽"' in formats
    assert '[$-419]+#,##0.00 "₽";[$-419]"\u2212"#,##0.00 "₽";[$-419]0.00 "₽"' in formats
    chart = wb["График"]._charts[0]
    title = "".join(r.t for p in chart.title.tx.rich.p for r in (p.r or []))
    assert title == "Деньги по ходу вечера"
    footer = wb["Итоги"].oddFooter.center.text
    assert footer == "Страница &P из &N"


def test_the_session_s_own_language_is_the_workbook_s(nap, tmp_path):
    evening(nap, " --lang ru")
    out = tmp_path / "kept.xlsx"
    nap(f"export -o {out}")  # the terminal speaks English, the session Russian
    assert openpyxl.load_workbook(out).sheetnames[0] == "Итоги"
    english = tmp_path / "en.xlsx"
    nap(f"export --lang en -o {english}")
    assert openpyxl.load_workbook(english).sheetnames[0] == "Summary"


def test_a_polish_workbook_writes_zloty_the_polish_way(nap, tmp_path):
    nap("new piątek --players Łukasz,Zofia,Wojtek,Ania --chip 0.5 --currency PLN --lang pl")
    nap("hand nap --by Łukasz --tricks 5")
    nap("hand three --by Zofia --tricks 2")
    out = tmp_path / "pl.xlsx"
    nap(f"export -o {out}")
    wb = openpyxl.load_workbook(out)
    # ... and the records `import` reads, in a sheet nobody sees (napledger/export/kept.py)
    assert wb.sheetnames == [
        "Podsumowanie", "Wykres", "Rozdania", "Zasady", "Księga", "Salda", "napledger"
    ]  # fmt: skip
    deals = texts(out)["Rozdania"]
    assert "ugrana (wzięto 5)" in deals and "bez jednej (wzięte 2)" in deals
    formats = {c.number_format for row in wb["Podsumowanie"].iter_rows() for c in row}
    assert '[$-415]#,##0.00 "zł"' in formats


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_the_english_workbook_is_unchanged_by_another_language_s_run(nap, tmp_path, lang):
    """A Russian or Polish export leaves the next English one as it always was."""
    evening(nap)
    nap(f"export --lang {lang} -o {tmp_path / 'other.xlsx'}")
    out = tmp_path / "en.xlsx"
    nap(f"export -o {out}")
    wb = openpyxl.load_workbook(out)
    assert wb.sheetnames == [
        "Summary", "Chart", "Deals", "Rules", "Ledger", "Balance", "napledger"
    ]  # fmt: skip
    formats = {c.number_format for row in wb["Summary"].iter_rows() for c in row}
    assert '#,##0.00 "₽"' in formats


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_every_column_holds_its_words_and_amounts_in_the_language(nap, tmp_path, lang):
    """No header word broken mid-way, no `###`, no cut cell: each column is at least as
    wide as the longest word of its header and as the widest amount or label it holds,
    as the language writes them (a digit is the unit of a column's width)."""
    from napledger.core.words import speaking
    from napledger.export.cells import money_label
    from napledger.export.sheet import header_room

    evening(nap, f" --lang {lang}")
    nap("hand napoleon --by Вера --tricks 5")
    nap("close --yes")
    out = tmp_path / f"{lang}.xlsx"
    nap(f"export -o {out}")
    wb = openpyxl.load_workbook(out)
    ws = wb.worksheets[2]  # the deals
    widths = {c: d.width for c, d in ws.column_dimensions.items()}
    header = [c for c in ws[1] if c.value]
    with speaking(lang):
        for cell in header:
            assert widths[cell.column_letter] >= header_room(str(cell.value)) - 0.01, cell.value
        for row in ws.iter_rows(min_row=2):
            for cell in row:
                if isinstance(cell.value, str):  # a label in a column of numbers: «закрытие»
                    shown = len(cell.value)
                elif "₽" in cell.number_format or "zł" in cell.number_format:
                    shown = len(money_label(Decimal(cell.value), "RUB", Decimal("12.5")))
                else:
                    continue
                if cell.column_letter in widths and ws[f"{cell.column_letter}1"].value:
                    numeric = cell.column_letter not in ("A", "D", "E", "F", "G", "H", "J")
                    if numeric:
                        assert widths[cell.column_letter] >= shown + 1, (
                            cell.coordinate,
                            cell.value,
                        )


def test_a_pot_carried_before_the_next_session_starts_reads_without_a_session_s_name(nap, tmp_path):
    # A named session goes with its noun («в партию «суббота»»); before one exists the
    # pot goes to «следующую партию», never into quotes as if that were its name.
    evening(nap)
    nap("close --yes --pot carry")
    out = tmp_path / "ru.xlsx"
    nap(f"export --lang ru -o {out}")
    summary = " ".join(texts(out)["Итоги"])
    assert "перенесено в следующую партию" in summary
    assert "«следующую партию»" not in summary
    nap(
        "new суббота --players Борис,Гена,Аня --variant russian --chip 12.5 --currency RUB"
        " --carry-from пятница"
    )
    nap(f"export --lang ru --force -o {out} пятница")
    assert "перенесено в партию «суббота»" in " ".join(texts(out)["Итоги"])


@pytest.mark.parametrize(
    ("lang", "fmt"), [("ru", 'dd.mm.yyyy", "hh:mm'), ("pl", 'd.mm.yyyy", "hh:mm')]
)
def test_session_times_read_as_the_language_writes_them(nap, tmp_path, lang, fmt):
    """Each date and time cell in the language's short form (05.12.2026, 21:40 and
    5.12.2026, 21:40), the same as the session's line above it says in words."""
    from datetime import datetime

    from napledger.core.dates import written_when
    from napledger.core.words import speaking

    evening(nap, f" --lang {lang}")
    out = tmp_path / f"{lang}.xlsx"
    nap(f"export -o {out}")
    wb = openpyxl.load_workbook(out)
    seen = [ws for ws in wb.worksheets if ws.sheet_state != "veryHidden"]  # not import's records
    cells = [c for ws in seen for row in ws.iter_rows() for c in row]
    stamped = [c for c in cells if isinstance(c.value, datetime)]
    assert stamped and {c.number_format for c in stamped} == {fmt}
    created = min(c.value for c in stamped)
    with speaking(lang):
        said = written_when(created)
    lines = [c.value for c in cells if isinstance(c.value, str)]
    assert any(said in line for line in lines), said
    assert not any(re.search(r"\d{4}-\d\d-\d\d", line) for line in lines)
