"""The page's only way into the ledger: each function is one call of the session API.

The same calls the CLI makes (`napledger.store.api`), so the web layer holds no rule,
validation or scoring of its own; what it shows is the API's frozen data, arranged for
the templates.
"""

from __future__ import annotations

import hashlib
from contextlib import AbstractContextManager
from dataclasses import dataclass

from napledger.history import deal_label
from napledger.ledger import POT
from napledger.money import chips_money, money_text
from napledger.options import DealOptions
from napledger.rules.scoring import describe
from napledger.store.api import Database, Transaction


@dataclass(frozen=True)
class Line:
    """A player's standing: chips, and money as the table reads it."""

    name: str
    chips: int
    money: str
    seated: bool


@dataclass(frozen=True)
class DealView:
    label: str  # "5", or "5.2" for deal 5's second version
    text: str
    payments: tuple[tuple[str, int], ...]  # seat order, the pot last


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    money: str


@dataclass(frozen=True)
class Board:
    """One session as its page shows it."""

    id: int
    name: str
    title: str
    closed: bool
    players: tuple[Line, ...]
    pot: int
    hands: int
    next_dealer: str | None
    deals: tuple[DealView, ...]  # the latest first
    series: tuple[
        tuple[str, tuple[int, ...]], ...
    ]  # each player's balance after each deal and the close
    plan: tuple[Payment, ...]
    newest: int  # the id of the newest deal record: a live page counts from it
    # What the scorekeeper's form offers.
    seated: tuple[str, ...]
    dealt_in: tuple[str, ...]  # who takes cards in the next deal (a dealer may sit out)
    bids: tuple[str, ...]
    hand_size: int
    peeps: bool
    buys: bool
    most_bought: int
    bidder_buys: bool  # only the bidder may buy
    last_deal: int | None
    last_revision: int | None  # the version of the last deal shown: what amend and undo expect
    next_number: int  # the number the next deal will take: what the form expects

    @property
    def last_label(self) -> str:
        """The last deal as the keeper's buttons name it: 27, or 27.2 once amended."""
        if self.last_deal is None or self.last_revision is None:
            return ""
        return deal_label(self.last_deal, self.last_revision)

    @property
    def keeper_state(self) -> str:
        """A short mark of everything the keeper's controls show: when it differs from
        the page's, the page fetches them again (whoever changed the session)."""
        shown = (self.closed, self.next_number, self.last_label, self.next_dealer, self.seated)
        return hashlib.sha256(repr(shown).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class SessionItem:
    id: int
    name: str
    title: str
    hands: int
    closed: bool
    current: bool


# --- reading ----------------------------------------------------------------------


def sessions(database: Database) -> list[SessionItem]:
    with database.read() as ledger:
        boards = ledger.sessions()
        current = ledger.current_id()
    return [
        SessionItem(
            id=t.session.id,
            name=t.session.name,
            title=t.rules.title,
            hands=t.hands,
            closed=t.session.closed,
            current=t.session.id == current,
        )
        for t in reversed(boards)
    ]


def session_id(database: Database, ref: str | None) -> int:
    """The id of the session a link names (an id or a name; none: the current one)."""
    with database.read() as ledger:
        return ledger.session(ref).info.id


def board(database: Database, session: int, recent: int = 8) -> Board:
    with database.read() as ledger:
        s = ledger.session(str(session))
        history = s.history()  # the closes too: their shares are in the chart
        settlement = s.settlement()
    t = history.scoreboard
    info = t.session
    live = [d for d in history.deals if d.live]
    seat = {p: i for i, p in enumerate(t.players)}
    deals = []
    for d in live[-recent:][::-1]:
        deal = d.deal
        assert deal is not None  # the API scores strictly: a live deal has its record
        ordered = sorted((a for a in d.entries if a != POT), key=lambda a: seat.get(a, len(seat)))
        paid = [(a, d.entries[a]) for a in ordered if d.entries[a]]
        if d.entries.get(POT):
            paid.append((POT, d.entries[POT]))
        deals.append(DealView(d.label, describe(t.rules, deal), tuple(paid)))
    unit = settlement.currency
    rules = t.rules
    return Board(
        id=info.id,
        name=info.name,
        title=rules.title,
        closed=info.closed,
        players=tuple(
            Line(
                p,
                t.chips[p],
                chips_money(t.chips[p], t.chip_value, info.currency, signed=True, label=True),
                p in t.seating,
            )
            for p in sorted(t.players, key=lambda p: (-t.chips[p], t.players.index(p)))
        ),
        pot=t.pot,
        hands=t.hands,
        next_dealer=t.next_dealer,
        deals=tuple(deals),
        series=tuple((p, tuple(step.get(p, 0) for _, step in history.running)) for p in t.players),
        plan=tuple(
            Payment(p.payer, p.payee, f"{money_text(p.amount, settlement.places)} {unit}".strip())
            for p in settlement.payments
        ),
        newest=max((d.id for d in history.deals), default=0),
        seated=t.seating,
        dealt_in=rules.dealt_in(t.seating, t.next_dealer) if t.next_dealer else t.seating,
        bids=tuple(bid.name for bid in rules.enabled_bids),
        hand_size=rules.hand_size,
        peeps=rules.can_peep,
        buys=rules.can_buy,
        most_bought=rules.most_bought,
        bidder_buys=rules.buying == "bidder",
        last_deal=live[-1].number if live else None,
        last_revision=live[-1].revision if live else None,
        next_number=max((d.number for d in history.deals), default=0) + 1,
    )


def last_change(database: Database, session: int) -> tuple[object, ...]:
    with database.read() as ledger:
        return ledger.session(str(session)).last_change()


def deals_since(database: Database, session: int, after_id: int) -> list[tuple[int, str]]:
    with database.read() as ledger:
        return ledger.session(str(session)).deals_since(after_id)


# --- writing: what `hand`, `pass`, `undo`, `amend`, `join` and `leave` call --------------


def writing(database: Database) -> AbstractContextManager[Transaction]:
    """A writing transaction, refused if the database file was moved or replaced since the
    server opened it (a restored backup must not silently take the evening's deals)."""
    database.check_same_files()
    return database.write()


# Each write names what the page showed (`expect…`): a repeat is answered as the first
# was, a write against a newer board is refused by the API with what changed.


def record(
    database: Database, session: int, options: DealOptions, expect: int | None = None
) -> str:
    with writing(database) as ledger:
        done = ledger.session(str(session)).record(options, expect_number=expect)
    return f"Deal {done.number} recorded."


def pass_deal(
    database: Database, session: int, options: DealOptions, expect: int | None = None
) -> str:
    with writing(database) as ledger:
        done = ledger.session(str(session)).pass_(options, expect_number=expect)
    return f"Deal {done.number} recorded (passed out)."


def undo(
    database: Database, session: int, expected: int | None, revision: int | None = None
) -> str:
    with writing(database) as ledger:
        gone = ledger.session(str(session)).undo(expected, expect_revision=revision)
    return f"Deal {gone.number} voided."


def amend(
    database: Database,
    session: int,
    number: int,
    options: DealOptions,
    revision: int | None = None,
    next_number: int | None = None,
) -> str:
    with writing(database) as ledger:
        done = ledger.session(str(session)).amend(
            number, options, expect_revision=revision, expect_next=next_number
        )
    return f"Deal {done.number} amended (now {done.number}.{done.revision})."


def join(database: Database, session: int, player: str, after: str | None) -> str:
    with writing(database) as ledger:
        seated = ledger.session(str(session)).join(player, after)
    return f"{seated.player} joins from the next deal."


def leave(database: Database, session: int, player: str) -> str:
    with writing(database) as ledger:
        gone = ledger.session(str(session)).leave(player)
    return f"{gone.player} leaves the table."
