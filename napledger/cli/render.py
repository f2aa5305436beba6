"""What the table sees: Rich output, and the JSON documents of the CLI contract.

Gains and losses carry a sign as well as a colour, so they read the same with NO_COLOR.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Console

from napledger.cli.grid import CACHED
from napledger.core.history import ScoredDeal
from napledger.core.ledger import POT, in_seat_order
from napledger.core.money import chips_money, money_text
from napledger.core.numbers import signed
from napledger.core.rules import Deal, Rules
from napledger.core.rules.scoring import describe, extras, outcome
from napledger.core.seating import RosterChange

# The `--json` documents are the store's, so the page serves the very same ones.

if TYPE_CHECKING:
    from napledger.store.views import (
        Closed,
        ClosePlan,
        CloseRecord,
        DealResult,
        History,
        Scoreboard,
        Settlement,
    )

# No emoji codes: a name like ":x:" is shown as typed, and Rich's emoji table is not loaded.
console = Console(highlight=False, emoji=False)


def styled(chips: int, text: str | None = None) -> str:
    text = text if text is not None else signed(chips)
    return f"[green]{text}[/]" if chips > 0 else f"[red]{text}[/]" if chips < 0 else text


@lru_cache(maxsize=CACHED)  # a long history escapes the same few names thousands of times
def esc(text: str) -> str:
    from rich.markup import escape

    return escape(text)


# --- variants -------------------------------------------------------------------


def variant(rules: Rules) -> None:
    from rich.table import Table as RichTable

    console.print(f"[bold]{esc(rules.title)}[/] ({esc(rules.name)}): {esc(rules.description)}")
    grid = RichTable(title="Stake table (chips per opponent)")
    for column in ("bid", "tricks", "made: wins", "failed: pays", "notes"):
        grid.add_column(column, justify="left" if column in ("bid", "notes") else "right")
    for bid in rules.bids:
        notes = []
        if bid.pot_bid:
            notes.append("takes the pot")
        if bid.fail_pot:
            notes.append(f"failed: +{bid.fail_pot} to the pot")
        if bid.toggle:
            notes.append(f"{bid.toggle}={'on' if rules.enabled(bid) else 'off'}")
        tricks = "none (misère)" if bid.misere else str(bid.tricks)
        grid.add_row(bid.name, tricks, str(bid.win), str(bid.lose), "; ".join(notes))
    console.print(grid)
    settings = RichTable(title="Rule settings (--rule KEY=VALUE)")
    settings.add_column("key")
    settings.add_column("value")
    from napledger.core.rules.load import rules_to_dict, setting_text

    for key, value in sorted(rules_to_dict(rules)["settings"].items()):
        why = rules.why_absent(key)
        settings.add_row(key, f"— ({esc(why)})" if why else setting_text(value))
    console.print(settings)
    if rules.buying != "anyone":
        who = "nobody" if rules.buying == "nobody" else "only the bidder"
        count = rules.most_bought
        most = "" if rules.buying == "nobody" else f", at most {count} card{'s' * (count != 1)}"
        console.print(f"Buying cards before the bid: {who}{most}.")


# --- sessions and scoreboards ---------------------------------------------------


def scoreboard(t: Scoreboard, footer: bool = True, above: Sequence[str] = ()) -> None:
    """The scoreboard, below the lines `above` (markup): all in one print, as a deal in
    `play` prints, since each print asks the terminal its size again."""
    currency = t.session.currency
    title = f"{t.session.name} · {t.rules.title} · {t.hands} deal{'' if t.hands == 1 else 's'}"
    from napledger.cli.grid import Grid

    # As wide as its title, so the title never wraps above three narrow columns.
    grid = Grid(
        esc(title),
        ["player", "chips", f"money {esc(currency)}".strip()],
        ["left", "right", "right"],
        min_width=cell_len(title) + 4,
    )
    for player in sorted(t.players, key=lambda p: (-t.chips[p], t.players.index(p))):
        chips = t.chips[player]
        away = "" if player in t.seating or t.session.closed_at else " (left)"
        grid.add_row(
            esc(player) + away,
            styled(chips),
            styled(chips, chips_money(chips, t.chip_value, currency, signed=True)),
        )
    if t.pot or t.rules.has_pot:
        grid.add_row("[italic]pot[/]", str(t.pot), chips_money(t.pot, t.chip_value, currency))
    below = []
    if t.next_dealer:
        below.append(f"Next to deal: [bold]{esc(t.next_dealer)}[/]")
    elif t.session.closed_at and footer:
        below.append(f"Closed; pot: {t.session.pot_to}.")
    # The grid is drawn as Rich would draw it, without its cost in every deal of `play`.
    console.print(*above, grid.renderable(console), *below, sep="\n")


def started(t: Scoreboard) -> None:
    from napledger.store.messages import started as said

    for line in said(t):
        console.print(esc(line))


def session_list(tables: Sequence[Scoreboard], current: int | None) -> None:
    from rich.table import Table as RichTable

    if not tables:
        console.print("No sessions yet: start one with `napledger new NAME --players A,B,C`.")
        return
    from rich import box

    grid = RichTable(title="Sessions", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for column in ("", "id", "name", "state", "variant", "deals", "started", "players"):
        # A session's name is how it is picked and its state what decides whether it can
        # take deals: never cut them short; the players wrap, and a narrow terminal gets
        # the day folded before anything else is cut.
        grid.add_column(
            column,
            no_wrap=column not in ("players", "started"),
            min_width=10 if column == "players" else None,
        )
    for t in tables:
        row = t.session
        grid.add_row(
            "*" if row.id == current else "",
            str(row.id),
            esc(row.name),
            "closed" if row.closed_at else "open",
            row.variant,
            str(t.hands),
            f"{row.created_at:%Y-%m-%d}",
            esc(", ".join(t.players)),
        )
    console.print(grid)


# --- deals ----------------------------------------------------------------------


def deal_line(rules: Rules, number: int, deal: Deal) -> str:
    return f"Deal {number} · {esc(describe(rules, deal))}"


def payment_parts(
    changes: Mapping[str, int], players: Sequence[str], involved: Iterable[str] = ()
) -> list[str]:
    """One deal's changes in seat order, the pot last; `involved` accounts show even at 0
    (a dealer who anted and won it back took part in the deal)."""
    parts = []
    for account, chips in in_seat_order(changes, players, involved):
        if account == POT:
            parts.append(f"[italic]pot[/] {signed(chips)}")
        else:
            parts.append(f"{esc(account)} {styled(chips)}")
    return parts


def payments(changes: Mapping[str, int], players: Sequence[str]) -> str:
    return "   ".join(payment_parts(changes, players)) or "no payments"


def after_deal(done: DealResult) -> None:
    t = done.scoreboard
    said = deal_line(t.rules, done.number, done.deal), "  " + payments(done.changes, t.players)
    scoreboard(t, above=said)


def amended(done: DealResult) -> None:
    """The corrected deal as `hands` lists it (N.2 is deal N's second version)."""
    t, number = done.scoreboard, done.number
    said = f"Amended: {deal_line(t.rules, number, done.deal)} (now {number}.{done.revision})"
    scoreboard(t, above=(said, "  " + payments(done.changes, t.players)))


def changed(t: Scoreboard, message: str) -> None:
    scoreboard(t, above=(message,))


def close_question(plan: ClosePlan) -> str:
    from napledger.store.messages import close_question as question

    return question(plan)


def closed(done: Closed) -> None:
    from napledger.store.messages import closed as said

    console.print(esc(said(done)))
    scoreboard(done.scoreboard, footer=False)  # the line above already says where the pot went


LONG_HISTORY = 200  # rows of `hands`


def roster_line(change: RosterChange) -> str:
    if change.kind == "leave":
        return f"[italic]{esc(change.player)} leaves the table[/]"
    return f"[italic]{esc(change.player)} sits down in seat {change.seat + 1}[/]"


def hand_list(history: History) -> None:
    """The history's timeline drawn: every deal, each join and leave, and each close (one
    taken back by `reopen` greyed), in the order the history gives them."""
    from napledger.cli.grid import Grid

    t = history.scoreboard
    grid = Grid(
        f"{esc(t.session.name)}: deals", ["#", "dealer", "bid", "outcome", "payments", "pot"]
    )

    def close_row(close: CloseRecord) -> None:
        where = {"split": "split", "carry": "carried"}.get(close.pot_to, f"to {close.pot_to}")
        text = f"closed, the pot ({close.pot}) {esc(where)}"
        paid = "   ".join(payment_parts(close.shares, t.players))
        if close.live:
            event_row(text, paid, str(close.pot + close.shares.get(POT, 0)))
        else:
            event_row(f"[dim]{text}; reopened[/]", f"[dim]{paid}[/]")

    # A join, leave or close stands between two lines of its own, so that it never reads
    # as the rest of the deal above it.
    between = False

    def event_row(text: str, paid: str = "", pot: str = "") -> None:
        nonlocal between
        if grid.rows and not between:
            grid.add_section()
        grid.add_row("", "", "", text, paid, pot, end_section=True)
        between = True

    def deal_row(*cells: Any) -> None:
        nonlocal between
        grid.add_row(*cells)
        between = False

    for d in history.timeline:
        if isinstance(d, RosterChange):
            event_row(roster_line(d))
            continue
        if not isinstance(d, ScoredDeal):  # a close
            close_row(d)
            continue
        deal = d.deal
        assert deal is not None  # a strict history has read every record
        bid = f"{esc(deal.bidder or '')} {esc(deal.bid or '')}".strip() or "-"
        if d.live:
            deal_row(
                d.label,
                esc(deal.dealer),
                bid,
                esc(
                    "; ".join(filter(None, (outcome(t.rules, deal), extras(deal))))
                    + (f" — {deal.note}" if deal.note else "")
                ),
                # Each payment wraps as a whole: a name is never parted from its amount.
                payment_parts(
                    d.entries, t.players, {a for x in d.transfers for a in (x.payer, x.payee)}
                ),
                str(d.stored_pot_after),
            )
        else:
            deal_row(
                f"[dim]{d.label}[/]",
                f"[dim]{esc(deal.dealer)}[/]",
                f"[dim]{bid}[/]",
                f"[dim]{d.status}[/]",
                "",
                "",
            )
    # Past a few screenfuls a long evening is drawn without Rich's layout even where a
    # deal's payments must fold onto more lines (README: Performance).
    grid.print(console, long=LONG_HISTORY)


# --- settling up ----------------------------------------------------------------


def settlement(done: Settlement) -> None:
    """Each party's net beside the payments that square it, so anyone can check the sums."""
    from rich.table import Table as RichTable

    rows, net, plan, currency = done.sessions, done.net, done.payments, done.currency

    def cash(amount: Decimal | int) -> str:
        return money_text(Decimal(amount), done.places)

    names = ", ".join(esc(r.name) for r in rows)
    unit = f" {esc(currency)}" if currency else ""
    grid = RichTable(title=f"Settling {names}: {len(plan)} payment{'s' if len(plan) != 1 else ''}")
    grid.add_column("party")
    grid.add_column(f"net{unit}", justify="right")
    grid.add_column("settles by")
    for party, amount in sorted(net.items(), key=lambda kv: (kv[1], kv[0])):
        if not amount:
            continue
        pays = [f"pays {esc(p.payee)} {cash(p.amount)}" for p in plan if p.payer == party]
        gets = [f"gets {cash(p.amount)} from {esc(p.payer)}" for p in plan if p.payee == party]
        shown_net = money_text(Decimal(amount), done.places, signed=True)
        grid.add_row(esc(party), styled(1 if amount > 0 else -1, shown_net), ", ".join(pays + gets))
    console.print(grid)
    if not plan:
        console.print("Everyone is square.")
    if any(r.closed_at is None for r in rows):
        console.print("[italic]Open session: shown as if it closed now with the pot split.[/]")
