"""The page's only way into the ledger: each function is one thing a person does or sees.

Everything the page shows or changes goes through here, in the same calls the CLI makes,
so the web layer holds no rule, validation or scoring of its own. What comes back is
plain frozen data for the templates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from napledger.errors import NapError
from napledger.ledger import POT, balances


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
    currency: str
    closed: bool
    players: tuple[Line, ...]
    pot: int
    hands: int
    next_dealer: str | None
    deals: tuple[DealView, ...]  # the latest first
    series: tuple[tuple[str, tuple[int, ...]], ...]  # each player's balance after each deal
    plan: tuple[Payment, ...]
    newest: int  # the database id of the newest deal record: live pages count from it
    # What the scorekeeper's form offers.
    seated: tuple[str, ...] = ()
    bids: tuple[str, ...] = ()
    hand_size: int = 0
    peeps: bool = False
    buys: bool = False
    last_deal: int | None = None


@dataclass(frozen=True)
class SessionItem:
    id: int
    name: str
    title: str
    hands: int
    closed: bool
    current: bool


@dataclass(frozen=True)
class DealForm:
    """What the scorekeeper tapped, in the CLI's own terms (`hand BID --by ...`)."""

    bid: str | None = None
    by: str | None = None
    tricks: int | None = None
    made: bool = False
    failed: bool = False
    revoke: str | None = None
    peep: tuple[str, ...] = ()
    buy: tuple[str, ...] = ()  # PLAYER=N, as `--buy` takes it
    note: str | None = None


def signed_money(chips: int, chip_value: Decimal, currency: str) -> str:
    # Pence read as two places (0.70, not 0.7), as the CLI shows them; whole units stay whole.
    places = (
        0
        if chip_value == chip_value.to_integral()
        else max(2, -int(chip_value.as_tuple().exponent))
    )
    amount = (chips * chip_value).quantize(Decimal(1).scaleb(-places))
    text = f"{amount:+}" if amount else f"{amount}"
    return f"{text} {currency}".strip()


# --- reading ----------------------------------------------------------------------


def sessions(db: str | None) -> list[SessionItem]:
    from napledger.store import open_book

    with open_book(db, write=False) as b:
        current = b.current_id()
        tables = [b.table(r) for r in b.sessions()]
    return [
        SessionItem(
            id=t.session.id or 0,
            name=t.session.name,
            title=t.rules.title,
            hands=t.hands,
            closed=t.session.closed_at is not None,
            current=t.session.id == current,
        )
        for t in reversed(tables)
    ]


def session_id(db: str | None, ref: str | None) -> int:
    """The id of the session a link names (an id or a name; none: the current one)."""
    from napledger.store import open_book

    with open_book(db, write=False) as b:
        return b.find(ref).id or 0


def board(db: str | None, ref: str, recent: int = 8) -> Board:
    from napledger.rules.scoring import outcome
    from napledger.settle import settle
    from napledger.store import open_book
    from napledger.store.book import deal_from_json
    from napledger.store.watch import fingerprint

    with open_book(db, write=False) as b:
        row = b.find(ref)
        newest = fingerprint(b.db, row.id or 0)[0]
        t = b.table(row)
        live = b.live_deals(row)
        entries = b.entries_by_deal(row)
        net, currency, _ = b.net_money([row])
    value = t.chip_value
    seated = set(t.seating)
    deals = []
    for deal_row in live[-recent:][::-1]:
        deal = deal_from_json(deal_row.record_json)
        head = f"{deal.dealer} dealt"
        what = (
            "passed out"
            if deal.bid is None
            else f"{deal.bidder} bid {deal.bid}: {outcome(t.rules, deal)}"
        )
        changes = entries.get(deal_row.id, {})
        seat = {p: i for i, p in enumerate(t.players)}
        ordered = sorted((a for a in changes if a != POT), key=lambda a: seat.get(a, len(seat)))
        paid = [(a, changes[a]) for a in ordered if changes[a]]
        if changes.get(POT):
            paid.append((POT, changes[POT]))
        label = str(deal_row.number) + (f".{deal_row.revision}" if deal_row.revision > 1 else "")
        note = f" — {deal.note}" if deal.note else ""
        deals.append(DealView(label, f"{head} · {what}{note}", tuple(paid)))
    running: list[dict[str, int]] = []
    total: dict[str, int] = {}
    for deal_row in live:
        total = balances([entries.get(deal_row.id, {})], start=total)
        running.append(total)
    series = tuple((p, tuple(step.get(p, 0) for step in running)) for p in t.players)
    plan = tuple(
        Payment(p.payer, p.payee, f"{Decimal(p.amount)} {currency}".strip()) for p in settle(net)
    )
    rules = t.rules
    return Board(
        id=row.id or 0,
        name=row.name,
        title=rules.title,
        currency=row.currency,
        closed=row.closed_at is not None,
        players=tuple(
            Line(p, t.chips[p], signed_money(t.chips[p], value, row.currency), p in seated)
            for p in sorted(t.players, key=lambda p: (-t.chips[p], t.players.index(p)))
        ),
        pot=t.pot,
        hands=t.hands,
        next_dealer=t.next_dealer,
        deals=tuple(deals),
        series=series,
        plan=plan,
        newest=newest,
        seated=t.seating,
        bids=tuple(bid.name for bid in rules.enabled_bids),
        hand_size=rules.hand_size,
        peeps=rules.settings.peep_fee > 0,
        buys=rules.settings.purchase_fee > 0,
        last_deal=live[-1].number if live else None,
    )


def last_change(db: str | None, session: int) -> tuple[Any, ...]:
    """A cheap fingerprint of a session: it differs as soon as anything in it changes."""
    from napledger.store import open_book
    from napledger.store.watch import fingerprint

    with open_book(db, write=False) as b:
        return fingerprint(b.db, session)


def new_deals(db: str | None, session: int, after_id: int) -> list[tuple[int, str]]:
    """The deals recorded since `after_id` (database ids), with their labels."""
    from napledger.store import open_book
    from napledger.store.watch import recorded_since

    with open_book(db, write=False) as b:
        return recorded_since(b.db, session, after_id)


# --- writing: what the CLI's commands do ------------------------------------------


def record(db: str | None, session: int, form: DealForm) -> str:
    from napledger.cli.app import build_deal
    from napledger.store import open_book

    if form.bid is not None and form.by is None:
        raise NapError("say who bid with --by PLAYER")
    with open_book(db) as b:
        row = b.find_writable(str(session))
        deal = build_deal(
            b,
            row,
            None,
            form.bid,
            form.by,
            form.tricks,
            form.made,
            form.failed,
            form.revoke,
            None,
            list(form.peep) or None,
            list(form.buy) or None,
            form.note,
        )
        deal_row, _ = b.record(row, deal)
    return f"Deal {deal_row.number} recorded."


def pass_deal(db: str | None, session: int, form: DealForm) -> str:
    return record(db, session, DealForm(peep=form.peep, buy=form.buy, note=form.note))


def undo(db: str | None, session: int) -> str:
    from napledger.store import open_book

    with open_book(db) as b:
        gone = b.undo(b.find_writable(str(session)))
    return f"Deal {gone.number} voided."


def amend_last(db: str | None, session: int, form: DealForm) -> str:
    from napledger.cli.app import build_deal
    from napledger.store import open_book
    from napledger.store.book import deal_from_json

    with open_book(db) as b:
        row = b.find_writable(str(session))
        last = b.last_live(row)
        if last is None:
            raise NapError(f"no deal to amend in {row.name!r}")
        old = deal_from_json(last.record_json)
        deal = build_deal(
            b,
            row,
            old,
            form.bid,
            form.by,
            form.tricks,
            form.made,
            form.failed,
            form.revoke,
            None,
            list(form.peep) or None,
            list(form.buy) or None,
            form.note,
        )
        if deal == old:
            raise NapError(f"that is what deal {last.number} already says")
        new = b.amend(row, last.number, deal)
    return f"Deal {new.number} amended (now {new.number}.{new.revision})."


def join(db: str | None, session: int, player: str, after: str | None) -> str:
    from napledger.store import open_book

    with open_book(db) as b:
        name = b.join(b.find_writable(str(session)), player, after)
    return f"{name} joins from the next deal."


def leave(db: str | None, session: int, player: str) -> str:
    from napledger.store import open_book

    with open_book(db) as b:
        name = b.leave(b.find_writable(str(session)), player)
    return f"{name} leaves the table."


__all__: Sequence[str] = [
    "Board",
    "DealForm",
    "NapError",
    "amend_last",
    "board",
    "join",
    "last_change",
    "leave",
    "new_deals",
    "pass_deal",
    "record",
    "sessions",
    "undo",
]
