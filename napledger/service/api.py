"""The session API: the one way every front end (the CLI, `play`, the web page) uses the book.

    database = Database(db)                     # one per command, or per server / evening
    with database.write() as tx:                # one transaction; database.read() to read
        s = tx.session("friday")                # by id or name; None: the current session
        result = s.record(DealOptions(bid="nap", by="ann", tricks=5))
    database.close()

`Transaction` (one transaction):
    sessions() -> list[Scoreboard]              current_id() -> int | None
    new_session(name, rules, players, chip_value=None, currency=None, dealer=None,
        carry_from=None) -> Scoreboard (and it becomes the current session; without a chip
        value or currency: those of the session carried from, else 1 and none)
    use(ref) -> SessionInfo                     session(ref=None) -> SessionAPI
    find_many(refs) -> list[SessionInfo]        settlement(refs) -> Settlement
    sessions_between(since=None, until=None, refs=None) -> list[SessionInfo]
    report(info) -> SessionReport               stats(since=None, until=None) -> Figures
    known_players() -> list[str]                verify() -> Report

`SessionAPI` (one session; the writing calls refuse a closed session):
    info -> SessionInfo                         scoreboard() -> Scoreboard
    history() -> History                        view() -> TableView
    deal(number) -> (revision, Deal)
    record(options, expect_number=None) -> DealResult
    pass_(options, expect_number=None) -> DealResult
    undo(expected=None, expect_revision=None) -> VoidResult
    void(number, expect_revision=None) -> VoidResult
    amend(number, options, expect_revision=None, expect_next=None) -> DealResult
    join(player, after=None) -> SeatResult
    leave(player) -> SeatResult                 close(pot_to="split", agreed=None) -> CloseResult
    settlement() -> Settlement                  close_plan(pot_to="split") -> ClosePlan
    reopen() -> Scoreboard
    last_change() -> tuple                      deals_since(after_id) -> [(id, "N.rev")]

Values in are plain (str, int, Decimal, `DealOptions`); values out are the frozen
dataclasses of `views.py` and `history.py`; a failure is a `NapError` with one line to
show, and the transaction is rolled back. A new call (say `reopen`) is one method of
`SessionAPI` that checks `self._writable()` (or not), works on `self.store` (the store
bound to the session, napledger/store/book.py), and returns such a value. A `Database` may serve several threads (a web
server): each request opens its own transaction.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING

from napledger.core import expect
from napledger.core.errors import NapError
from napledger.core.money import places
from napledger.core.options import DealOptions
from napledger.core.read.board import Scoreboard, SessionInfo
from napledger.core.read.history import ScoredDeal, score_history
from napledger.core.read.report import SessionReport
from napledger.core.read.settlement import Settlement, parties
from napledger.core.read.timeline import History
from napledger.core.rules import Deal, Rules
from napledger.core.rules.scoring import close_payments
from napledger.core.session import ClosePlan, pass_options, still_open
from napledger.core.words import _
from napledger.store import identity
from napledger.store.book import Book, SessionStore, net_money, session_info
from napledger.store.db import (
    APPLIED,
    OpenedFile,
    checkpoint,
    describe,
    make_engine,
    resolve_url,
    transaction,
)
from napledger.store.models import SessionRow
from napledger.store.schema import MIGRATIONS, pending, upgrade
from napledger.store.views import CloseResult, DealResult, SeatResult, TableView, VoidResult

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection, Engine

    from napledger.core.tally import Figures
    from napledger.service.watch import Changes
    from napledger.store.verify import Report

__all__ = ["Database", "DealOptions", "SessionAPI", "Transaction"]

LEDGER_LOOK_SECONDS = 0.5  # how often a server's listening thread looks at the ledger


class Database:
    """One database, its engines kept for as long as this object lives (close it after)."""

    def __init__(self, db: str | None = None) -> None:
        self.url = resolve_url(db)  # `--db`, else NAPLEDGER_DB, else the user data file
        self._engines: dict[bool, Engine] = {}
        # The file the first engine opened: every later engine and transaction must find it.
        self._opened = OpenedFile()
        self._lock = threading.Lock()  # requests of a server may race to make an engine
        # Called with each writing transaction that went well, inside it, before it commits:
        # `play` reads what its prompt needs in the deal's own transaction.
        self.before_commit: list[Callable[[Transaction], None]] = []
        # The ledger this object found first (store/identity.py), its newest generation
        # seen, and why it stopped (another ledger or an older copy in its place).
        self._ledger: tuple[str, int] | None = None
        self._gone: str | None = None
        self._ledger_lock = threading.Lock()
        self._looked_at = 0.0

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            for engine in self._engines.values():
                engine.dispose()
            self._engines.clear()

    def check_same_files(self) -> None:
        """Refuse when the path now names another file than the one first opened, or none."""
        self._opened.check()
        if self._gone is not None:
            raise NapError(self._gone)

    def check_same_ledger(self) -> None:
        """Refuse when the database now holds another ledger, or an older copy of this one
        (looked at most every `LEDGER_LOOK_SECONDS`: a server's listening thread asks)."""
        self.check_same_files()
        if time.monotonic() - self._looked_at < LEDGER_LOOK_SECONDS or self._ledger is None:
            return
        self._looked_at = time.monotonic()
        if self._opened.path:  # a SQLite file: as a new connection finds it
            self._compare(identity.read_file(self._opened.path))
            return
        try:
            with self.read():
                pass  # every transaction looks (`_same_ledger`)
        except NapError:
            if self._gone is not None:
                raise

    def _same_ledger(self, connection: Connection, write: bool) -> tuple[str, int] | None:
        """Every transaction's first look: the ledger first found, at a generation no older
        than the newest seen; else the process stops writing, for good. A write to a
        SQLite file also asks a new connection, which trusts no page read before: the
        write lock is held, so it finds what this transaction does, unless the file was
        replaced under the pages this process kept."""
        if self._gone is not None:
            raise NapError(self._gone)
        found = identity.read(connection)
        if write and self._opened.path:
            afresh = identity.read_file(self._opened.path)
            if afresh is not None and afresh != found:
                self._stop()
        with self._ledger_lock:
            if found is None or self._matches(found):
                return found
        # Perhaps only this transaction's snapshot is older than one seen: asked afresh.
        if self._opened.path:
            self._compare(identity.read_file(self._opened.path))
            return found
        with transaction(self._engine(False)) as fresh:
            self._compare(identity.read(fresh.connection()))
        return found

    def _written(self, found: tuple[str, int] | None) -> None:
        """A write committed: the generation it moved on to is the newest seen."""
        if found is not None:
            with self._ledger_lock:
                self._matches((found[0], found[1] + 1))

    def _compare(self, found: tuple[str, int] | None) -> None:
        """None (the file could not be read just now: busy, or half copied) tells nothing."""
        with self._ledger_lock:
            if found is None or self._matches(found):
                return
        self._stop()

    def _stop(self) -> None:
        self._gone = _(
            "{path} no longer holds the ledger opened at the start (another ledger, or "
            "an older copy of this one, was put in its place); nothing more is saved "
            "until napledger is started again"
        ).format(path=describe(self.url))
        raise NapError(self._gone)

    def _matches(self, found: tuple[str, int]) -> bool:
        known = self._ledger
        if known is not None and (found[0] != known[0] or found[1] < known[1]):
            return False
        self._ledger = found
        return True

    def changes(self) -> Changes:
        """What tells a server that this database may have changed, whoever wrote to it."""
        from napledger.service.watch import changes

        return changes(self.url, self.check_same_files)

    def _engine(self, write: bool) -> Engine:
        with self._lock:
            if write not in self._engines:
                self._engines[write] = make_engine(self.url, write, self._opened)
            return self._engines[write]

    def read(self, upgrade: bool = True) -> AbstractContextManager[Transaction]:
        """A reading transaction: a consistent snapshot, nothing written.

        A schema behind this napledger is brought up to date first, unless `upgrade` is
        False (shell completion: a Tab press must not change the file); then the read is
        refused.
        """
        return self._transaction(write=False, upgrade=upgrade)

    def write(self) -> AbstractContextManager[Transaction]:
        """A writing transaction: all of it is committed, or none of it."""
        return self._transaction(write=True)

    @contextmanager
    def _transaction(self, write: bool, upgrade: bool = True) -> Iterator[Transaction]:
        engine = self._engine(write)
        # Up to date, as nearly always: the command runs in this very transaction.
        behind = False
        with transaction(engine) as db:
            if not up_to_date(db.connection()):
                behind = True
            else:
                found = self._same_ledger(db.connection(), write)
                tx = Transaction(Book(db), write)
                yield tx
                if write:
                    for see in self.before_commit:
                        see(tx)
                    identity.advance(db.connection())
        if write and not behind:
            self._written(found)
            checkpoint(engine)
        if behind:
            if not upgrade:
                raise NapError(
                    _(
                        "{database} needs its schema upgraded; any command but "
                        "shell completion upgrades it"
                    ).format(database=describe(self.url))
                )
            bring_up_to_date(self.url, self._opened)
            with transaction(engine) as db:
                found = self._same_ledger(db.connection(), write)
                yield Transaction(Book(db), write)
                if write:
                    identity.advance(db.connection())
            if write:
                self._written(found)
                checkpoint(engine)


SCHEMA_CHECKED = "napledger_schema_checked"


def up_to_date(connection: Connection) -> bool:
    """No migration pending (else a `NapError` if a newer napledger wrote the file).

    Asked once per database connection, not per transaction: a connection that found
    the schema current keeps the answer (SQLAlchemy's `info` lives as long as the DBAPI
    connection), and an upgrade is made on a connection of its own.
    """
    if connection.info.get(SCHEMA_CHECKED):
        return True
    found = connection.info.pop(APPLIED, None)  # read as the connection opened (SQLite)
    if found is not None and set(found) == {name for name, _ in MIGRATIONS}:
        connection.info[SCHEMA_CHECKED] = True
        return True
    if pending(connection):
        return False
    connection.info[SCHEMA_CHECKED] = True
    return True


def bring_up_to_date(url: str, opened: OpenedFile | None = None) -> None:
    """Migrate in a writer's transaction of its own, which re-checks under the write lock.

    Even a reading command upgrades: a reader's snapshot could not take the lock later.
    """
    engine = make_engine(url, write=True, opened=opened)
    try:
        with transaction(engine) as db:
            applied, backup = upgrade(db.connection())
    finally:
        engine.dispose()
    if backup is not None:
        print(
            _(
                "napledger: upgraded the database schema ({migrations}); the old file is kept at {path}"
            ).format(migrations=", ".join(applied), path=backup),
            file=sys.stderr,
        )


class Transaction:
    """The book of one database inside one transaction."""

    def __init__(self, book: Book, write: bool) -> None:
        self.book = book
        self.write = write

    def sessions(self) -> list[Scoreboard]:
        return [self.book.session(row).scoreboard() for row in self.book.sessions()]

    def current_id(self) -> int | None:
        return self.book.current_id()

    def last_changes(self) -> dict[int, tuple[object, ...]]:
        """Every session's `last_change`, by id (a closed one's: when it closed): what
        the live list of sessions checks when it hears of a change."""
        from napledger.service.watch import fingerprints

        return fingerprints(self.book.db)

    def started_already(self, name: str, rules: Rules, players: Sequence[str]) -> Scoreboard | None:
        """The session a repeated `new` made, while it is still as it was started (these
        rules and players, no deal, no one seated since): its board; else None."""
        try:
            s = self.session(name.strip())
        except NapError:
            return None
        board = s.scoreboard()
        asked = [n.strip().casefold() for n in players if n.strip()]
        same = board.rules == rules and [p.casefold() for p in board.players] == asked
        fresh = board.hands == 0 and s.seating_version() == len(asked)
        return board if same and fresh else None

    def new_session(
        self,
        name: str,
        rules: Rules,
        players: Sequence[str],
        chip_value: Decimal | None = None,
        currency: str | None = None,
        dealer: str | None = None,
        carry_from: str | None = None,
        language: str | None = None,
        as_kept: bool = False,
    ) -> Scoreboard:
        """A new session, made current; `as_kept` (an import) carries a pot as the ledger
        it comes from kept it, whatever chips that ledger let it be counted in."""
        row = self.book.create(
            name, rules, players, chip_value, currency, dealer, carry_from, language, as_kept
        )
        return self.book.session(row).scoreboard()

    def use(self, ref: str) -> SessionInfo:
        row = self.book.find(ref)
        self.book.set_current(row)
        return session_info(row)

    def session(self, ref: str | None = None) -> SessionAPI:
        """A session by id or name; without one, the current session."""
        return SessionAPI(self.book, self.book.find(ref, lock=self.write), self.write)

    def find_many(self, refs: Iterable[str | None]) -> list[SessionInfo]:
        return [session_info(row) for row in self.book.find_many(refs)]

    def sessions_between(
        self,
        since: datetime | None = None,
        until: datetime | None = None,
        refs: Iterable[str | None] | None = None,
    ) -> list[SessionInfo]:
        """The sessions started in [since, until) (either end open when None): among those
        `refs` names, in the order named, else among every session."""
        rows = self.book.sessions() if refs is None else self.book.find_many(refs)
        return [
            session_info(r)
            for r in rows
            if (since is None or since <= r.created_at) and (until is None or r.created_at < until)
        ]

    def settlement(self, refs: Iterable[str | None]) -> Settlement:
        return settlement([self.book.session(r) for r in self.book.find_many(refs)])

    def report(self, info: SessionInfo) -> SessionReport:
        """The session as a report reads it (the workbook), its deals read from the
        store as the report walks them: walk it inside this transaction."""
        return self.session(str(info.id)).report()

    def known_players(self) -> list[str]:
        from napledger.store.tallies import known_players

        return known_players(self.book.db)

    def stats(self, since: datetime | None = None, until: datetime | None = None) -> Figures:
        from napledger.store.tallies import lifetime

        return lifetime(self.book, since, until)

    def verify(self) -> Report:
        from napledger.store.verify import verify

        return verify(self.book)


def settlement(stores: Sequence[SessionStore]) -> Settlement:
    from napledger.core.settle import settle

    net, currency, chip_value = net_money(stores)
    rows = [s.row for s in stores]
    # In the order every front end lists the parties: a tie as the players sat.
    listed = parties(net, [p for s in stores for p in s.everyone()])
    return Settlement(
        sessions=tuple(session_info(r) for r in rows),
        net={party: net[party] for party in [*listed, *net]},
        currency=currency,
        chip_value=chip_value,
        transfers=tuple(settle(net)),
        places=max(places(r.currency, Decimal(r.chip_value)) for r in rows),
    )


class SessionAPI:
    """One session of the book, inside its transaction."""

    def __init__(self, book: Book, row: SessionRow, write: bool = False) -> None:
        self.book = book
        self.row = row
        self.store = book.session(row)  # what it reads and writes, bound to the session
        self.write = write

    # --- reading ----------------------------------------------------------------

    @property
    def info(self) -> SessionInfo:
        return session_info(self.row)

    def scoreboard(self) -> Scoreboard:
        return self.store.scoreboard()

    def history(self, with_roster: bool = True) -> History:
        """Every revision of every deal, scored; and (unless not wanted) who sat when and
        every close."""
        store = self.store
        return History(
            scoreboard=self.scoreboard(),
            deals=list(score_history(store.rules(), store.records(), self.row.opening_pot)),
            roster=store.roster() if with_roster else (),
            closes=store.closes() if with_roster else (),
            carried_from=self.book.session_name(self.row.carried_from) if with_roster else None,
            carried_to=store.carried_into() if with_roster and self.row.pot_to == "carry" else None,
        )

    def report(self) -> SessionReport:
        """The session as a report reads it; its deals are scored as they are read, in
        batches, each time it is walked (inside this transaction)."""
        store, row = self.store, self.row
        net = net_money([store])[0]
        return SessionReport(
            board=self.scoreboard(),
            net=net,
            deals=StreamedDeals(store),
            records=store.record_count(),
            roster=store.roster(),
            closes=store.closes(),
            carried_from=self.book.session_name(row.carried_from),
            carried_to=store.carried_into(),
        )

    def view(self) -> TableView:
        state = self.store.state(whole_roster=False)
        return TableView(
            name=state.name,
            seated=state.seating,
            rules=state.rules,
            number=state.next_number,
            dealer=state.dealer,
        )

    def settlement(self) -> Settlement:
        return settlement([self.store])

    def last_change(self) -> tuple[object, ...]:
        """A cheap fingerprint that differs as soon as anything in the session changes,
        whoever changed it: what a live page checks when it hears of a change."""
        from napledger.service.watch import fingerprint

        return fingerprint(self.book.db, self.info.id)

    def deal(self, number: int) -> tuple[int, Deal]:
        """Deal `number` as it stands: its live version and record (refused in amend's
        words when there is no such deal, or every version of it is voided)."""
        found = self.store.live_version(number)
        return found.revision, found.deal

    def deals_since(self, after_id: int) -> list[tuple[int, str]]:
        """Deal revisions recorded after the one with id `after_id`: (id, "N" or "N.2")."""
        from napledger.service.watch import recorded_since

        return recorded_since(self.book.db, self.info.id, after_id)

    # --- the table changes ------------------------------------------------------

    def _writable(self, open_only: bool = True) -> SessionStore:
        """The session's store to change; unless `open_only` is False, only while it is open."""
        if not self.write:
            raise NapError("this session was opened for reading")  # a front end's bug
        if open_only:
            still_open(self.store.state(whole_roster=False))
        return self.store

    # A write may name the state it was prepared against (`expect_…`): the core's
    # `expect` module decides whether it is a repeat (answered with what it did) or
    # refused; without them, each call does as it always did.

    def record(self, options: DealOptions, expect_number: int | None = None) -> DealResult:
        """A played or passed deal, on top of a fresh deal dealt by rotation; with
        `expect_number`, only as that deal (deal N already recording the same: that)."""
        b = self._writable()
        if expect_number is not None:
            versions = b.revisions(expect_number)
            first = expect.recorded_already(
                b.state(whole_roster=False), options, expect_number, next(iter(versions), None)
            )
            if first is not None and first.deal is not None:
                expect.still_as_recorded(expect_number, versions)  # never a stale answer
                return DealResult(first.number, 1, first.deal, first.changes, b.scoreboard())
        recorded = b.record(options)
        return DealResult(recorded.number, 1, recorded.deal, recorded.changes, b.scoreboard())

    def pass_(
        self, options: DealOptions | None = None, expect_number: int | None = None
    ) -> DealResult:
        """A passed-out deal: only antes and fees; the bid and result options are ignored."""
        return self.record(pass_options(options), expect_number)

    def amend(
        self,
        number: int,
        options: DealOptions,
        expect_revision: int | None = None,
        expect_next: int | None = None,
    ) -> DealResult:
        """Deal `number` corrected: what the options give replaces what was recorded.

        With `expect_revision`, only if that is still its version (the same correction
        made already: that); with `expect_next`, only if no deal was recorded since the
        next deal was that one (a keeper amending "the last deal" meant the newest).
        """
        b = self._writable()
        state = b.state(whole_roster=False)
        if expect_revision is not None:
            versions = b.revisions(number)
            live = expect.amended_already(state, number, options, expect_revision, versions)
            if live is not None and live.deal is not None:
                return DealResult(number, live.revision, live.deal, live.changes, b.scoreboard())
        if expect_next is not None:
            expect.nothing_recorded_since(state, expect_next)
        amended = b.amend(number, options)
        return DealResult(
            number, amended.revision, amended.deal, amended.new_changes, b.scoreboard()
        )

    def undo(self, expected: int | None = None, expect_revision: int | None = None) -> VoidResult:
        """Void the last live deal; with `expected`, only if that is still its number (a
        page showing "Undo deal 5" must not void a deal 6 recorded elsewhere since), and
        with `expect_revision` still its version. Deal `expected` voided already: that."""
        b = self._writable()
        if expected is not None and expect.undo_expected(
            b.state(), expected, expect_revision, b.revisions(expected)
        ):
            return VoidResult(expected, self.scoreboard())
        gone = b.undo()
        return VoidResult(gone.number, self.scoreboard())

    def void(self, number: int, expect_revision: int | None = None) -> VoidResult:
        """Void deal `number`; with `expect_revision`, only if that is still its version
        (voided already: that)."""
        b = self._writable()
        if expect_revision is not None and expect.void_expected(
            number, expect_revision, b.revisions(number)
        ):
            return VoidResult(number, self.scoreboard())
        gone = b.void(number)
        return VoidResult(gone.number, self.scoreboard())

    # Seats and closes may name what the page or terminal saw: the seating's version (how
    # many changes to who sits) or the closes so far. A repeat is answered with what it
    # did; against anything newer the change is refused, saying what it is now.

    def seating_version(self) -> int:
        """How many changes to who sits the session has had: what a join or leave expects."""
        return len(self.store.roster())

    def closes_made(self) -> int:
        """How many times the session was closed (reopened closes included): what a close
        expects, and the number of the close a reopen takes back."""
        return len(self.store.closes())

    def join(
        self, player: str, after: str | None = None, expect_seating: int | None = None
    ) -> SeatResult:
        b = self._writable()
        if expect_seating is not None and self._seated_already("join", player, expect_seating):
            return SeatResult(b.roster()[-1].player, self.scoreboard())
        name = b.join(player, after)
        return SeatResult(name, self.scoreboard())

    def leave(self, player: str, expect_seating: int | None = None) -> SeatResult:
        b = self._writable()
        if expect_seating is not None and self._seated_already("leave", player, expect_seating):
            return SeatResult(b.roster()[-1].player, self.scoreboard())
        name = b.leave(player)
        return SeatResult(name, self.scoreboard())

    def _seated_already(self, kind: str, player: str, seen: int) -> bool:
        b = self.store
        return expect.seating_expected(b.roster(), seen, kind, player, b.seating())

    def close_plan(self, pot_to: str = "split") -> ClosePlan:
        """What `close` would do, without doing it: to ask before closing."""
        return self.store.close_plan(pot_to)

    def close(
        self,
        pot_to: str = "split",
        agreed: str | None = None,
        expect_closes: int | None = None,
    ) -> CloseResult:
        """Close; with `agreed` (the digest of the plan a person agreed to: ClosePlan.digest),
        only if it still holds; with `expect_closes`, only if the session was closed that
        many times before (this close made already: its answer again)."""
        b = self._writable(open_only=False)
        if expect_closes is not None:
            closes = b.closes()
            state = b.state(whole_roster=False)
            if expect.close_expected(state.closed, [c.live for c in closes], expect_closes):
                last = closes[-1]
                payments = close_payments(last.pot, state.seating, last.pot_to)
                return CloseResult(tuple(payments), self.scoreboard())
        plan = self._writable().close(pot_to, agreed)
        return CloseResult(plan.payments, self.scoreboard())

    def reopen(self, expect_close: int | None = None) -> Scoreboard:
        """Take back the close: it stays in the record, voided with the shares it paid;
        with `expect_close`, only that close (taken back already: the board as it is)."""
        b = self._writable(open_only=False)
        if expect_close is not None:
            closed = b.state(whole_roster=False).closed
            if expect.reopen_expected(closed, [c.live for c in b.closes()], expect_close):
                return self.store.scoreboard()
        b.reopen()
        return self.store.scoreboard()


class StreamedDeals:
    """A session's deals, scored as they are read from the store, each time they are
    iterated: one query read in batches, so a long history never sits in memory. What
    they paid is derived from the records like everything else; `verify` checks that it
    agrees with the stored changes."""

    def __init__(self, store: SessionStore) -> None:
        self._store = store

    def __iter__(self) -> Iterator[ScoredDeal]:
        store = self._store
        return score_history(store.rules(), store.streamed_records(), store.row.opening_pot)
