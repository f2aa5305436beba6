"""`import`: sessions from another ledger, a workbook napledger wrote, or (wired by
`scoresheet`) a typed score sheet, written into this ledger in one transaction.

Every kind of source gives the same thing: a `Source`, the sessions it offers (`Offered`:
where each came from, its name, how many deal records) and how to write one under a
name. What is the same for every kind lives here once: the sessions named, the once-only
check (a session whose `source` key is here already is told and skipped; `--as NAME`
makes it a new session), a name already used, `--dry-run` (the import is made and then
rolled back, so it says exactly what it would write) and the progress (`step`).

A ledger is read from a copy: a SQLite file is copied (SQLite's backup API) to a
temporary file, and the copy is brought up to this napledger's schema by its own
migrations, so the file itself is never changed; a database URL is read as it is (a
reading transaction, which refuses a schema behind this napledger's).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote

from napledger.core.errors import NapError
from napledger.core.read import importing as said
from napledger.core.rules.model import fold
from napledger.core.words import language, speaking
from napledger.export.kept import Kept
from napledger.service import evenings
from napledger.service.api import Database
from napledger.service.scoresheet import read_sheet, write_sheet
from napledger.store.book import whole_number

if TYPE_CHECKING:
    from napledger.core.read.board import SessionInfo
    from napledger.service.api import Transaction
    from napledger.store.models import SessionRow

Step = Callable[[int], None]

__all__ = [
    "DryRun",
    "Imported",
    "Offered",
    "Outcome",
    "Source",
    "dry_run_into",
    "import_into",
    "kept_records",
    "open_source",
]


@dataclass(frozen=True)
class Offered:
    """One session a source offers."""

    key: str  # where it came from: "ledger ID session N", "sheet sha256:HEX"
    name: str
    records: int  # deal records, every version
    ref: str = ""  # its id where it came from (a ledger's), to be named by
    carried_from: str | None = None  # the key of the session its opening pot came from
    carried_from_name: str | None = None  # ... and its name there
    # Writes it into `tx` under the name given, its pot carried on from the session of
    # that id here (None: none); returns the new session's id.
    write: Callable[[Transaction, str, str | None, Step], int] = field(
        default=lambda tx, name, carry, step: 0, repr=False, compare=False
    )


class Source(Protocol):
    def offered(self) -> list[Offered]: ...

    def check(self, tx: Transaction, made: Sequence[tuple[Offered, int, str]]) -> None:
        """After the sessions are written, in the same transaction: refuse what does not
        agree with the file (`made`: each session offered, its id here, its name here)."""


@dataclass(frozen=True)
class Imported:
    name: str  # as written here
    id: int | None  # None in a dry run
    records: int
    key: str


@dataclass(frozen=True)
class Outcome:
    imported: tuple[Imported, ...]
    already: tuple[tuple[str, str], ...]  # (the name offered, the session here)
    dry_run: bool = False

    def lines(self) -> list[str]:
        """What the import says, a line each."""
        out = [said.already(name, here) for name, here in self.already]
        say = said.would_import if self.dry_run else said.imported
        out += [say(i.name, i.records) for i in self.imported]
        if not self.imported:
            out.append(said.nothing_new())
        if self.dry_run:
            out.append(said.dry_run())
        return out

    def document(self) -> dict[str, Any]:
        return {
            "imported": [
                {"name": i.name, "id": i.id, "deals": i.records, "source": i.key}
                for i in self.imported
            ],
            "already": [{"name": n, "here": h} for n, h in self.already],
            "dry_run": self.dry_run,
        }


class DryRun(Exception):
    """Raised inside the writing transaction to roll a dry run back, carrying its outcome."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__("dry run")
        self.outcome = outcome


def _here(tx: Transaction, key: str) -> str | None:
    """The name of the session here that holds the evening `key`, if one does: one
    imported from it, or (in the very ledger it came from) the session itself."""
    found = tx.book.from_source(key)
    if found:
        return found[0].name
    ledger, _, number = key.removeprefix("ledger ").partition(" session ")
    if key.startswith("ledger ") and ledger == evenings.ledger_id(tx) and number.isdigit():
        row = tx.book.row(int(number))
        if row is not None and row.source is None:
            return row.name
    return None


def _carry_target(tx: Transaction, key: str) -> str | None:
    found = tx.book.from_source(key)
    if found:
        return str(found[-1].id)
    ledger, _, number = key.removeprefix("ledger ").partition(" session ")
    if key.startswith("ledger ") and ledger == evenings.ledger_id(tx) and number.isdigit():
        row = tx.book.row(int(number))
        if row is not None and row.source is None:
            return str(row.id)
    return None


def _carried_here(tx: Transaction, carry: str) -> bool:
    """Whether session `carry` (an id here) carried its pot, as the session's start asks
    it (core.session.carried_pot): the same rule, said in an import's words."""
    row = tx.book.row(int(carry))
    return row is not None and row.pot_to == "carry"


def chosen(offered: Sequence[Offered], refs: Sequence[str]) -> list[Offered]:
    """The sessions named (by name, any case, or by their id where they came from), in
    the source's order; none named: every one."""
    if not offered:
        raise NapError(said.no_sessions())
    if not refs:
        return list(offered)
    picked: set[int] = set()
    for ref in refs:
        number = whole_number(ref)
        hits = [
            i
            for i, o in enumerate(offered)
            if (number is not None and o.ref == str(number)) or fold(o.name) == fold(ref)
        ]
        if not hits:
            raise NapError(said.no_such(ref))
        picked.update(hits[:1])
    return [o for i, o in enumerate(offered) if i in picked]


def import_into(
    tx: Transaction,
    source: Source,
    refs: Sequence[str] = (),
    as_name: str | None = None,
    dry_run: bool = False,
    step: Step | None = None,
) -> Outcome:
    """The sessions `refs` names (else all) from `source`, written in `tx`; a dry run
    raises `DryRun` (roll the transaction back) with what it would have written."""
    todo = chosen(source.offered(), refs)
    if as_name is not None and len(todo) != 1:
        raise NapError(said.as_one())
    before = tx.current_id()
    imported: list[Imported] = []
    already: list[tuple[str, str]] = []
    made: list[tuple[Offered, int, str]] = []
    carried: dict[str, str] = {}  # the key of each session written, to its id here
    tick = step or (lambda n: None)
    for offer in todo:
        here = None if as_name is not None else _here(tx, offer.key)
        if here is not None:
            already.append((offer.name, here))
            if step is not None:
                step(offer.records)
            continue
        name = as_name if as_name is not None else offer.name
        if tx.book.name_used(name) is not None:
            raise NapError(said.name_used(name))
        carry = None
        if offer.carried_from is not None:
            carry = carried.get(offer.carried_from) or _carry_target(tx, offer.carried_from)
            from_name = offer.carried_from_name or offer.carried_from
            if carry is None:
                raise NapError(said.carried_first(offer.name, from_name))
            if not _carried_here(tx, carry):
                # Said as an import's refusal, before the session's own start would say it
                # as one of `new --carry-from`, which nobody typed here.
                raise NapError(said.carried_before(offer.name, from_name))
        new_id = offer.write(tx, name, carry, tick)
        tx.book.session(tx.book.find(str(new_id))).came_from(offer.key)
        carried[offer.key] = str(new_id)
        made.append((offer, new_id, name))
        imported.append(Imported(name, None if dry_run else new_id, offer.records, offer.key))
    if made:
        source.check(tx, made)
    if before is not None:
        tx.use(str(before))  # an import leaves the table's current session as it was
    outcome = Outcome(tuple(imported), tuple(already), dry_run)
    if dry_run:
        raise DryRun(outcome)
    return outcome


@contextlib.contextmanager
def dry_run_into(database: Database) -> Iterator[Transaction]:
    """The writing transaction a dry run makes its import in: this ledger's, or, where the
    ledger is a SQLite file not made yet, an empty one of its own (so that saying what
    an import would write does not leave an empty ledger behind)."""
    from sqlalchemy import make_url

    url = make_url(database.url)
    missing = url.get_backend_name() == "sqlite" and not Path(url.database or "").exists()
    if not missing:
        with database.write() as tx:
            yield tx
        return
    with (
        tempfile.TemporaryDirectory(prefix="napledger-import-") as folder,
        Database(str(Path(folder, "dry-run.db"))) as scratch,
        scratch.write() as tx,
    ):
        yield tx


# --- what a workbook keeps ----------------------------------------------------------------


def kept_records(tx: Transaction, sessions: Sequence[SessionInfo]) -> Kept:
    """What a workbook of `sessions` keeps for `import` (napledger/export/kept.py), in the
    language it is being written in."""
    return Kept(language(), [_lines(tx, s.id) for s in sessions])


def _lines(tx: Transaction, session: int) -> Iterator[str]:
    """A session's head, then each of its events, as JSON text, read as written."""
    row = tx.book.find(str(session))
    yield json.dumps(evenings.head(tx, row), ensure_ascii=True)
    for event in evenings.events(tx, row):
        yield json.dumps(event, ensure_ascii=True)


# --- the sources --------------------------------------------------------------------------


def _offer(document: dict[str, Any]) -> Offered:
    def write(tx: Transaction, name: str, carry: str | None, step: Step) -> int:
        return evenings.replay(tx, document, name, carry, step)

    return Offered(
        key=document["source"],
        name=document["name"],
        records=evenings.records(document),
        ref=str(document.get("id", "")),
        carried_from=document.get("carried_from"),
        carried_from_name=document.get("carried_from_name"),
        write=write,
    )


class LedgerSource:
    """Another ledger, read in one reading transaction `source`, held open while the
    import writes: each session's events stream from it as they are played again."""

    def __init__(self, source: Transaction) -> None:
        self.source = source
        self._offered: list[Offered] | None = None

    def offered(self) -> list[Offered]:
        if self._offered is None:
            self._offered = [self._offer(row) for row in self.source.book.sessions()]
        return self._offered

    def _offer(self, row: SessionRow) -> Offered:
        source = self.source
        head = evenings.head(source, row)

        def write(tx: Transaction, name: str, carry: str | None, step: Step) -> int:
            document = head | {"events": evenings.events(source, row)}
            return evenings.replay(tx, document, name, carry, step)

        return replace(_offer(head), write=write)

    def check(self, tx: Transaction, made: Sequence[tuple[Offered, int, str]]) -> None:
        """Each session was compared with its records as it was made (evenings.replay)."""


@contextlib.contextmanager
def ledger_copy(path: Path) -> Iterator[Path]:
    """A copy of the SQLite ledger at `path`, brought up to this napledger's schema; the
    file itself is only read. A ledger from before ledgers had ids (schema 0010) gets one
    made of its first session, the same at every import, so its evenings are known again."""
    from sqlalchemy import text

    from napledger.store import identity
    from napledger.store.db import make_engine, transaction
    from napledger.store.schema import upgrade

    with tempfile.TemporaryDirectory(prefix="napledger-import-") as folder:
        copy = Path(folder, "ledger.db")
        try:
            source = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
            try:
                target = sqlite3.connect(copy)
                try:
                    source.backup(target)
                finally:
                    target.close()
            finally:
                source.close()
        except sqlite3.Error:
            raise NapError(said.not_a_ledger(str(path))) from None
        engine = make_engine(f"sqlite:///{copy}", write=True)
        try:
            with transaction(engine) as db:
                connection = db.connection()
                had_id = _has_id(connection)
                upgrade(connection)
                if not had_id:
                    first = connection.execute(
                        text("SELECT name, created_at FROM sessions ORDER BY id LIMIT 1")
                    ).first()
                    seed = f"{path.resolve()}" if first is None else f"{first[0]}|{first[1]}"
                    made = "old-" + hashlib.sha256(seed.encode()).hexdigest()[:28]
                    connection.execute(
                        text("UPDATE meta SET value = :v WHERE key = :k"),
                        {"v": made, "k": identity.ID},
                    )
        except NapError:
            raise
        except Exception:
            raise NapError(said.not_a_ledger(str(path))) from None
        finally:
            engine.dispose()
        yield copy


def _has_id(connection: Any) -> bool:
    from sqlalchemy import inspect

    from napledger.store import identity

    if not inspect(connection).has_table("meta"):
        return False
    try:
        return identity.read(connection) is not None
    except Exception:
        return False


class WorkbookSource:
    """A workbook napledger wrote: its sessions from the records it keeps; then what a
    person sees in it is checked against the sessions made again (`check`)."""

    def __init__(self, path: Path, kept: Kept) -> None:
        self.path = path
        self.kept = kept
        try:
            self.documents = [
                json.loads(lines[0]) | {"events": [json.loads(line) for line in lines[1:]]}
                for lines in map(list, kept.sessions)
            ]
        except (ValueError, IndexError, TypeError):
            raise NapError(said.unreadable_records()) from None

    def offered(self) -> list[Offered]:
        return [_offer(d) for d in self.documents]

    def check(self, tx: Transaction, made: Sequence[tuple[Offered, int, str]]) -> None:
        """Write the workbook again from the sessions here (those just imported, and
        those here already) and compare every cell a person sees, times aside."""
        from napledger.export.kept import first_difference
        from napledger.export.workbook import write_workbook

        by_key = {offer.key: new_id for offer, new_id, name in made if offer.name == name}
        if any(d["source"] not in by_key for d in self.documents):
            # Some of its sessions were here already, not named, or imported under another
            # name: the workbook's totals are those of all of them, as it made them.
            self._check_apart()
            return
        reports = [tx.session(str(by_key[d["source"]])).report() for d in self.documents]
        with tempfile.TemporaryDirectory(prefix="napledger-import-") as folder:
            again = Path(folder, "again.xlsx")
            with speaking(self.kept.language):
                write_workbook(reports, again, exists="replace")
            differs = first_difference(self.path, again)
        if differs is not None:
            raise NapError(said.edited(*differs))

    def _check_apart(self) -> None:
        """Every session of the workbook made again in an empty ledger of its own, and the
        workbook checked against them: its totals are those of all its sessions."""
        with (
            tempfile.TemporaryDirectory(prefix="napledger-import-") as folder,
            Database(str(Path(folder, "check.db"))) as scratch,
            scratch.write() as tx,
        ):
            import_into(tx, self)


def workbook_source(path: Path) -> WorkbookSource:
    from napledger.export.kept import read_kept

    try:
        kept = read_kept(path)
    except NapError:
        raise
    except Exception:
        kept = None
    if kept is None:
        raise NapError(said.not_napledger_workbook(str(path)))
    return WorkbookSource(path, kept)


@contextlib.contextmanager
def open_source(text: str) -> Iterator[Source]:
    """The source `text` names: a workbook (.xlsx), a score sheet (.csv), else a ledger
    (a SQLite file's path, or a database URL)."""
    lower = text.lower()
    if lower.endswith(".xlsx"):
        yield workbook_source(Path(text))
        return
    if lower.endswith(".csv"):
        yield sheet_source(Path(text))
        return
    if "://" in text:
        with Database(text) as database, database.read(upgrade=False) as source:
            yield LedgerSource(source)
        return
    path = Path(text).expanduser()
    if not path.is_file():
        raise NapError(said.not_a_ledger(text))
    with (
        ledger_copy(path) as copy,
        Database(str(copy)) as database,
        database.read(upgrade=False) as source,
    ):
        yield LedgerSource(source)


def sheet_source(path: Path) -> Source:
    """A typed score sheet (service/scoresheet.py), known by the digest of its bytes."""
    sheet = read_sheet(path)
    key = "sheet sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()

    def write(tx: Transaction, name: str, carry: str | None, step: Step) -> int:
        done = 0

        def progress(recorded: int) -> None:  # told how many are recorded so far
            nonlocal done
            step(recorded - done)
            done = recorded

        return write_sheet(tx, sheet, name=name, progress=progress)

    return _OneSource(Offered(key, str(sheet.name), int(sheet.deal_count), write=write))


class _OneSource:
    def __init__(self, offer: Offered) -> None:
        self.offer = offer

    def offered(self) -> list[Offered]:
        return [self.offer]

    def check(self, tx: Transaction, made: Sequence[tuple[Offered, int, str]]) -> None:
        pass
