"""A session's scored history kept by a long-running reader and extended by each new deal.

The server's live page would otherwise score the whole evening again at every change
(184 ms at 5,000 deals). While only new deals arrive, the common case at the table, the
kept history scores just those, from the pot and the pass the deals before them left, and
adds their changes to the totals it keeps; any other change (an undo, an amend, a join or
leave, a close or reopen) reads the session afresh. `tests/store/test_kept.py` checks that
an extended history is the one a full reading gives.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import TypeVar, overload

from sqlalchemy import select
from sqlmodel import Session

from napledger.core.ledger import POT, balances
from napledger.core.read.history import ScoredDeal, score_history
from napledger.core.read.settlement import Settlement
from napledger.core.read.timeline import History
from napledger.service.api import SessionAPI, settlement
from napledger.service.watch import fingerprint
from napledger.store.book import SessionStore
from napledger.store.codec import DealRecord, revisions
from napledger.store.models import deals, entries

D = deals.c
E = entries.c
T = TypeVar("T")
Step = tuple[str, Mapping[str, int], tuple[str, ...]]  # one of History.steps


class Prefix(Sequence[T]):
    """The first items of a list that only ever grows at its end, as they were when
    taken: what a reader is handed of the kept history, without copying the evening at
    every read (a tuple of 5,000 deals is a copy of 5,000 at each change). The kept
    lists are appended to, or replaced whole by a fresh reading, never changed in place."""

    __slots__ = ("_items", "_length")

    def __init__(self, items: list[T]) -> None:
        self._items = items
        self._length = len(items)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self._items[i] for i in range(self._length)[index])
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("index out of range")
        return self._items[index]

    def __iter__(self) -> Iterator[T]:
        items = self._items
        return (items[i] for i in range(self._length))

    def __reversed__(self) -> Iterator[T]:
        items = self._items
        return (items[i] for i in range(self._length - 1, -1, -1))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(other) == self._length and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # unhashable, as a list is

    def __repr__(self) -> str:
        return f"Prefix({list(self)!r})"


class KeptHistory:
    """One session's history as last read; `read` brings it up to date and returns it.

    Safe to share between threads (one reads at a time), but meant for one reader that
    looks after every change: the server's watcher of that session.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._mark: tuple[object, ...] | None = None  # watch.fingerprint when last read
        self._scored: list[ScoredDeal] = []  # by number, then revision, as history() has them
        self._steps: list[Step] = []  # History.steps
        self._totals: dict[str, int] = {}  # every account's chips, the pot's without its opening
        self._last_number = 0  # voided numbers included: a new deal's number is above it
        self._revisions: list[tuple[int, str]] = []  # every revision's id and "N.rev", by id
        self.full_reads = 0  # how many times the whole session was read (for the tests)

    def read(self, s: SessionAPI) -> tuple[History, Settlement]:
        """The session's history and settlement, as `s.history()` and `s.settlement()`
        give them, with only the deals recorded since the last read scored now."""
        store = s.store
        with self._lock:
            self._update(store)
            kept = KeptTotals(store, self._totals)
            history = History(
                scoreboard=kept.scoreboard(),
                deals=Prefix(self._scored),  # no copy: a change costs what it adds
                roster=store.roster(),
                closes=store.closes(),
                carried_from=store.book.session_name(store.row.carried_from),
                carried_to=store.carried_into() if store.row.pot_to == "carry" else None,
            )
            # Kept too: derived afresh they would walk the whole evening again (`running`
            # is drawn from them only if a reader asks for it).
            history.__dict__["steps"] = Prefix(self._steps)
            return history, settlement([kept])

    @property
    def newest(self) -> int:
        """The id of the newest revision, as of the last read."""
        with self._lock:
            return self._revisions[-1][0] if self._revisions else 0

    def revisions(self) -> Sequence[tuple[int, str]]:
        """Every revision of the session's deals as of the last read, by id: (id, "N" or
        "N.2"), what `SessionAPI.deals_since(0)` gives, so a page needs no query of its own
        to learn which deals it has not seen (and no copy of them all at each change)."""
        with self._lock:
            return Prefix(self._revisions)

    def _update(self, store: SessionStore) -> None:
        # The mark is taken first: a change committed while reading moves it again, so the
        # next read looks once more (PostgreSQL's statements each see the latest commit).
        mark = fingerprint(store.db, store.row.id or 0)
        if mark == self._mark:
            return
        # Nothing voided, replaced, seated or closed: new deals can only have been added.
        same_table = self._mark is not None and mark[1:] == self._mark[1:]
        if not (same_table and self._extend(store, mark)):
            self._read_all(store)
        self._mark = mark

    def _extend(self, store: SessionStore, mark: tuple[object, ...]) -> bool:
        """Score the deals recorded since the last read; False if anything else changed."""
        # By number, which an index of (session, number) finds without walking the evening.
        row = store.row
        rows = store.db.execute(
            select(D.id, D.number, D.revision, D.status, D.record_json, D.pot_after, D.recorded_at)
            .where(D.session_id == row.id, D.number > self._last_number)
            .order_by(D.number, D.revision)
        ).all()
        appended = [r for r in rows if r.status == "live" and r.revision == 1]
        if (
            not rows
            or len(appended) != len(rows)  # an amend, or a deal already undone
            or rows[-1].number != mark[0]  # another change came in while reading
        ):
            return False
        changes = _changes(store.db, [r.id for r in rows])
        records = revisions(DealRecord(*r)._replace(changes=changes.get(r.id, {})) for r in rows)
        before = next((d for d in reversed(self._scored) if d.live), None)
        pot = row.opening_pot if before is None or before.pot_after is None else before.pot_after
        passed = before is not None and before.deal is not None and before.deal.bid is None
        scored = list(score_history(store.rules(), records, pot, after_pass=passed))
        for deal in scored:
            self._add(deal)
            for account, chips in deal.changes.items():
                self._totals[account] = self._totals.get(account, 0) + chips
        return True

    def _read_all(self, store: SessionStore) -> None:
        self.full_reads += 1
        scored = list(score_history(store.rules(), store.records(), store.row.opening_pot))
        history = History(store.scoreboard(), scored, store.roster(), store.closes())
        self._steps = list(history.steps)
        self._totals = {**store.chips(), POT: store.pot() - store.row.opening_pot}
        self._scored = scored
        self._last_number = max((d.number for d in scored), default=0)
        self._revisions = sorted((d.id, d.label) for d in scored)

    def _add(self, deal: ScoredDeal) -> None:
        self._scored.append(deal)
        self._revisions.append((deal.id, deal.label))
        self._last_number = deal.number
        start = self._steps[-1][1] if self._steps else {}
        seated = deal.deal.seated if deal.deal is not None else ()
        self._steps.append((deal.label, balances([deal.changes], start=start), seated))


class KeptTotals(SessionStore):
    """The store of one session whose chip totals are already known: the scoreboard and
    the settlement read them from the kept history instead of adding up the whole session."""

    def __init__(self, store: SessionStore, totals: Mapping[str, int]) -> None:
        super().__init__(store.book, store.row)
        self.totals = totals

    def _totals(self) -> dict[str, int]:
        return dict(self.totals)


def _changes(db: Session, deal_ids: list[int]) -> dict[int, dict[str, int]]:
    out: dict[int, dict[str, int]] = {}
    query = select(E.deal_id, E.account, E.chips).where(E.deal_id.in_(deal_ids))
    for deal_id, account, chips in db.execute(query).all():
        out.setdefault(deal_id, {})[account] = chips
    return out
