"""`napledger export` end to end: from the database to a workbook read back with openpyxl."""

import re
import zipfile
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest


def sheet_rows(path, name):
    wb = openpyxl.load_workbook(path)
    ws = wb[name]
    rows = list(ws.iter_rows(values_only=True))
    return rows[0], rows[1:]


def column(header, rows, title):
    i = header.index(title)
    return [r[i] for r in rows]


@pytest.fixture
def evening(nap):
    nap.start_from(
        "new friday --players Ann,Ben,Cat,Dan --chip 0.05 --currency GBP --rule pool=on",
        "hand 3 --by ann --made",
        "hand nap --by ben --tricks 5",
        "hand four --by cat --revoke dan",
        "hand 3 --by dan --failed",
        "amend 4 --made",
        "pass",
        "undo",
    )
    return nap


def test_totals_in_the_workbook_equal_the_ledger(evening, tmp_path):
    path = tmp_path / "friday.xlsx"
    assert "1 session" in evening(f"export -o {path}").stdout
    chips = evening.chips()
    header, rows = sheet_rows(path, "Ledger")
    net = {}
    for payer, payee, amount in zip(
        column(header, rows, "Payer"),
        column(header, rows, "Payee"),
        column(header, rows, "Chips"),
        strict=True,
    ):
        net[payer] = net.get(payer, 0) - amount
        net[payee] = net.get(payee, 0) + amount
    assert {p: net.get(p, 0) for p in chips} == chips
    header, rows = sheet_rows(path, "Deals")
    assert column(header, rows, "Status") == ["live", "live", "live", "replaced", "live", "voided"]
    assert "xl/charts/chart1.xml" in zipfile.ZipFile(path).namelist()


def test_money_cells_are_numbers(evening, tmp_path):
    path = tmp_path / "m.xlsx"
    evening(f"export -o {path}")
    wb = openpyxl.load_workbook(path)
    money = [
        c
        for row in wb["Summary"].iter_rows()
        for c in row
        if isinstance(c.value, (int, float)) and "£" in c.number_format
    ]
    assert money, "no money cell with a pound format"
    table = {p["name"]: Decimal(p["money"]) for p in evening.json("table --json")["players"]}
    assert {float(v) for v in table.values()} <= {float(c.value) for c in money}


def test_hostile_names_stay_text(nap, tmp_path):
    nap('new "=SUM(A1)" --players "=cmd|x",+Bob,@Cat,-Dan')
    nap('hand 3 --by "=cmd" --made')
    path = tmp_path / "h.xlsx"
    nap(f"export -o {path}")
    wb = openpyxl.load_workbook(path)
    cells = [c for ws in wb.worksheets for row in ws.iter_rows() for c in row]
    names = {"=SUM(A1)", "=cmd|x", "+Bob", "@Cat", "-Dan"}
    found = {c.value for c in cells if c.value in names}
    assert found == names
    assert all(c.data_type == "s" for c in cells if c.value in names)
    with zipfile.ZipFile(path) as z:
        # The only formulas are the Summary's own checks: sums of number cells.
        formulas = [
            f
            for n in z.namelist()
            if n.startswith("xl/worksheets/")
            for f in re.findall(r"<f>([^<]*)</f>", z.read(n).decode())
        ]
        assert all(re.fullmatch(r"SUM\([A-Z]+\d+:[A-Z]+\d+\)", f) for f in formulas), formulas


def test_the_default_file_is_named_by_the_day_the_session_was_played(tmp_path):
    from datetime import date

    from napledger.cli.export import default_path

    played = date(2026, 12, 4)
    assert default_path(["Fri 10pm"], played) == Path("exports/2026-12-04-Fri-10pm.xlsx")
    assert default_path(["a", "b"], played).name == "2026-12-04-2-sessions.xlsx"


def test_default_path_is_under_exports(evening, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = evening("export").stdout
    made = list((tmp_path / "exports").glob("*-friday.xlsx"))
    assert len(made) == 1 and made[0].name in out


def test_an_unwritable_path_is_a_clean_error_and_leaves_nothing(evening, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert "cannot write" in evening.fails(f"export -o {blocked}/x.xlsx")
    assert evening.fails("export -o /proc/nope/x.xlsx")
    assert list(tmp_path.glob("**/*.xlsx")) == [] and list(tmp_path.glob("**/.*.tmp")) == []


def test_choosing_sessions(nap, tmp_path):
    nap("new one --players A,B,C")
    nap("new two --players A,B,C")
    nap("hand 3 --by A --made")
    path = tmp_path / "all.xlsx"
    assert "2 sessions" in nap(f"export --all -o {path}").stdout
    assert "1 session," in nap(f"export one -o {path} --force").stdout
    assert "2 sessions" in nap(f"export --since 2000-01-01 -o {path} --force").stdout
    assert "no sessions" in nap.fails(f"export --until 2000-01-01 -o {path}")
    assert "date like" in nap.fails(f"export --since yesterday -o {path}")
    assert "no session 'three'" in nap.fails(f"export three -o {path}")


def test_without_output_an_existing_file_gets_the_next_name(evening, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = evening("export").stdout
    second = evening("export").stdout
    made = sorted((p.name for p in (tmp_path / "exports").glob("*.xlsx")), key=len)
    assert len(made) == 2 and made[1] == made[0].replace(".xlsx", "-2.xlsx")
    assert made[0] in first and made[1] in second


def test_output_onto_an_existing_file_needs_force(evening, tmp_path):
    path = tmp_path / "f.xlsx"
    path.write_bytes(b"keep me")
    assert evening.fails(f"export -o {path}") == (
        f"Error: {path} already exists: give --force to replace it"
    )
    assert path.read_bytes() == b"keep me"
    assert f"Wrote {path}:" in evening(f"export -o {path} --force").stdout
    assert zipfile.is_zipfile(path)
