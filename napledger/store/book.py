"""The session operations behind the session API (`api.py`), on one open transaction.

The deal records are the truth: every change re-derives the entries (postings) of the
deals it can affect from the session's frozen rules, so the pot is always consistent.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from decimal import Decimal
from functools import cache
from typing import Any

from sqlalchemy import Integer, Select, bindparam, cast, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.elements import BindParameter
from sqlmodel import Session

from napledger.core.errors import NapError
from napledger.core.history import DealRecord, deal_from_json, deal_to_json, score_history
from napledger.core.ledger import POT, Transfer, balances, postings
from napledger.core.money import chip_value as checked_chip_value
from napledger.core.money import currency_code, summed_money
from napledger.core.names import clean_player, clean_text, match_player
from napledger.core.numbers import is_whole
from napledger.core.rules import Deal, Rules, rules_from_dict, score_deal
from napledger.core.rules.load import rules_to_dict
from napledger.core.rules.model import fold
from napledger.core.rules.scoring import close_transfers
from napledger.core.rules.texts import game_name
from napledger.core.seating import RosterChange, next_dealer
from napledger.core.words import N_, _
from napledger.store.db import duplicate_key, upsert
from napledger.store.models import DealRevision, SessionRow, now
from napledger.store.models import balances as BALANCES
from napledger.store.models import closes as CLOSES
from napledger.store.models import entries as ENTRIES
from napledger.store.models import meta as META
from napledger.store.models import players as PLAYERS
from napledger.store.models import roster as ROSTER
from napledger.store.views import ClosePlan, CloseRecord, Scoreboard, SessionInfo

__all__ = ["Book", "cached_rules", "deal_from_json", "deal_to_json", "whole_number"]

CURRENT = "current_session"
MAX_ID = 2**63 - 1  # the largest id or deal number a database column holds
# Columns for queries: typed as SQL expressions, where the model attributes read as plain values.
S = SessionRow.__table__.c  # type: ignore[attr-defined]
D = DealRevision.__table__.c  # type: ignore[attr-defined]
E = ENTRIES.c
P = PLAYERS.c
R = ROSTER.c
M = META.c
C = CLOSES.c
B = BALANCES.c
# Deals are written through their table, not the model class: an ORM entity's bulk insert
# costs a deal about half a millisecond more, for nothing the book uses.
DEALS = DealRevision.__table__  # type: ignore[attr-defined]

# What every deal runs, built once with its values bound at each run: a statement built
# afresh costs more to put together than to execute, and one kept computes its cache key
# (for SQLAlchemy's compiled cache) once.
SESSION: BindParameter[int] = bindparam("session")
CURRENT_ROW = select(SessionRow).where(
    S.id == cast(select(M.value).where(M.key == CURRENT).scalar_subquery(), Integer)
)
ROW_BY_ID = select(SessionRow).where(S.id == bindparam("id"))
ROW_BY_KEY = select(SessionRow).where(S.key == bindparam("key"))
TOTALS = select(B.account, B.chips).where(B.session_id == SESSION)
LATEST = (
    select(
        D.number,
        D.status,
        D.record_json,
        select(func.count()).where(D.session_id == SESSION, D.status == "voided").scalar_subquery(),
    )
    .where(D.session_id == SESSION)
    .order_by(D.number.desc(), D.revision.desc())
    .limit(1)
)
NEW_DEAL = insert(DEALS).returning(D.id)
NEW_ENTRIES = insert(ENTRIES)


def whole_number(text: str) -> int | None:
    """A session id or deal number as typed: ASCII digits within what a database holds."""
    text = text.strip()
    if not is_whole(text):
        return None
    number = int(text)
    return number if number <= MAX_ID else -1


@dataclass(frozen=True)
class Latest:
    """Where a session's deals stand: what the next deal and the scoreboard need."""

    number: int  # the highest deal number given (0: none yet); voided ones count
    live: Deal | None  # the record of the last live deal (None: no live deal)
    voided: int  # deal numbers voided: every number is live or voided, so N - voided are live


class Book:
    """The book inside one transaction.

    What a command reads twice within its transaction (the current session, its row,
    where its deals stand, its totals) is read once: nobody else can change it meanwhile
    (a writer holds the write lock; a reader sees one snapshot), and every change made
    here updates or forgets what was kept.
    """

    def __init__(self, db: Session) -> None:
        self.db = db
        self._current: int | None = None
        self._rows: dict[int, SessionRow] = {}  # sessions found, by id
        self._keys: dict[str, int] = {}  # ... their ids by folded name
        self._locked: set[int] = set()  # ... and of those, the ones found for update
        self._latest: dict[int, Latest] = {}
        self._totals_kept: dict[int, dict[str, int]] = {}

    def _forget(self, row: SessionRow) -> None:
        """After a change to a session's deals or entries other than a new deal."""
        self._latest.pop(row.id or 0, None)
        self._totals_kept.pop(row.id or 0, None)

    # --- sessions -------------------------------------------------------------

    def sessions(self) -> list[SessionRow]:
        return list(self.db.execute(select(SessionRow).order_by(S.id)).scalars())

    def current_id(self) -> int | None:
        if self._current is None:
            # A plain column query: an ORM `get` costs a one-shot command several ms to set up.
            value = self.db.execute(select(M.value).where(M.key == CURRENT)).scalar()
            self._current = int(value) if value is not None else None
        return self._current

    def set_current(self, row: SessionRow) -> None:
        upsert(self.db, META, {"key": CURRENT, "value": str(row.id)}, ["key"], ["value"])
        self._current = row.id

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
        elif ref is not None and whole_number(ref) is not None:
            query, values = ROW_BY_ID, {"id": whole_number(ref)}
        if lock:
            query = locked(query)
        row = self.db.execute(query, values).scalars().first()
        if row is None:
            if ref is None and self.current_id() is None:
                raise NapError(
                    _("no current session; start one with `napledger new` or pick one with `use`")
                )
            raise NapError(_("no session {ref!r}; `napledger sessions` lists them").format(ref=ref))
        if ref is None:
            self._current = row.id
        self._rows[row.id or 0] = row
        self._keys[row.key] = row.id or 0
        if lock:
            self._locked.add(row.id or 0)
        return row

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
    ) -> SessionRow:
        """A new session, made current. Without a chip value or currency it takes those of
        the session whose pot it carries on, else 1 and none."""
        name = clean_text(name, N_("session name"))
        chip_value = None if chip_value is None else checked_chip_value(chip_value)
        currency = None if currency is None else currency_code(currency)
        if name.isdigit():
            raise NapError(_("a session name cannot be only digits (numbers are session ids)"))
        if self.db.execute(select(S.id).where(S.key == fold(name))).first():
            raise NapError(_("there is already a session called {name!r}").format(name=name))
        seating = self._players(players)
        if not rules.min_players <= len(seating) <= rules.max_players:
            raise NapError(
                _("{game} is for {least}-{most} players, not {count}").format(
                    game=game_name(rules),
                    least=rules.min_players,
                    most=rules.max_players,
                    count=len(seating),
                )
            )
        first = match_player(dealer, seating) if dealer else seating[0]
        opening, carried = 0, None
        if carry_from is not None:
            source = self.find(carry_from, lock=True)
            chip_value = Decimal(source.chip_value) if chip_value is None else chip_value
            currency = source.currency if currency is None else currency
            opening, carried = self._carried_pot(source, chip_value, currency), source.id
        chip_value = Decimal(1) if chip_value is None else chip_value
        currency = "" if currency is None else currency
        row = SessionRow(
            name=name,
            key=fold(name),
            variant=rules.name,
            rules_json=json.dumps(rules_to_dict(rules), ensure_ascii=False),
            chip_value=str(chip_value),
            currency=currency,
            seating_json=json.dumps(seating, ensure_ascii=False),
            players_json=json.dumps(seating, ensure_ascii=False),
            first_dealer=first,
            opening_pot=opening,
            carried_from=carried,
            language=language,
        )
        self.db.add(row)
        try:
            self.db.flush()
        except IntegrityError as error:
            if not duplicate_key(error):
                raise  # another constraint: the transaction reports the database's reason
            # PostgreSQL: another table created it at the same moment (the only unique key
            # of a new session's row is its name's).
            raise NapError(
                _("there is already a session called {name!r}").format(name=name)
            ) from None
        self._roster(row, [RosterChange(1, "seat", p, i) for i, p in enumerate(seating)])
        self.set_current(row)
        return row

    def _carried_pot(self, source: SessionRow, chip_value: Decimal, currency: str) -> int:
        if source.pot_to != "carry":
            raise NapError(
                _("session {name!r} did not carry its pot (close it with --pot carry)").format(
                    name=source.name
                )
            )
        taken = self.db.execute(select(S.name).where(S.carried_from == source.id)).first()
        if taken:
            raise NapError(
                _("the pot of {name!r} was already carried into {other!r}").format(
                    name=source.name, other=taken[0]
                )
            )
        if Decimal(source.chip_value) != chip_value or source.currency != currency:
            # The box holds money: counted in other chips it would grow or shrink on the way.
            raise NapError(
                _(
                    "the pot of {name!r} is in chips of {chip}; start this session with {options}"
                ).format(
                    name=source.name,
                    chip=f"{source.chip_value} {source.currency}".strip(),
                    options=f"--chip {source.chip_value}"
                    + (f" --currency {source.currency}" if source.currency else ""),
                )
            )
        return self.pot(source)

    def _players(self, typed: Iterable[str]) -> list[str]:
        """Clean names, one spelling per person across every session."""
        seating: list[str] = []
        for raw in typed:
            name = clean_player(raw)
            if any(fold(name) == fold(s) for s in seating):
                raise NapError(_("{name} is named twice").format(name=name))
            seating.append(self._person(name))
        return seating

    def _person(self, name: str) -> str:
        upsert(self.db, PLAYERS, {"name": name, "key": fold(name)}, ["key"])
        return str(self.db.execute(select(P.name).where(P.key == fold(name))).scalar_one())

    # --- reading state --------------------------------------------------------

    def rules(self, row: SessionRow) -> Rules:
        return cached_rules(row.rules_json)

    def everyone(self, row: SessionRow) -> tuple[str, ...]:
        """Everyone who has sat this session, in the order they sat down."""
        return tuple(json.loads(row.players_json))

    def seating(self, row: SessionRow) -> tuple[str, ...]:
        return tuple(json.loads(row.seating_json))

    def pot(self, row: SessionRow) -> int:
        return row.opening_pot + self._totals(row).get(POT, 0)

    def chips(self, row: SessionRow) -> dict[str, int]:
        totals = dict(self._totals(row))
        totals.pop(POT, None)
        return totals

    def _totals(self, row: SessionRow) -> dict[str, int]:
        """Every account's chips in the session, the pot's included (without its opening):
        the balances the database keeps beside the entries, a row per account."""
        kept = self._totals_kept.get(row.id or 0)
        if kept is None:
            found = self.db.execute(TOTALS, {"session": row.id}).all()
            kept = {account: int(chips) for account, chips in found}
            self._totals_kept[row.id or 0] = kept
        return kept

    def latest(self, row: SessionRow) -> Latest:
        """Where the session's deals stand, in one query (two when the last deal is voided)."""
        known = self._latest.get(row.id or 0)
        if known is not None:
            return known
        top = self.db.execute(LATEST, {"session": row.id}).first()
        if top is None:
            known = Latest(0, None, 0)
        else:
            number, status, record, count = top
            if status != "live":
                last = self.last_live(row)
                record = last.record_json if last else None
            known = Latest(number, deal_from_json(record) if record else None, count)
        self._latest[row.id or 0] = known
        return known

    def last_live(self, row: SessionRow) -> DealRevision | None:
        query = (
            select(DealRevision)
            .where(D.session_id == row.id, D.status == "live")
            .order_by(D.number.desc())
            .limit(1)
        )
        return self.db.execute(query).scalars().first()

    def dealer_now(self, row: SessionRow) -> str:
        last = self.latest(row).live
        return self.dealer_after(row, last.dealer if last else None)

    def dealer_after(self, row: SessionRow, dealer: str | None) -> str:
        """Who deals next when `dealer` dealt the last live deal (None: no deal yet)."""
        seating = self.seating(row)
        if (dealer or row.first_dealer) in seating:
            # Only a departed dealer needs the history of who sat where: the seating now
            # says all the rest, and a one-shot command saves a query.
            changes = [RosterChange(0, "seat", p, i) for i, p in enumerate(seating)]
        else:
            changes = self.roster(row)
        return next_dealer(changes, dealer, row.first_dealer)

    def table(self, row: SessionRow, last: Deal | None = None) -> Scoreboard:
        """The scoreboard; `last` is the deal just added at the end, when the caller has
        it, so the next dealer is not found by reading and decoding it again."""
        seating = self.seating(row)
        players = self.everyone(row)
        chips = self._totals(row)  # one query for the players and the pot
        pot = row.opening_pot + chips.get(POT, 0)
        latest = self.latest(row)
        hands = latest.number - latest.voided
        return Scoreboard(
            session=session_info(row),
            rules=self.rules(row),
            seating=seating,
            players=players,
            chips={p: chips.get(p, 0) for p in players},
            pot=pot,
            hands=int(hands),
            next_dealer=self._next_dealer(row, last),
        )

    def _next_dealer(self, row: SessionRow, last: Deal | None) -> str | None:
        if row.closed_at:
            return None
        return self.dealer_after(row, last.dealer) if last else self.dealer_now(row)

    def records(self, row: SessionRow, live_only: bool = False) -> list[DealRecord]:
        """The session's deal records in order (number, then revision), with their entries."""
        query = select(
            D.id, D.number, D.revision, D.status, D.record_json, D.pot_after, D.recorded_at
        ).where(D.session_id == row.id)
        if live_only:
            query = query.where(D.status == "live")
        entries = self.entries_by_deal(row)
        return [
            DealRecord(i, number, revision, status, record, pot, at, entries.get(i, {}))
            for i, number, revision, status, record, pot, at in self.db.execute(
                query.order_by(D.number, D.revision)
            ).all()
        ]

    def deal_entries(self, deal: DealRevision) -> dict[str, int]:
        query = select(E.account, E.chips).where(E.deal_id == deal.id)
        return {account: chips for account, chips in self.db.execute(query).all()}

    def entries_by_deal(self, row: SessionRow) -> dict[int | None, dict[str, int]]:
        query = select(E.deal_id, E.account, E.chips).where(E.session_id == row.id)
        out: dict[int | None, dict[str, int]] = {}
        for deal_id, account, chips in self.db.execute(query).all():
            out.setdefault(deal_id, {})[account] = chips
        return out

    # --- writing deals --------------------------------------------------------

    def next_number(self, row: SessionRow) -> int:
        """The number the next deal gets: voided numbers are never given again."""
        return self.latest(row).number + 1

    def record(self, row: SessionRow, deal: Deal) -> tuple[int, list[Transfer]]:
        """A new deal at the end: its number and what it paid. What the scoreboard reads
        next (the totals, where the deals stand) is kept up to date, not read again."""
        latest = self.latest(row)
        totals = self._totals(row)
        pot = row.opening_pot + totals.get(POT, 0)
        rules = self.rules(row)
        # Only with pass_doubles does the deal before matter.
        after_pass = bool(rules.settings.pass_doubles and latest.live and latest.live.bid is None)
        transfers = score_deal(rules, deal, pot, after_pass)
        changes = postings(transfers)
        number = latest.number + 1
        deal_id = self.db.execute(
            NEW_DEAL,
            {
                "session_id": row.id,
                "number": number,
                "revision": 1,
                "status": "live",
                "record_json": deal_to_json(deal),
                "pot_after": pot + changes.get(POT, 0),
                "recorded_at": now(),
            },
        ).scalar_one()
        self._post(row, deal_id, transfers)
        self._latest[row.id or 0] = Latest(number, deal, latest.voided)
        self._totals_kept[row.id or 0] = balances_after(totals, changes)
        return number, transfers

    def _post(self, row: SessionRow, deal_id: int | None, transfers: Iterable[Transfer]) -> None:
        self._totals_kept.pop(row.id or 0, None)
        rows = [
            {"session_id": row.id, "deal_id": deal_id, "account": account, "chips": chips}
            for account, chips in postings(transfers).items()
            if chips
        ]
        if rows:
            self.db.execute(NEW_ENTRIES, rows)

    def deal(self, row: SessionRow, number: int) -> DealRevision:
        found = (
            None
            if number > MAX_ID
            else (
                self.db.execute(
                    select(DealRevision).where(
                        D.session_id == row.id, D.number == number, D.status == "live"
                    )
                )
                .scalars()
                .first()
            )
        )
        if found is None:
            if (
                number <= MAX_ID
                and self.db.execute(
                    select(D.id).where(D.session_id == row.id, D.number == number)
                ).first()
            ):
                # Every version of it is voided: it is there in `hands`, and it stays voided.
                raise NapError(
                    _(
                        "deal {n} of {name!r} is voided and stays so (`hands` shows it); "
                        "to count it after all, record it again as a new deal"
                    ).format(n=number, name=row.name)
                )
            raise NapError(
                _("no deal {n} to change in {name!r} (`napledger hands` lists them)").format(
                    n=number, name=row.name
                )
            )
        return found

    def revisions(self, row: SessionRow, number: int) -> list[DealRevision]:
        """Every version of deal `number`, the first first (none: no such deal)."""
        if number > MAX_ID:
            return []
        query = (
            select(DealRevision)
            .where(D.session_id == row.id, D.number == number)
            .order_by(D.revision)
        )
        return list(self.db.execute(query).scalars())

    def void(self, row: SessionRow, number: int) -> DealRevision:
        target = self.deal(row, number)
        target.status = "voided"
        self._forget(row)
        self.db.flush()
        self.rederive(row, number)
        return target

    def undo(self, row: SessionRow) -> DealRevision:
        last = self.last_live(row)
        if last is None:
            raise NapError(_("nothing to undo in {name!r}").format(name=row.name))
        return self.void(row, last.number)

    def amend(self, row: SessionRow, number: int, deal: Deal) -> DealRevision:
        old = self.deal(row, number)
        old.status = "replaced"
        self._forget(row)
        self.db.flush()
        new = DealRevision(
            session_id=row.id,  # type: ignore[arg-type]  # flushed rows have ids
            number=number,
            revision=old.revision + 1,
            record_json=deal_to_json(deal),
            recorded_at=now(),
        )
        self.db.add(new)
        self.db.flush()
        self.rederive(row, number)
        return new

    def rederive(self, row: SessionRow, from_number: int) -> None:
        """Score every live deal again; rewrite what differs from `from_number` on.

        Only deals whose postings or pot really changed are written, so correcting deal 1
        of a long evening costs one re-scoring in memory, not a rewrite of the evening.
        """
        self._forget(row)
        live = [
            DealRecord(*columns)
            for columns in self.db.execute(
                select(D.id, D.number, D.revision, D.status, D.record_json, D.pot_after)
                .where(D.session_id == row.id, D.status == "live")
                .order_by(D.number)
            ).all()
        ]
        scored = score_history(self.rules(row), live, row.opening_pot)
        later = [(d, s) for d, s in zip(live, scored, strict=True) if d.number >= from_number]
        stored: dict[int, dict[str, int]] = {}
        affected = select(D.id).where(D.session_id == row.id, D.number >= from_number)
        for deal_id, account, chips in self.db.execute(
            select(E.deal_id, E.account, E.chips).where(E.deal_id.in_(affected))
        ):
            stored.setdefault(deal_id, {})[account] = chips
        fresh = {d.id: {a: c for a, c in postings(s.transfers).items() if c} for d, s in later}
        # Voided and replaced deals keep no entries; live ones keep exactly their postings.
        stale = [deal_id for deal_id, entries in stored.items() if fresh.get(deal_id) != entries]
        if stale:
            self.db.execute(delete(ENTRIES).where(E.deal_id.in_(stale)))
        rows = [
            {"session_id": row.id, "deal_id": deal_id, "account": account, "chips": chips}
            for deal_id, entries in fresh.items()
            if stored.get(deal_id) != entries
            for account, chips in entries.items()
        ]
        if rows:
            self.db.execute(insert(ENTRIES), rows)
        moved = [
            {"id": d.id, "pot_after": s.pot_after} for d, s in later if d.pot_after != s.pot_after
        ]
        if moved:
            self.db.execute(update(DealRevision), moved)

    # --- the table changes ----------------------------------------------------

    def join(self, row: SessionRow, name: str, after: str | None) -> str:
        seating = list(self.seating(row))
        rules = self.rules(row)
        player = self._person(clean_player(name))
        if any(fold(player) == fold(p) for p in seating):
            raise NapError(_("{player} is already seated").format(player=player))
        if len(seating) >= rules.max_players:
            raise NapError(
                _("{game} is for at most {most} players").format(
                    game=game_name(rules), most=rules.max_players
                )
            )
        seat = seating.index(match_player(after, seating)) + 1 if after else len(seating)
        seating.insert(seat, player)
        self._roster(row, [RosterChange(self.next_number(row), "join", player, seat)])
        everyone = json.loads(row.players_json)
        if player not in everyone:
            everyone.append(player)
        row.seating_json = json.dumps(seating, ensure_ascii=False)
        row.players_json = json.dumps(everyone, ensure_ascii=False)
        return player

    def leave(self, row: SessionRow, name: str) -> str:
        seating = list(self.seating(row))
        rules = self.rules(row)
        try:
            player = match_player(name, seating, N_("at the table"))
        except NapError as unknown:
            gone = [p for p in self.everyone(row) if p not in seating]
            try:
                player = match_player(name, gone)
            except NapError:
                raise unknown from None
            raise NapError(_("{player} has already left the table").format(player=player)) from None
        if len(seating) <= rules.min_players:
            raise NapError(
                _("{game} needs at least {least} players").format(
                    game=game_name(rules), least=rules.min_players
                )
            )
        self._roster(
            row, [RosterChange(self.next_number(row), "leave", player, seating.index(player))]
        )
        seating.remove(player)
        row.seating_json = json.dumps(seating, ensure_ascii=False)
        return player

    def _roster(self, row: SessionRow, changes: Iterable[RosterChange]) -> None:
        self.db.execute(insert(ROSTER), [{"session_id": row.id, **asdict(c)} for c in changes])

    def roster(self, row: SessionRow) -> list[RosterChange]:
        """Every change to who sits, in the order they were made."""
        query = (
            select(R.from_deal, R.kind, R.player, R.seat)
            .where(R.session_id == row.id)
            .order_by(R.id)
        )
        return [RosterChange(*change) for change in self.db.execute(query).all()]

    def net_money(
        self, rows: Sequence[SessionRow]
    ) -> tuple[dict[str, Decimal], str, Decimal | None]:
        """Each party's net money over these sessions, their currency, and their one chip value.

        The pot is a party only where money really sits in it (a carried box). An open
        session is counted as if it closed now with the pot split, the default close.
        """
        currencies = {r.currency for r in rows}
        if len(currencies) > 1:
            raise NapError(
                _(
                    "these sessions are in different currencies ({currencies}); settle them apart"
                ).format(currencies=", ".join(sorted(currencies)))
            )
        nets = []
        for row in rows:
            value = Decimal(row.chip_value)
            chips = {**self.chips(row), POT: self.pot(row) - row.opening_pot}
            if row.closed_at is None:
                split = close_transfers(self.pot(row), self.seating(row), "split")
                chips = balances([postings(split)], start=chips)
            nets.append({party: count * value for party, count in chips.items()})
        net = summed_money(nets)
        values = {Decimal(r.chip_value) for r in rows}
        return net, currencies.pop(), values.pop() if len(values) == 1 else None

    def close_plan(self, row: SessionRow, pot_to: str) -> ClosePlan:
        """What closing would do, without doing it: shown before a close is confirmed."""
        seating = self.seating(still_open(row))
        choice = pot_to.strip().casefold()
        if choice in ("split", "carry"):
            target = choice
        else:
            try:
                target = match_player(pot_to, seating)
            except NapError:
                raise NapError(pot_choice_error(pot_to, seating)) from None
        pot = self.pot(row)
        return ClosePlan(row.name, pot, target, tuple(close_transfers(pot, seating, target)))

    def close(self, row: SessionRow, pot_to: str, confirmed: ClosePlan | None = None) -> ClosePlan:
        plan = self.close_plan(row, pot_to)
        if confirmed is not None and plan != confirmed:
            # Another table wrote while the question was asked: what was agreed no longer holds.
            raise NapError(
                _("{name!r} changed while you were asked; nothing was closed").format(name=row.name)
            )
        self._post(row, None, plan.transfers)
        row.pot_to = plan.pot_to
        row.closed_at = now()
        self.db.execute(
            insert(CLOSES).values(
                session_id=row.id,
                pot_to=plan.pot_to,
                pot=plan.pot,
                shares_json=json.dumps(
                    postings(plan.transfers), ensure_ascii=False, sort_keys=True
                ),
                closed_at=row.closed_at,
            )
        )
        return plan

    def closes(self, row: SessionRow) -> list[CloseRecord]:
        """Every close of the session, those taken back by `reopen` included, oldest first."""
        query = select(C.pot_to, C.pot, C.shares_json, C.status, C.closed_at).where(
            C.session_id == row.id
        )
        return [
            CloseRecord(pot_to, pot, json.loads(shares), status == "live", closed_at)
            for pot_to, pot, shares, status, closed_at in self.db.execute(query.order_by(C.id))
        ]

    def reopen(self, row: SessionRow) -> SessionRow:
        """Take back a close: its shares of the pot are voided and kept in the record."""
        if row.closed_at is None:
            raise NapError(_("session {name!r} is not closed").format(name=row.name))
        taken = self.db.execute(select(S.name).where(S.carried_from == row.id)).first()
        if taken:
            raise NapError(
                _(
                    "the pot of {name!r} was carried into {other!r}, so it cannot be reopened"
                ).format(name=row.name, other=taken[0])
            )
        self._forget(row)
        self.db.execute(delete(ENTRIES).where(E.session_id == row.id, E.deal_id.is_(None)))
        self.db.execute(
            update(CLOSES)
            .where(C.session_id == row.id, C.status == "live")
            .values(status="voided", reopened_at=now())
        )
        row.pot_to = None
        row.closed_at = None
        return row


def balances_after(totals: dict[str, int], changes: dict[str, int]) -> dict[str, int]:
    """Each account's chips once `changes` are posted (an account at nought keeps its row,
    as the database's balances do while it has entries)."""
    after = dict(totals)
    for account, chips in changes.items():
        if chips:
            after[account] = after.get(account, 0) + chips
    return after


@cache
def locked(query: Select[Any]) -> Select[Any]:
    """`query` reading its rows for update (kept, as the query is)."""
    return query.with_for_update()


def still_open(row: SessionRow) -> SessionRow:
    if row.closed_at is not None:
        raise NapError(
            _(
                "session {name!r} is closed; `reopen` takes the close back "
                "(unless its pot was carried on), `new` starts another"
            ).format(name=row.name)
        )
    return row


def pot_choice_error(typed: str, seating: Sequence[str]) -> str:
    choices = {fold(c): c for c in ("split", "carry", *seating)}
    near = difflib.get_close_matches(fold(typed), list(choices), n=1, cutoff=0.75)
    hint = _("; did you mean {player}?").format(player=choices[near[0]]) if near else ""
    return _(
        "--pot is split, carry or a player at the table ({players}), not {typed!r}{hint}"
    ).format(players=", ".join(seating), typed=typed, hint=hint)


_RULES: dict[str, Rules] = {}


def cached_rules(snapshot: str) -> Rules:
    if snapshot not in _RULES:
        _RULES[snapshot] = rules_from_dict(json.loads(snapshot), "the session's stored rules")
    return _RULES[snapshot]


def session_info(row: SessionRow) -> SessionInfo:
    return SessionInfo(
        id=row.id or 0,
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
