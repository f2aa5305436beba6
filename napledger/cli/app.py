"""The Typer app. Each command parses, calls the book in one transaction, and renders.

No `from __future__ import annotations` here: Typer would have to eval every string
annotation of every command at each start, which costs a one-shot command ~10 ms.
"""

from typing import TYPE_CHECKING, Annotated, Any

import typer

from napledger.cli.errors import NapGroup
from napledger.errors import NapError

if TYPE_CHECKING:
    from decimal import Decimal

    from napledger.rules import Deal
    from napledger.store import Book
    from napledger.store.models import SessionRow

app = typer.Typer(
    cls=NapGroup,
    help="Score and money ledger for Napoleon (Nap) at a real table.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode=None,  # plain help: Typer's Rich help would double what `--help` costs
)

DbOpt = Annotated[
    str | None,
    typer.Option("--db", envvar="NAPLEDGER_DB", help="SQLite file or database URL."),
]
# A club's tables share one database, and so its "current session": each table names its own.
SessionOpt = Annotated[
    str | None,
    typer.Option(
        "--session", "-s", envvar="NAPLEDGER_SESSION", help="Session id or name (default: current)."
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]


@app.callback()
def root(ctx: typer.Context, db: DbOpt = None) -> None:
    ctx.obj = db


def book(ctx: typer.Context, write: bool = True) -> Any:
    from napledger.store import open_book

    return open_book(ctx.find_root().obj, write)


def session_refs(named: list[str] | None) -> list[str | None]:
    """The sessions a many-session command acts on: those named, else this table's own."""
    import os

    if named:
        return list(named)
    return [os.environ.get("NAPLEDGER_SESSION") or None]


def emit_json(data: Any) -> None:
    import json

    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


# --- rules ----------------------------------------------------------------------


@app.command()
def variants(
    name: Annotated[str | None, typer.Argument(help="A preset or a .toml file.")] = None,
) -> None:
    """List the presets, or show one variant's stake table and settings."""
    from napledger.rules import list_presets, load_preset, load_rules

    if name is None:
        from napledger.cli import plain

        plain.variant_list([load_preset(n) for n in list_presets()])
    else:
        from napledger.cli import render

        render.variant(load_rules(name))


# --- sessions -------------------------------------------------------------------


def parse_chip(text: str) -> "Decimal":
    from decimal import Decimal

    from napledger.numbers import amount

    value = amount(text, "--chip")
    if value <= 0:
        raise NapError(f"--chip must be more than 0, not {text!r}")
    if value.as_tuple().exponent < -6:  # type: ignore[operator]
        raise NapError(f"--chip has more than 6 decimal places: {text!r}")
    if value > 1_000_000:
        raise NapError(f"--chip of {text} is more than anyone plays for")
    # Plain notation (5E+1 is stored as 50), so money always prints as a decimal string.
    return Decimal(format(value, "f"))


@app.command()
def new(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="A name for the session, e.g. friday-12-dec.")],
    players: Annotated[
        str, typer.Option("--players", "-p", help="Seated players in clockwise order: A,B,C")
    ],
    variant: Annotated[
        str, typer.Option(help="classic, seven-card, russian, or FILE.toml")
    ] = "classic",
    rule: Annotated[
        list[str] | None, typer.Option("--rule", "-r", help="KEY=VALUE; repeat.")
    ] = None,
    chip: Annotated[str, typer.Option(help="Money one chip is worth.")] = "1",
    currency: Annotated[str, typer.Option(help="Currency code shown with money, e.g. GBP.")] = "",
    dealer: Annotated[
        str | None, typer.Option(help="Who deals first (default: the first player).")
    ] = None,
    carry_from: Annotated[
        str | None, typer.Option("--carry-from", help="Open with the pot a closed session carried.")
    ] = None,
) -> None:
    """Start a session and make it the current one."""
    from napledger.cli import render
    from napledger.names import clean_name
    from napledger.rules import load_rules
    from napledger.rules.load import with_overrides

    rules = with_overrides(load_rules(variant), rule or [])
    chip_value = parse_chip(chip)
    currency = clean_name(currency, "currency") if currency.strip() else ""
    names = [p for p in players.split(",") if p.strip()]
    with book(ctx) as b:
        row = b.create(name, rules, names, chip_value, currency, dealer, carry_from)
        table = b.table(row)
    render.started(table)


@app.command()
def sessions(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """List the sessions in the database."""
    from napledger.cli import render

    with book(ctx, write=False) as b:
        rows = b.sessions()
        current = b.current_id()
        tables = [b.table(r) for r in rows]
    if as_json:
        emit_json(
            {
                "sessions": [
                    render.session_json(t.session)
                    | {"current": t.session.id == current, "hands": t.hands}
                    for t in tables
                ]
            }
        )
    else:
        render.session_list(tables, current)


@app.command()
def use(
    ctx: typer.Context, session: Annotated[str, typer.Argument(help="Session id or name.")]
) -> None:
    """Make a session the current one."""
    with book(ctx) as b:
        row = b.find(session)
        b.set_current(row)
    typer.echo(f"Current session: {row.name} (#{row.id})")


@app.command()
def table(ctx: typer.Context, session: SessionOpt = None, as_json: JsonOpt = False) -> None:
    """The scoreboard: every player's chips and money, and the pot."""
    from napledger.cli import render

    with book(ctx, write=False) as b:
        t = b.table(b.find(session))
    if as_json:
        emit_json(render.table_json(t))
    else:
        render.scoreboard(t)


@app.command()
def hands(ctx: typer.Context, session: SessionOpt = None, as_json: JsonOpt = False) -> None:
    """Every deal of a session and what it paid."""
    from napledger.cli import render

    with book(ctx, write=False) as b:
        row = b.find(session)
        deals = b.all_deals(row)
        entries = b.entries_by_deal(row)
        roster = () if as_json else b.roster(row)
        t = b.table(row)
    if as_json:
        emit_json(render.hands_json(t, deals, entries))
    else:
        render.hand_list(t, deals, entries, roster)


# --- deals ----------------------------------------------------------------------

ByOpt = Annotated[str | None, typer.Option("--by", "-b", help="The bidder.")]
TricksOpt = Annotated[int | None, typer.Option("--tricks", "-t", help="Tricks the bidder took.")]
MadeOpt = Annotated[bool, typer.Option("--made", help="The bid was made.")]
FailedOpt = Annotated[bool, typer.Option("--failed", help="The bid failed.")]
RevokeOpt = Annotated[str | None, typer.Option("--revoke", help="Who revoked (renonce).")]
DealerOpt = Annotated[
    str | None, typer.Option("--dealer", help="Who dealt (default: by rotation).")
]
PeepOpt = Annotated[list[str] | None, typer.Option("--peep", help="A player who peeped; repeat.")]
BuyOpt = Annotated[list[str] | None, typer.Option("--buy", help="PLAYER=N cards bought; repeat.")]
NoteOpt = Annotated[
    str | None, typer.Option("--note", help='A few words to remember (amend: "" clears).')
]
MAX_NOTE = 200


def build_deal(
    b: "Book",
    row: "SessionRow",
    base: "Deal | None",
    bid: str | None,
    by: str | None,
    tricks: int | None,
    made: bool,
    failed: bool,
    revoke: str | None,
    dealer: str | None,
    peep: list[str] | None,
    buy: list[str] | None,
    note: str | None = None,
) -> "Deal":
    """A deal record from the options typed, on top of `base` when amending."""
    from dataclasses import replace

    from napledger.rules import Deal

    if made and failed:
        raise NapError("--made and --failed contradict each other")
    if tricks is not None and (made or failed):
        raise NapError("give --tricks or --made/--failed, not both")
    rules = b.rules(row)
    seated = base.seated if base else b.seating(row)

    def who(typed: str) -> str:
        from napledger.names import match_player

        try:
            return match_player(typed, seated, "at the table")
        except NapError as unknown:
            # Someone who sat earlier deserves a better answer than "no such player".
            gone = [p for p in b.everyone(row) if p not in seated]
            try:
                player = match_player(typed, gone)
            except NapError:
                raise unknown from None
            hint = f" (`join {player}` seats them again)" if base is None else " in that deal"
            raise NapError(f"{player} is not at the table{hint}") from None

    deal = base or Deal(seated=seated, dealer=b.dealer_now(row), dealer_named=False)
    changes: dict[str, Any] = {}
    if bid is not None:
        if bid.strip().casefold() in ("pass", "passed"):
            changes |= {"bid": None, "bidder": None, "tricks": None, "made": None, "revoker": None}
        else:
            changes["bid"] = rules.bid(bid).name
    if by is not None:
        changes["bidder"] = who(by)
    if tricks is not None or made or failed or revoke is not None:
        changes |= {
            "tricks": tricks,
            "made": True if made else False if failed else None,
            "revoker": who(revoke) if revoke is not None else None,
        }
    if dealer is not None and who(dealer) != deal.dealer:
        changes |= {"dealer": who(dealer), "dealer_named": True}
    if peep is not None:
        changes["peeps"] = tuple(who(p) for p in peep)
    if buy is not None:
        changes["buys"] = tuple(parse_buy(who, item) for item in buy)
    if note is not None:
        from napledger.names import clean_name

        changes["note"] = clean_name(note, "note", MAX_NOTE) if note.strip() else None
    return replace(deal, **changes)


def parse_buy(who: Any, item: str) -> tuple[str, int]:
    from napledger.numbers import whole

    player, sep, count = item.rpartition("=")
    if not sep:
        raise NapError(f"--buy wants PLAYER=N (cards bought), not {item!r}")
    return who(player), whole(count, "--buy PLAYER=N")


@app.command()
def hand(
    ctx: typer.Context,
    bid: Annotated[str, typer.Argument(help="The bid: nap, misere, 3, ...")],
    by: ByOpt = None,
    tricks: TricksOpt = None,
    made: MadeOpt = False,
    failed: FailedOpt = False,
    revoke: RevokeOpt = None,
    dealer: DealerOpt = None,
    peep: PeepOpt = None,
    buy: BuyOpt = None,
    note: NoteOpt = None,
    session: SessionOpt = None,
) -> None:
    """Record a played deal: the bid, the bidder and the outcome (or a revoke)."""
    from napledger.cli import render

    if by is None:
        raise NapError("say who bid with --by PLAYER")
    with book(ctx) as b:
        row = b.find_writable(session)
        deal = build_deal(
            b, row, None, bid, by, tricks, made, failed, revoke, dealer, peep, buy, note
        )
        deal_row, transfers = b.record(row, deal)
        t = b.table(row)
    render.after_deal(t, deal_row.number, deal, transfers)


@app.command("pass")
def pass_(
    ctx: typer.Context,
    dealer: DealerOpt = None,
    peep: PeepOpt = None,
    buy: BuyOpt = None,
    note: NoteOpt = None,
    session: SessionOpt = None,
) -> None:
    """Record a passed-out deal: only antes and fees are paid, the deal moves on."""
    from napledger.cli import render

    with book(ctx) as b:
        row = b.find_writable(session)
        deal = build_deal(
            b, row, None, None, None, None, False, False, None, dealer, peep, buy, note
        )
        deal_row, transfers = b.record(row, deal)
        t = b.table(row)
    render.after_deal(t, deal_row.number, deal, transfers)


@app.command()
def undo(ctx: typer.Context, session: SessionOpt = None) -> None:
    """Void the last deal (it stays in the record, marked voided)."""
    from napledger.cli import render

    with book(ctx) as b:
        row = b.find_writable(session)
        gone = b.undo(row)
        t = b.table(row)
    render.changed(t, f"Deal {gone.number} voided.")


@app.command()
def void(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(help="Deal number.")],
    session: SessionOpt = None,
) -> None:
    """Void deal N; later deals are scored again (the pot may differ)."""
    from napledger.cli import render

    with book(ctx) as b:
        row = b.find_writable(session)
        b.void(row, number)
        t = b.table(row)
    render.changed(t, f"Deal {number} voided.")


@app.command()
def amend(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(help="Deal number.")],
    bid: Annotated[str | None, typer.Argument(help="A new bid, or `pass`.")] = None,
    by: ByOpt = None,
    tricks: TricksOpt = None,
    made: MadeOpt = False,
    failed: FailedOpt = False,
    revoke: RevokeOpt = None,
    dealer: DealerOpt = None,
    peep: PeepOpt = None,
    buy: BuyOpt = None,
    no_peeps: Annotated[bool, typer.Option("--no-peeps", help="Nobody peeped after all.")] = False,
    no_buys: Annotated[
        bool, typer.Option("--no-buys", help="Nobody bought cards after all.")
    ] = False,
    note: NoteOpt = None,
    session: SessionOpt = None,
) -> None:
    """Correct deal N: what you give replaces what was recorded; the rest stays."""
    from napledger.cli import render
    from napledger.store.book import deal_from_json

    if (no_peeps and peep) or (no_buys and buy):
        raise NapError("--no-peeps/--no-buys contradict --peep/--buy")
    peep = [] if no_peeps else peep
    buy = [] if no_buys else buy
    with book(ctx) as b:
        row = b.find_writable(session)
        old = deal_from_json(b.deal(row, number).record_json)
        deal = build_deal(
            b, row, old, bid, by, tricks, made, failed, revoke, dealer, peep, buy, note
        )
        if deal == old:
            raise NapError(f"that is what deal {number} already says")
        new = b.amend(row, number, deal)
        changes = b.deal_entries(new)
        t = b.table(row)
    render.amended(t, new.number, new.revision, deal, changes)


@app.command()
def join(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="The player who sits down.")],
    after: Annotated[
        str | None, typer.Option(help="Sit after this player (default: last seat).")
    ] = None,
    session: SessionOpt = None,
) -> None:
    """Seat a player from the next deal."""
    from napledger.cli import render

    with book(ctx) as b:
        row = b.find_writable(session)
        name = b.join(row, player, after)
        t = b.table(row)
    render.changed(t, f"{name} joins from the next deal.")


@app.command()
def leave(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="The player who stands up.")],
    session: SessionOpt = None,
) -> None:
    """A player leaves the table from the next deal; their score stays."""
    from napledger.cli import render

    with book(ctx) as b:
        row = b.find_writable(session)
        name = b.leave(row, player)
        t = b.table(row)
    render.changed(t, f"{name} leaves the table.")


@app.command()
def close(
    ctx: typer.Context,
    pot: Annotated[
        str, typer.Option(help="split (default), carry, or a PLAYER who takes it.")
    ] = "split",
    session: SessionOpt = None,
) -> None:
    """Close a session and decide what happens to the pot."""
    from napledger.cli import render

    with book(ctx) as b:
        row = b.find_writable(session)
        transfers = b.close(row, pot)
        t = b.table(row)
    render.closed(t, transfers)


def main() -> None:
    app()
