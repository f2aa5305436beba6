"""`import`: an evening exported to a workbook, or read from its ledger, comes back the
same evening in another ledger (napledger/service/imports.py), once only.

Random evenings (every preset, settings, joins and leaves, amends, voids, closes,
reopens, a carried pot: the steps of test_evening_property.py, with peeps, purchases,
revokes and notes besides) are exported and imported into an empty ledger: the same
`table --json`, `hands --json` and `settle --json`, and a workbook written again has the
same cells. A workbook edited by hand is refused naming the cell; an import made twice
writes nothing the second time.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from napledger.core.errors import NapError
from napledger.core.options import DealOptions
from napledger.core.rules import load_preset
from napledger.core.rules.load import with_overrides
from napledger.core.words import speaking
from napledger.export.kept import first_difference
from napledger.export.workbook import write_workbook
from napledger.service.api import Database, SessionAPI
from napledger.service.documents import hands_json, settlement_json, table_document
from napledger.service.imports import (
    DryRun,
    import_into,
    kept_records,
    open_source,
    sheet_source,
)
from tests.service.test_evening_property import PLAYERS, step, take

FIXTURES = Path(__file__).parent.parent / "fixtures"
SETTINGS = [
    "pool=yes",
    "pass_doubles=yes",
    "revoke_fine=2",
    "empty_pot_ante=1",
    "dealer_ante=1",
    "purchase_fee=2",
    "peep_fee=2",
    "dealer_peeps=pays",
]
# A deal with what the other steps leave out: a peep, a purchase, a note, a named
# dealer, a revoke (with or without an outcome).
extra = st.tuples(
    st.just("extra"),
    st.integers(0, 4),  # the bidder
    st.integers(0, 4),  # who peeps or buys, or revokes
    st.sampled_from(["peep", "buy", "revoke", "revoke-made", "note", "dealer"]),
)
steps = st.lists(st.one_of(step, extra), min_size=1, max_size=14)


def act(s: SessionAPI, kind: str, *args: Any) -> None:
    if kind != "extra":
        take(s, kind, *args)
        return
    seated = s.scoreboard().seating
    by, other, what = seated[args[0] % len(seated)], seated[args[1] % len(seated)], args[2]
    options = {
        "peep": DealOptions(bid="3", by=by, made=True, peeps=(other,)),
        "buy": DealOptions(bid="3", by=by, failed=True, buys=((other, 1),)),
        "revoke": DealOptions(bid="3", by=by, revoke=other),
        "revoke-made": DealOptions(bid="4", by=by, made=True, revoke=other),
        "note": DealOptions(bid="3", by=by, tricks=2, note="a long deal"),
        "dealer": DealOptions(bid="3", by=by, made=True, dealer=other),
    }[what]
    s.record(options)


def play(db: Database, name: str, plan: list[Any]) -> None:
    for kind, *args in plan:
        try:
            with db.write() as tx:
                act(tx.session(name), kind, *args)
        except NapError:
            pass  # refused: nothing written, as at a table


def documents(db: Database) -> list[Any]:
    """What `table --json`, `hands --json` and `settle --json` say of every session."""
    with db.read() as tx:
        out = []
        for board in tx.sessions():
            s = tx.session(str(board.session.id))
            out.append(
                (table_document(s), hands_json(s.history()), settlement_json(s.settlement()))
            )
        return out


def no_ids(value: Any) -> Any:
    """A document without the ids a ledger gave (another ledger gives others)."""
    if isinstance(value, dict):
        return {k: no_ids(v) for k, v in value.items() if k != "id"}
    if isinstance(value, list | tuple):
        return [no_ids(v) for v in value]
    return value


def export(db: Database, path: Path, lang: str = "en") -> Path:
    with db.read() as tx, speaking(lang):
        rows = [b.session for b in tx.sessions()]
        return write_workbook(
            [tx.report(r) for r in rows], path, exists="replace", kept=kept_records(tx, rows)
        )


def import_(db: Database, source: str, *refs: str, **options: Any) -> Any:
    with open_source(source) as found, db.write() as tx:
        return import_into(tx, found, refs, **options)


@contextmanager
def ledger(folder: Path, name: str) -> Iterator[Database]:
    with Database(str(folder / name)) as db:
        yield db


evening = st.fixed_dictionaries(
    {
        "variant": st.sampled_from(["classic", "russian", "seven-card"]),
        "settings": st.lists(st.sampled_from(SETTINGS), max_size=2, unique=True),
        "players": st.integers(3, 5),
        "first": steps,
        "carry": st.booleans(),
        "second": st.lists(st.one_of(step, extra), max_size=5),
        "lang": st.sampled_from(["en", "ru", "pl"]),
    }
)


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plan=evening)
def test_an_evening_exported_and_imported_is_the_same_evening(plan):
    try:
        rules = with_overrides(load_preset(plan["variant"]), plan["settings"])
    except NapError:
        assume(False)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        with ledger(folder, "home.db") as home:
            with home.write() as tx:
                tx.new_session("friday", rules, PLAYERS[: plan["players"]])
            play(home, "friday", plan["first"])
            if plan["carry"]:
                try:
                    with home.write() as tx:
                        s = tx.session("friday")
                        if s.info.closed:
                            s.reopen()
                        s.close("carry")
                except NapError:
                    pass
            with home.read() as tx:
                carried = tx.session("friday").info.pot_to == "carry"
            with home.write() as tx:
                tx.new_session(
                    "saturday", rules, PLAYERS[:3], carry_from="friday" if carried else None
                )
            play(home, "saturday", plan["second"])
            first = export(home, folder / "home.xlsx", plan["lang"])
            wanted = documents(home)

        # The workbook, into an empty ledger: the same evening, and the same workbook.
        with ledger(folder, "club.db") as club:
            done = import_(club, str(first))
            assert [i.name for i in done.imported] == ["friday", "saturday"]
            assert documents(club) == wanted
            again = export(club, folder / "again.xlsx", plan["lang"])
            assert first_difference(first, again) is None
            with club.read() as tx:
                assert tx.verify().problems == []
            # Once only: the same workbook, or the ledger it came from, writes nothing.
            for source in (first, folder / "home.db"):
                done = import_(club, str(source))
                assert done.imported == () and len(done.already) == 2
            assert documents(club) == wanted

        # The ledger itself, into another empty one.
        with ledger(folder, "other.db") as other:
            import_(other, str(folder / "home.db"))
            assert documents(other) == wanted
            with other.read() as tx:
                assert tx.verify().problems == []


@pytest.fixture
def home(tmp_path) -> Iterator[Path]:
    """A member's evening at home: amended, voided, joined, left, closed, reopened, its pot
    carried into the next."""
    path = tmp_path / "home.db"
    with Database(str(path)) as db:
        with db.write() as tx:
            tx.new_session("friday", load_preset("russian"), ["Ann", "Ben", "Cat", "Dan"])
        for change in (
            lambda s: s.record(DealOptions(bid="3", by="Ann", made=True)),
            lambda s: s.record(DealOptions(bid="nap", by="Ben", failed=True)),
            lambda s: s.join("Eve", after="Ann"),
            lambda s: s.record(DealOptions(bid="4", by="Cat", tricks=2, buys=(("Cat", 1),))),
            lambda s: s.amend(1, DealOptions(by="Dan")),
            lambda s: s.void(2),
            lambda s: s.pass_(),
            lambda s: s.leave("Ben"),
            lambda s: s.close("split"),
            lambda s: s.reopen(),
            lambda s: s.record(DealOptions(bid="3", by="Ann", made=True)),
            lambda s: s.close("carry"),
        ):
            with db.write() as tx:
                change(tx.session("friday"))
        with db.write() as tx:
            tx.new_session(
                "saturday", load_preset("russian"), ["Ann", "Ben", "Cat"], carry_from="friday"
            )
            tx.session("saturday").record(DealOptions(bid="3", by="Ann", failed=True))
    yield path


def test_a_ledger_comes_into_this_one_once_without_being_changed(home, tmp_path, on_postgres):
    before = hashlib.sha256(home.read_bytes()).hexdigest()
    with Database(str(home)) as db:
        wanted = documents(db)
    # This ledger: the test's own (PostgreSQL where the run is on it).
    with Database() as club:
        with club.write() as tx:
            tx.new_session("tuesday", load_preset("classic"), ["Ann", "Ben", "Cat"])
        done = import_(club, str(home))
        assert [(i.name, i.records) for i in done.imported] == [("friday", 6), ("saturday", 1)]
        assert no_ids(documents(club)[1:]) == no_ids(wanted)
        with club.read() as tx:
            assert tx.verify().problems == []
            assert tx.current_id() == 1  # the table's current session is still its own
        again = import_(club, str(home))
        assert again.imported == () and [a[0] for a in again.already] == ["friday", "saturday"]
        assert no_ids(documents(club)[1:]) == no_ids(wanted)
    assert hashlib.sha256(home.read_bytes()).hexdigest() == before


def test_a_dry_run_says_what_it_would_write_and_writes_nothing(home):
    with Database() as club:
        with pytest.raises(DryRun) as rolled_back:
            import_(club, str(home), dry_run=True)
        outcome = rolled_back.value.outcome
        assert [(i.name, i.records) for i in outcome.imported] == [("friday", 6), ("saturday", 1)]
        assert outcome.lines()[-1] == "Nothing was written (--dry-run)."
        with club.read() as tx:
            assert tx.sessions() == []


def test_as_makes_one_session_anew_and_a_name_used_is_refused_with_the_way_out(home, tmp_path):
    with Database() as club:
        import_(club, str(home), "friday")
        with pytest.raises(NapError, match="give --as NAME"):
            import_(club, str(home), "saturday", as_name="friday")
        with pytest.raises(NapError, match="--as names one session"):
            import_(club, str(home), as_name="again")
        done = import_(club, str(home), "1", as_name="friday again")  # by its id there
        assert [i.name for i in done.imported] == ["friday again"]
        with club.read() as tx:
            assert len(tx.sessions()) == 2
    # A session whose pot came from one not here, nor imported with it: refused.
    with Database(str(tmp_path / "empty.db")) as empty:
        with pytest.raises(NapError, match="'saturday' carries on the pot of session 'friday'"):
            import_(empty, str(home), "saturday")
        with empty.read() as tx:
            assert tx.sessions() == []


def test_a_pot_carried_from_a_session_imported_while_open_is_refused_as_an_import(tmp_path):
    """Friday imported while still being played, then closed at home carrying its pot
    into saturday: the friday here is not brought up to date (docs/import.md), so
    saturday's carry is refused, in an import's words (not `new --carry-from`'s, which
    nobody typed), saying the way out, which then works."""
    home = tmp_path / "home.db"
    with Database(str(home)) as db, db.write() as tx:
        tx.new_session("friday", load_preset("russian"), ["Ann", "Ben", "Cat"])
        tx.session("friday").record(DealOptions(bid="3", by="Ann", failed=True))
    with Database() as club:
        import_(club, str(home))
        with Database(str(home)) as db:
            with db.write() as tx:
                tx.session("friday").close("carry")
            with db.write() as tx:
                tx.new_session(
                    "saturday", load_preset("russian"), ["Ann", "Ben", "Cat"], carry_from="friday"
                )
        with pytest.raises(NapError) as refused:
            import_(club, str(home))
        assert str(refused.value) == (
            "session 'saturday' carries on the pot of session 'friday', but session 'friday' "
            "was imported before its pot was carried; first import session 'friday' again, "
            "with --as NAME"
        )
        assert refused.value.field is None  # no option of the command it is about
        with club.read() as tx:
            assert [b.session.name for b in tx.sessions()] == ["friday"]
        import_(club, str(home), "friday", as_name="friday again")
        done = import_(club, str(home))
        assert [i.name for i in done.imported] == ["saturday"]
        with club.read() as tx:
            assert tx.session("saturday").history().carried_from == "friday again"
            pot = tx.session("saturday").scoreboard().pot
        with Database(str(home)) as db, db.read() as tx:
            assert pot == tx.session("saturday").scoreboard().pot > 0  # friday's, carried
        with club.read() as tx:
            assert tx.verify().problems == []


def test_an_import_of_an_import_keeps_the_first_source(home, tmp_path):
    with Database(str(tmp_path / "club.db")) as club:
        import_(club, str(home))
    with Database(str(tmp_path / "league.db")) as league:
        import_(league, str(tmp_path / "club.db"))
        again = import_(league, str(home))  # the same evenings, by another road
        assert again.imported == () and len(again.already) == 2


def a_number_on_the_summary(home, tmp_path):
    """The workbook exported from `home` (its path, opened), and the first non-zero number its Summary shows."""
    with Database(str(home)) as db:
        workbook = export(db, tmp_path / "home.xlsx")
    wb = openpyxl.load_workbook(workbook)
    cell = next(
        c
        for row in wb["Summary"].iter_rows()
        for c in row
        if isinstance(c.value, int | float) and c.value
    )
    return workbook, wb, cell


def test_a_workbook_with_one_cell_edited_is_refused_naming_it(home, tmp_path):
    workbook, wb, cell = a_number_on_the_summary(home, tmp_path)
    shown = cell.value
    cell.value = shown + 1
    edited = tmp_path / "edited.xlsx"
    wb.save(edited)
    with Database() as club:
        with pytest.raises(NapError) as refused:
            import_(club, str(edited))
        said = str(refused.value)
        assert f"sheet 'Summary', cell {cell.coordinate} says '{shown + 1}'" in said
        assert f"the deals give '{shown}'" in said
        with club.read() as tx:
            assert tx.sessions() == []
        assert import_(club, str(workbook)).imported  # the workbook as written: imported


def test_a_workbook_without_records_is_refused(tmp_path):
    plain = tmp_path / "plain.xlsx"
    openpyxl.Workbook().save(plain)
    with Database() as club, pytest.raises(NapError, match="not a workbook napledger wrote"):
        import_(club, str(plain))


@pytest.mark.parametrize("fixture", ["schema-0001.db", "before-house-rules.db"])
def test_an_old_ledger_comes_in_whole_and_stays_as_it_was(fixture, tmp_path):
    old = tmp_path / fixture
    shutil.copy(FIXTURES / fixture, old)
    before = old.read_bytes()
    upgraded = tmp_path / "upgraded.db"
    shutil.copy(FIXTURES / fixture, upgraded)
    with Database(str(upgraded)) as db:
        wanted = documents(db)
    with Database(str(tmp_path / "club.db")) as club:
        done = import_(club, str(old))
        assert len(done.imported) == len(wanted)
        got = documents(club)
        assert [t for t, _, _ in got] == [t for t, _, _ in wanted]
        assert [s for _, _, s in got] == [s for _, _, s in wanted]
        assert [[dict(d, recorded_at=None) for d in h] for _, h, _ in got] == [
            [dict(d, recorded_at=None) for d in h] for _, h, _ in wanted
        ]
        assert import_(club, str(old)).imported == ()  # the same ids at every import
    assert old.read_bytes() == before


def test_a_score_sheet_gets_once_only_as_and_dry_run_alike(tmp_path):
    """The typed score sheet (docs/examples/vecher.csv, service/scoresheet.py) goes through
    the same once-only, --as and dry run as a ledger or a workbook."""
    paper = tmp_path / "vecher.csv"
    shutil.copy(Path(__file__).parents[2] / "docs" / "examples" / "vecher.csv", paper)
    steps: list[int] = []
    with Database() as club:
        with club.write() as tx:
            done = import_into(tx, sheet_source(paper), step=steps.append)
        assert [(i.name, i.records) for i in done.imported] == [("вечер у Бориса", 20)]
        assert done.imported[0].key.startswith("sheet sha256:") and sum(steps) == 20
        with club.write() as tx:
            assert import_into(tx, sheet_source(paper)).imported == ()  # once only
        with pytest.raises(DryRun), club.write() as tx:
            import_into(tx, sheet_source(paper), as_name="вечер 2", dry_run=True)
        with club.write() as tx:
            import_into(tx, sheet_source(paper), as_name="вечер 2")
        with club.read() as tx:
            names = [b.session.name for b in tx.sessions()]
            assert sorted(names) == ["вечер 2", "вечер у Бориса"]


def test_an_emptied_cell_is_said_empty_not_none(home, tmp_path):
    """A cell emptied by hand (or filled where the deals leave it empty) is said in words:
    no table reads None."""
    _, wb, cell = a_number_on_the_summary(home, tmp_path)
    shown = cell.value
    cell.value = None
    edited = tmp_path / "emptied.xlsx"
    wb.save(edited)
    with Database() as club, pytest.raises(NapError) as refused:
        import_(club, str(edited))
    said = str(refused.value)
    assert f"cell {cell.coordinate} is empty, the deals give '{shown}'" in said
    assert "None" not in said
