"""The store of sessions, on one open transaction: it loads and saves, and decides nothing.

`Book` finds and starts sessions; `SessionStore` (`book.session(row)`) is one session's.
Each change loads the session's state (`napledger.core.session.SessionState`), asks the
core's action for the new state and what it moved, and writes that: deal revisions, their
entries (each account's change in a deal), the roster, the closes. The deal records are the truth: a correction
rewrites the entries and pots of exactly the deals the core scored anew.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, replace
from datetime import datetime
from decimal import Decimal
from functools import cache
from typing import Any

from sqlalchemy import Integer, Select, bindparam, cast, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.elements import BindParameter
from sqlmodel import Session

from napledger.core import session as core
from napledger.core.errors import NapError
from napledger.core.ledger import POT
from napledger.core.names import clean_player
from napledger.core.numbers import is_whole
from napledger.core.options import DealOptions
from napledger.core.read.board import Scoreboard, SessionInfo
from napledger.core.read.history import Revision
from napledger.core.read.timeline import CloseRecord
from napledger.core.rules import Rules, rules_from_dict
from napledger.core.rules.load import rules_to_dict
from napledger.core.rules.model import fold
from napledger.core.seating import RosterChange
from napledger.core.session import ClosePlan, LiveDeal, Rescored, SessionState
from napledger.core.words import _
from napledger.store.codec import DealRecord, deal_from_json, deal_to_json, read, revisions
from napledger.store.db import duplicate_key, upsert
from napledger.store.models import SessionRow, now
from napledger.store.models import balances as BALANCES
from napledger.store.models import closes as CLOSES
from napledger.store.models import deals as DEALS
from napledger.store.models import entries as ENTRIES
from napledger.store.models import meta as META
from napledger.store.models import players as PLAYERS
from napledger.store.models import roster as ROSTER
from napledger.store.models import sessions as SESSIONS

STREAM_BATCH = 1_000  # deal rows a streamed reading fetches at a time

__all__ = ["Book", "SessionStore", "cached_rules", "net_money", "session_info", "whole_number"]

CURRENT = "current_session"
MAX_ID = 2**63 - 1  # the largest id or deal number a database column holds
S = SESSIONS.c
D = DEALS.c
E = ENTRIES.c
P = PLAYERS.c
R = ROSTER.c
M = META.c
C = CLOSES.c
B = BALANCES.c

# What every deal runs, built once with its values bound at each run: a statement built
# afresh costs more to put together than to execute, and one kept computes its cache key
# (for SQLAlchemy's compiled cache) once.
SESSION: BindParameter[int] = bindparam("session")
CURRENT_ROW = select(SESSIONS).where(
    S.id == cast(select(M.value).where(M.key == CURRENT).scalar_subquery(), Integer)
)
ROW_BY_ID = select(SESSIONS).where(S.id == bindparam("id"))
ROW_BY_KEY = select(SESSIONS).where(S.key == bindparam("key"))
TOTALS = select(B.account, B.chips).where(B.session_id == SESSION)
LIVE_COLUMNS = (D.id, D.number, D.revision, D.record_json, D.pot_after)
LATEST = (
    select(
        *LIVE_COLUMNS,
        D.status,
        select(func.count()).where(D.session_id == SESSION, D.status == "voided").scalar_subquery(),
    )
    .where(D.session_id == SESSION)
    .order_by(D.number.desc(), D.revision.desc())
    .limit(1)
)
LAST_LIVE = (
    select(*LIVE_COLUMNS)
    .where(D.session_id == SESSION, D.status == "live")
    .order_by(D.number.desc())
    .limit(1)
)
NEW_DEAL = insert(DEALS).returning(D.id)
NEW_ENTRIES = insert(ENTRIES)
NEW_SESSION = insert(SESSIONS).returning(S.id)
# The pots of deals a correction scored anew, by id.
MOVED_POTS = update(DEALS).where(D.id == bindparam("deal")).values(pot_after=bindparam("pot"))


def whole_number(text: str) -> int | None:
    """A session id or deal number as typed: ASCII digits within what a database holds."""
    text = text.strip()
    if not is_whole(text):
        return None
    number = int(text)
    return number if number <= MAX_ID else -1


def live_deal(row: Any, changes: dict[str, int] | None = None) -> LiveDeal:
    """A live deal from its columns (`LIVE_COLUMNS`)."""
    deal_id, number, revision, record, pot_after = row[:5]
    return LiveDeal(deal_id, number, revision, deal_from_json(record), pot_after, changes or {})


class Book:
    """The book inside one transaction: every session, found and started; `session(row)`
    is the store of one of them.

    What a command reads twice within its transaction (the current session, its row,
    its state) is read once: nobody else can change it meanwhile (a writer holds the
    write lock; a reader sees one snapshot), and every change made here keeps the new
    state the core gave back.
    """

    def __init__(self, db: Session) -> None:
        self.db = db
        self._current: int | None = None
        self._rows: dict[int, SessionRow] = {}  # sessions found, by id
        self._keys: dict[str, int] = {}  # ... their ids by folded name
        self._locked: set[int] = set()  # ... and of those, the ones found for update
        self._stores: dict[int, SessionStore] = {}  # each session's store, by id

    # --- sessions -------------------------------------------------------------

    def sessions(self) -> list[SessionRow]:
        found = self.db.execute(select(SESSIONS).order_by(S.id)).mappings()
        return [SessionRow(**row) for row in found]

    def current_id(self) -> int | None:
        if self._current is None:
            # A plain column query: an ORM `get` costs a one-shot command several ms to set up.
            value = self.db.execute(select(M.value).where(M.key == CURRENT)).scalar()
            self._current = int(value) if value is not None else None
        return self._current

    def set_current(self, row: SessionRow) -> None:
        upsert(self.db, META, {"key": CURRENT, "value": str(row.id)}, ["key"], ["value"])
        self._current = row.id

    def session_name(self, session_id: int | None) -> str | None:
        """The name of session `session_id`; None for none, or one that is gone."""
        if session_id is None:
            return None
        found = self.db.execute(select(S.name).where(S.id == session_id)).first()
        return found[0] if found else None

    def find(self, ref: str | None, lock: bool = False) -> SessionRow:
        """A session by id or name; without one, the current session."""
        number = None if ref is None else whole_number(ref)
        if ref is None and self._current is not None:
            number = self._current
        elif ref is not None and number is None:
            number = self._keys.get(fold(ref))
        if number in self._rows and (number in self._locked or not lock):
            return self._rows[number]
        values: dict[str, object] = {"key": fold(ref or "")}
        query = ROW_BY_KEY
        if ref is None and number is None:
            # The current session's row in one query (the usual case), its id from meta.
            query, values = CURRENT_ROW, {}
        elif number is not None:
            # An id typed, a name seen before, or the current session made in this very
            # transaction (by `new`): each is the row of that id.
            query, values = ROW_BY_ID, {"id": number}
        if lock:
            query = locked(query)
        found = self.db.execute(query, values).mappings().first()
        if found is None:
            if ref is None and self.current_id() is None:
                raise NapError(
                    _("no current session; start one with `napledger new` or pick one with `use`")
                )
            raise NapError(_("no session '{ref}'; `napledger sessions` lists them").format(ref=ref))
        row = SessionRow(**found)
        if ref is None:
            self._current = row.id
        self._rows[row.id] = row
        self._keys[row.key] = row.id
        if lock:
            self._locked.add(row.id)
        return row

    def name_used(self, name: str) -> str | None:
        """The name of the session called `name` (any case), if there is one."""
        return self.db.execute(select(S.name).where(S.key == fold(name))).scalar()

    def from_source(self, key: str) -> list[SessionRow]:
        """The sessions imported from `key` (`import`: "ledger ID session N", ...)."""
        found = self.db.execute(select(SESSIONS).where(S.source == key).order_by(S.id))
        return [SessionRow(**row) for row in found.mappings()]

    def row(self, number: int) -> SessionRow | None:
        """The row of session `number`, or None where there is none (`verify` asks it of
        ids that a damaged file may point to in vain)."""
        found = self.db.execute(ROW_BY_ID, {"id": number}).mappings().first()
        return None if found is None else SessionRow(**found)

    def find_many(self, refs: Iterable[str | None]) -> list[SessionRow]:
        """Sessions in the order named, each once however it was named (id, name, any case)."""
        rows: dict[int | None, SessionRow] = {}
        for ref in refs:
            row = self.find(ref)
            rows.setdefault(row.id, row)
        return list(rows.values())

    def create(
        self,
        name: str,
        rules: Rules,
        players: Sequence[str],
        chip_value: Decimal | None,
        currency: str | None,
        dealer: str | None,
        carry_from: str | None,
        language: str | None = None,
        as_kept: bool = False,
    ) -> SessionRow:
        """A new session (`core.start` checks it), made current."""
        name, chip_value, currency = core.session_terms(name, chip_value, currency)
        if self.db.execute(select(S.id).where(S.key == fold(name))).first():
            raise core.name_taken(name)
        seating = [self._person(p) for p in core.seating_of(players)]
        carry = None if carry_from is None else self._carry_source(carry_from, as_kept)
        opening = core.start(name, rules, seating, dealer, chip_value, currency, carry)
        values: dict[str, Any] = {
            "name": opening.name,
            "key": fold(opening.name),
            "variant": rules.name,
            "rules_json": json.dumps(rules_to_dict(rules), ensure_ascii=False),
            "chip_value": str(opening.chip_value),
            "currency": opening.currency,
            "seating_json": json.dumps(opening.seating, ensure_ascii=False),
            "players_json": json.dumps(opening.seating, ensure_ascii=False),
            "first_dealer": opening.first_dealer,
            "opening_pot": opening.opening_pot,
            "carried_from": opening.carried_from,
            "pot_to": None,
            "created_at": now(),
            "closed_at": None,
            "language": language,
        }
        try:
            row = SessionRow(id=self.db.execute(NEW_SESSION, values).scalar_one(), **values)
        except IntegrityError as error:
            if not duplicate_key(error):
                raise  # another constraint: the transaction reports the database's reason
            # PostgreSQL: another table created it at the same moment (the only unique key
            # of a new session's row is its name's).
            raise core.name_taken(name) from None
        self.session(row).opened(opening, rules)
        self.set_current(row)
        return row

    def _carry_source(self, ref: str, as_kept: bool = False) -> core.CarrySource:
        source = self.find(ref, lock=True)
        return core.CarrySource(
            id=source.id,
            name=source.name,
            pot_to=source.pot_to,
            chip_value=Decimal(source.chip_value),
            currency=source.currency,
            pot=self.session(source).pot(),
            carried_into=self.session(source).carried_into(),
            as_kept=as_kept,
        )

    def _person(self, name: str) -> str:
        """The player's name as every session spells it (the first spelling met)."""
        upsert(self.db, PLAYERS, {"name": name, "key": fold(name)}, ["key"])
        return str(self.db.execute(select(P.name).where(P.key == fold(name))).scalar_one())

    # --- one session -----------------------------------------------------------

    def session(self, row: SessionRow) -> SessionStore:
        """The store of one session (kept: its state is read once per transaction)."""
        store = self._stores.get(row.id)
        if store is None or store.row is not row:
            store = self._stores[row.id] = SessionStore(self, row)
        return store


class SessionStore:
    """The store of one session inside the book's transaction, bound to its row (as
    sqlite-utils binds `db.table(name)`): it loads the session's state, calls the core's
    actions and saves what they return."""

    def __init__(self, book: Book, row: SessionRow) -> None:
        self.book = book
        self.db = book.db
        self.row = row
        # The state as loaded or last changed, and whether its rotation is the whole
        # roster (else the seating, which a deal at the end needs no more than).
        self._kept: tuple[SessionState, bool] | None = None

    @property
    def info(self) -> SessionInfo:
        return session_info(self.row)

    # --- reading state --------------------------------------------------------

    def rules(self) -> Rules:
        return cached_rules(self.row.rules_json)

    def everyone(self) -> tuple[str, ...]:
        """Everyone who has sat this session, in the order they sat down."""
        return tuple(json.loads(self.row.players_json))

    def seating(self) -> tuple[str, ...]:
        return tuple(json.loads(self.row.seating_json))

    def pot(self) -> int:
        return self.row.opening_pot + self._totals().get(POT, 0)

    def chips(self) -> dict[str, int]:
        totals = dict(self._totals())
        totals.pop(POT, None)
        return totals

    def _totals(self) -> dict[str, int]:
        """Every account's chips in the session, the pot's included (without its opening):
        the balances the database keeps beside the entries, a row per account."""
        if self._kept is not None:
            return dict(self._kept[0].totals)
        found = self.db.execute(TOTALS, {"session": self.row.id}).all()
        return {account: int(chips) for account, chips in found}

    def state(self, whole_roster: bool = True) -> SessionState:
        """The session's state; with `whole_roster` off, its rotation may be the seating
        alone where that says all (a deal at the end: one query fewer)."""
        kept = self._kept
        if kept is not None and (kept[1] or not whole_roster):
            return kept[0]
        state = kept[0] if kept is not None else self._load()
        last = state.last_live
        seating = state.seating
        full = whole_roster or core.rotation_needs_roster(
            seating, last.deal.dealer if last else None, state.first_dealer
        )
        rotation = tuple(self.roster()) if full else core.seating_rotation(seating)
        state = replace(state, rotation=rotation)
        self._kept = (state, full)
        return state

    def _load(self) -> SessionState:
        """Where the session stands, in two queries (three when the last deal is voided)."""
        totals = self._totals()
        top = self.db.execute(LATEST, {"session": self.row.id}).first()
        number, voided, last = 0, 0, None
        if top is not None:
            number, voided = top.number, top[-1]
            found = top if top.status == "live" else self._last_live()
            last = live_deal(found) if found else None
        return SessionState(
            name=self.row.name,
            rules=self.rules(),
            everyone=self.everyone(),
            seating=self.seating(),
            first_dealer=self.row.first_dealer,
            opening_pot=self.row.opening_pot,
            totals=totals,
            closed=self.row.closed_at is not None,
            number=number,
            voided=int(voided),
            last_live=last,
        )

    def _last_live(self) -> Any:
        return self.db.execute(LAST_LIVE, {"session": self.row.id}).first()

    def _save(self, state: SessionState) -> None:
        """Keep the new state, and put on the session's row what changed of it."""
        self._kept = (state, self._kept[1] if self._kept is not None else False)
        changed = {
            column: value
            for column, value in (
                ("seating_json", json.dumps(state.seating, ensure_ascii=False)),
                ("players_json", json.dumps(state.everyone, ensure_ascii=False)),
            )
            if value != getattr(self.row, column)
        }
        if changed:
            self._change_row(**changed)

    def _change_row(self, **changed: object) -> None:
        """The session's row changed, as read and in the database."""
        self.db.execute(update(SESSIONS).where(S.id == self.row.id).values(**changed))
        for column, value in changed.items():
            setattr(self.row, column, value)

    def came_from(self, source: str, **times: Any) -> None:
        """An imported session: where it came from, and the times it was started and
        closed where it was kept (`created_at`, `closed_at`; its evening keeps its date)."""
        self._change_row(source=source, **times)

    def stamp(self, kind: str, when: datetime, number: int | None = None) -> None:
        """The change just made (`kind`: deal, void, join, leave, close, reopen; a deal's
        or void's `number`) given the time it was first made, where it was kept (`import`)."""
        if kind == "deal":
            self.db.execute(
                update(DEALS)
                .where(D.session_id == self.row.id, D.number == number, D.status == "live")
                .values(recorded_at=when)
            )
        elif kind == "void":
            newest = (
                select(func.max(D.revision))
                .where(D.session_id == self.row.id, D.number == number)
                .scalar_subquery()
            )
            self.db.execute(
                update(DEALS)
                .where(D.session_id == self.row.id, D.number == number, D.revision == newest)
                .values(voided_at=when)
            )
        elif kind in ("join", "leave"):
            last = select(func.max(R.id)).where(R.session_id == self.row.id).scalar_subquery()
            self.db.execute(update(ROSTER).where(R.id == last).values(recorded_at=when))
        elif kind in ("close", "reopen"):
            last = select(func.max(C.id)).where(C.session_id == self.row.id).scalar_subquery()
            column = "closed_at" if kind == "close" else "reopened_at"
            self.db.execute(update(CLOSES).where(C.id == last).values({column: when}))
            if kind == "close":
                self._change_row(closed_at=when)

    def deals_in_time(self) -> Iterator[Any]:
        """Every deal revision (number, revision, status, record, recorded and voided
        when), in the order they were recorded, read in batches as they are iterated."""
        query = (
            select(D.number, D.revision, D.status, D.record_json, D.recorded_at, D.voided_at)
            .where(D.session_id == self.row.id)
            .order_by(D.recorded_at, D.number, D.revision)
            .execution_options(yield_per=STREAM_BATCH)
        )
        yield from self.db.execute(query)

    def voids_in_time(self) -> list[Any]:
        """The voided revisions (number, recorded and voided when), in the order voided
        (where a ledger kept no time: as recorded)."""
        when = func.coalesce(D.voided_at, D.recorded_at)
        query = (
            select(D.number, D.recorded_at, D.voided_at)
            .where(D.session_id == self.row.id, D.status == "voided")
            .order_by(when, D.number)
        )
        return list(self.db.execute(query))

    def dealt_around(self, number: int) -> tuple[Any, Any]:
        """When the last deal before `number` was first recorded, and the first from it on."""
        first = (D.session_id == self.row.id, D.revision == 1)
        before = select(func.max(D.recorded_at)).where(*first, D.number < number)
        after = select(func.min(D.recorded_at)).where(*first, D.number >= number)
        return self.db.execute(before).scalar(), self.db.execute(after).scalar()

    def kept_rows(self) -> tuple[list[Any], list[Any], list[Any]]:
        """Everything the session keeps, as stored, in the order written: its deal
        revisions (number, revision, status, record, recorded and voided when), its roster
        changes (from deal, kind, player, seat, when) and its closes (to, pot, shares,
        status, closed and reopened when)."""
        deals = self.db.execute(
            select(D.number, D.revision, D.status, D.record_json, D.recorded_at, D.voided_at)
            .where(D.session_id == self.row.id)
            .order_by(D.number, D.revision)
        ).all()
        return list(deals), self.roster_rows(), self.close_rows()

    def roster_rows(self) -> list[Any]:
        """The roster changes as stored: from deal, kind, player, seat, when."""
        return list(
            self.db.execute(
                select(R.from_deal, R.kind, R.player, R.seat, R.recorded_at)
                .where(R.session_id == self.row.id)
                .order_by(R.id)
            )
        )

    def close_rows(self) -> list[Any]:
        """The closes as stored: to, pot, shares, status, closed and reopened when."""
        return list(
            self.db.execute(
                select(C.pot_to, C.pot, C.shares_json, C.status, C.closed_at, C.reopened_at)
                .where(C.session_id == self.row.id)
                .order_by(C.id)
            )
        )

    def dealer_now(self) -> str | None:
        """Who deals next (None once closed)."""
        return self.state(whole_roster=False).dealer

    def scoreboard(self) -> Scoreboard:
        """The scoreboard."""
        state = self.state(whole_roster=False)
        return Scoreboard(
            session=session_info(self.row),
            rules=state.rules,
            seating=state.seating,
            players=state.everyone,
            chips=state.chips,
            pot=state.pot,
            hands=state.hands,
            next_dealer=state.dealer,
            voided=state.voided,
        )

    def next_number(self) -> int:
        """The number the next deal gets: voided numbers are never given again. Read
        without the state where it is not kept, so `verify` asks it of any session."""
        if self._kept is not None:
            return self._kept[0].next_number
        query = select(func.coalesce(func.max(D.number), 0)).where(D.session_id == self.row.id)
        return int(self.db.execute(query).scalar_one()) + 1

    def records(self, live_only: bool = False, strict: bool = True) -> list[Revision]:
        """The session's deal revisions in order (number, then revision), with their
        entries; with `strict` off, one whose record cannot be read says why (verify)."""
        query = select(
            D.id, D.number, D.revision, D.status, D.record_json, D.pot_after, D.recorded_at
        ).where(D.session_id == self.row.id)
        if live_only:
            query = query.where(D.status == "live")
        changes = self.changes_by_deal()
        found = self.db.execute(query.order_by(D.number, D.revision)).all()
        records = (
            DealRecord(i, number, revision, status, record, pot, at, changes.get(i, {}))
            for i, number, revision, status, record, pot, at in found
        )
        return list(revisions(records, strict))

    def streamed_records(self) -> Iterator[Revision]:
        """The session's deal revisions in order, read in batches as they are iterated
        (without their entries): a report of 50,000 deals never holds them all."""
        query = (
            select(D.id, D.number, D.revision, D.status, D.record_json, D.pot_after, D.recorded_at)
            .where(D.session_id == self.row.id)
            .order_by(D.number, D.revision)
            .execution_options(yield_per=STREAM_BATCH)
        )
        for found in self.db.execute(query):
            yield read(DealRecord(*found))

    def record_count(self) -> int:
        """How many deal records (every version) the session has."""
        query = select(func.count()).where(D.session_id == self.row.id)
        return int(self.db.execute(query).scalar_one())

    def changes_by_deal(self) -> dict[int | None, dict[str, int]]:
        # In the order written (the core's), so every database gives a deal's changes in
        # the same order: PostgreSQL returns rows in no set order without it.
        query = (
            select(E.deal_id, E.account, E.chips).where(E.session_id == self.row.id).order_by(E.id)
        )
        out: dict[int | None, dict[str, int]] = {}
        for deal_id, account, chips in self.db.execute(query).all():
            out.setdefault(deal_id, {})[account] = chips
        return out

    def revisions(self, number: int) -> list[Revision]:
        """Every version of deal `number` with its entries, the first first (none: no such
        deal)."""
        if number > MAX_ID:
            return []
        query = (
            select(D.id, D.number, D.revision, D.status, D.record_json, D.pot_after)
            .where(D.session_id == self.row.id, D.number == number)
            .order_by(D.revision)
        )
        found = self.db.execute(query).all()
        changes: dict[int, dict[str, int]] = {}
        if found:
            ids = [f.id for f in found]
            for deal_id, account, chips in self.db.execute(
                select(E.deal_id, E.account, E.chips).where(E.deal_id.in_(ids)).order_by(E.id)
            ):
                changes.setdefault(deal_id, {})[account] = chips
        return list(
            revisions(DealRecord(*f)._replace(changes=changes.get(f.id, {})) for f in found)
        )

    def around(self, number: int) -> tuple[LiveDeal | None, list[LiveDeal]]:
        """What a correction of deal `number` needs: the last live deal before it, and
        the live deals from it on, with their entries (none past the last number given)."""
        if not 0 < number <= self.state(whole_roster=False).number:
            return None, []
        from_here = D.session_id == self.row.id, D.status == "live", D.number >= number
        found = self.db.execute(select(*LIVE_COLUMNS).where(*from_here).order_by(D.number)).all()
        changes: dict[int, dict[str, int]] = {}
        ids = select(D.id).where(*from_here)
        for deal_id, account, chips in self.db.execute(
            select(E.deal_id, E.account, E.chips).where(E.deal_id.in_(ids)).order_by(E.id)
        ):
            changes.setdefault(deal_id, {})[account] = chips
        previous = self.db.execute(
            select(*LIVE_COLUMNS)
            .where(D.session_id == self.row.id, D.status == "live", D.number < number)
            .order_by(D.number.desc())
            .limit(1)
        ).first()
        before = live_deal(previous) if previous else None
        return before, [live_deal(f, changes.get(f.id)) for f in found]

    def live_version(self, number: int) -> LiveDeal:
        """Deal `number` as it stands (refused in amend's words when it is not live)."""
        state = self.state(whole_roster=False)
        found = None
        if 0 < number <= state.number:
            found = self.db.execute(
                select(*LIVE_COLUMNS).where(
                    D.session_id == self.row.id, D.number == number, D.status == "live"
                )
            ).first()
        return core.target(state, number, [live_deal(found)] if found else [])

    # --- writing deals --------------------------------------------------------

    def record(self, options: DealOptions) -> core.Recorded:
        """A new deal at the end, dealt by rotation (`core.record`)."""
        return self._record(core.record(self.state(whole_roster=False), options))

    def pass_(self, options: DealOptions | None) -> core.Recorded:
        return self._record(core.pass_out(self.state(whole_roster=False), options))

    def _record(self, done: core.Recorded) -> core.Recorded:
        deal_id = self.db.execute(
            NEW_DEAL,
            {
                "session_id": self.row.id,
                "number": done.number,
                "revision": 1,
                "status": "live",
                "record_json": deal_to_json(done.deal),
                "pot_after": done.pot_after,
                "recorded_at": now(),
            },
        ).scalar_one()
        self._post(deal_id, done.changes)
        self._save(core.identified(done.state, done.number, deal_id))
        return done

    def _post(self, deal_id: int | None, changes: core.Chips) -> None:
        rows = [
            {"session_id": self.row.id, "deal_id": deal_id, "account": account, "chips": chips}
            for account, chips in changes.items()
            if chips
        ]
        if rows:
            self.db.execute(NEW_ENTRIES, rows)

    def amend(self, number: int, options: DealOptions) -> core.Amended:
        before, later = self.around(number)
        done = core.amend(self.state(), number, options, before, later)
        self.db.execute(update(DEALS).where(D.id == done.replaced).values(status="replaced"))
        self.db.execute(delete(ENTRIES).where(E.deal_id == done.replaced))
        new_id = self.db.execute(
            NEW_DEAL,
            {
                "session_id": self.row.id,
                "number": number,
                "revision": done.revision,
                "status": "live",
                "record_json": deal_to_json(done.deal),
                "pot_after": done.pot_after,
                "recorded_at": now(),
            },
        ).scalar_one()
        self._post(new_id, done.new_changes)
        self._rewrite(done.rescored)
        self._save(core.identified(done.state, number, new_id))
        return done

    def void(self, number: int) -> core.Voided:
        before, later = self.around(number)
        return self._void(core.void(self.state(), number, before, later))

    def undo(self) -> core.Voided:
        state = self.state()
        last = state.last_live
        before, later = self.around(last.number) if last else (None, [])
        return self._void(core.undo(state, before, later))

    def _void(self, done: core.Voided) -> core.Voided:
        self.db.execute(
            update(DEALS).where(D.id == done.voided).values(status="voided", voided_at=now())
        )
        self.db.execute(delete(ENTRIES).where(E.deal_id == done.voided))
        self._rewrite(done.rescored)
        self._save(done.state)
        return done

    def _rewrite(self, rescored: Sequence[Rescored]) -> None:
        """The entries and pots of the later deals a correction scored anew."""
        stale = [r for r in rescored if r.changes_differ]
        if stale:
            self.db.execute(delete(ENTRIES).where(E.deal_id.in_([r.id for r in stale])))
        for r in stale:  # a deal scored anew may post nothing now (a pot no longer empty)
            self._post(r.id, r.changes)
        moved = [{"deal": r.id, "pot": r.pot_after} for r in rescored if r.pot_changed]
        if moved:
            self.db.execute(MOVED_POTS, moved)

    # --- the table changes ----------------------------------------------------

    def join(self, name: str, after: str | None) -> str:
        state = self.state()
        done = core.join(state, self.book._person(clean_player(name)), after)
        self._roster([done.change])
        self._save(done.state)
        return done.player

    def leave(self, name: str) -> str:
        done = core.leave(self.state(), name)
        self._roster([done.change])
        self._save(done.state)
        return done.player

    def _roster(self, changes: Iterable[RosterChange]) -> None:
        self.db.execute(insert(ROSTER), [{"session_id": self.row.id, **asdict(c)} for c in changes])

    def roster(self) -> list[RosterChange]:
        """Every change to who sits, in the order they were made."""
        query = (
            select(R.from_deal, R.kind, R.player, R.seat)
            .where(R.session_id == self.row.id)
            .order_by(R.id)
        )
        return [RosterChange(*change) for change in self.db.execute(query).all()]

    def as_if_closed(self) -> dict[str, int]:
        """Each party's chips, the pot's (without its opening) included, as a settlement
        counts them (`core.as_if_closed`: an open session as if split now)."""
        return core.as_if_closed(
            self._totals(), self.row.opening_pot, self.seating(), self.row.closed_at is not None
        )

    def carried_into(self) -> str | None:
        """The name of the session that carried on this one's pot, if one did."""
        found = self.db.execute(select(S.name).where(S.carried_from == self.row.id)).first()
        return found[0] if found else None

    def opened(self, opening: core.Opening, rules: Rules) -> None:
        """The session just started: its opening seating written, its state kept."""
        self._roster(opening.changes)
        self._kept = (core.opened(opening, rules), True)

    def close_plan(self, pot_to: str) -> ClosePlan:
        """What closing would do, without doing it: shown before a close is confirmed."""
        return core.close_plan(self.state(whole_roster=False), pot_to)

    def close(self, pot_to: str, agreed: str | None = None) -> ClosePlan:
        done = core.close(self.state(whole_roster=False), pot_to, agreed)
        plan = done.plan
        self._post(None, done.changes)
        self._change_row(pot_to=plan.pot_to, closed_at=now())
        self.db.execute(
            insert(CLOSES).values(
                session_id=self.row.id,
                pot_to=plan.pot_to,
                pot=plan.pot,
                shares_json=json.dumps(dict(done.changes), ensure_ascii=False, sort_keys=True),
                closed_at=self.row.closed_at,
            )
        )
        self._save(done.state)
        return plan

    def closes(self) -> list[CloseRecord]:
        """Every close of the session, those taken back by `reopen` included, oldest first."""
        query = select(C.pot_to, C.pot, C.shares_json, C.status, C.closed_at).where(
            C.session_id == self.row.id
        )
        return [
            CloseRecord(pot_to, pot, json.loads(shares), status == "live", closed_at)
            for pot_to, pot, shares, status, closed_at in self.db.execute(query.order_by(C.id))
        ]

    def reopen(self) -> None:
        """Take back a close: its shares of the pot are voided and kept in the record."""
        state = self.state(whole_roster=False)
        shares = self.changes_by_deal().get(None, {}) if state.closed else {}
        done = core.reopen(state, shares, self.carried_into() if state.closed else None)
        self.db.execute(delete(ENTRIES).where(E.session_id == self.row.id, E.deal_id.is_(None)))
        self.db.execute(
            update(CLOSES)
            .where(C.session_id == self.row.id, C.status == "live")
            .values(status="voided", reopened_at=now())
        )
        self._change_row(pot_to=None, closed_at=None)
        self._save(done.state)


def net_money(
    stores: Sequence[SessionStore],
) -> tuple[dict[str, Decimal], str, Decimal | None]:
    """Each party's net money over these sessions, their currency, and their one chip
    value (`core.net_money`)."""
    return core.net_money(
        [(s.as_if_closed(), Decimal(s.row.chip_value), s.row.currency) for s in stores]
    )


@cache
def locked(query: Select[Any]) -> Select[Any]:
    """`query` reading its rows for update (kept, as the query is)."""
    return query.with_for_update()


_RULES: dict[str, Rules] = {}


def cached_rules(snapshot: str) -> Rules:
    if snapshot not in _RULES:
        _RULES[snapshot] = rules_from_dict(json.loads(snapshot), "the session's stored rules")
    return _RULES[snapshot]


def session_info(row: SessionRow) -> SessionInfo:
    return SessionInfo(
        id=row.id,
        name=row.name,
        variant=row.variant,
        chip_value=Decimal(row.chip_value),
        currency=row.currency,
        opening_pot=row.opening_pot,
        carried_from=row.carried_from,
        pot_to=row.pot_to,
        created_at=row.created_at,
        closed_at=row.closed_at,
        language=row.language,
    )
