"""What the table sees: Rich output, and the JSON documents of the CLI contract.

Gains and losses carry a sign as well as a colour, so they read the same with NO_COLOR.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console

from napledger.cli.grid import CACHED
from napledger.core.ledger import POT, account_name, in_seat_order
from napledger.core.numbers import currency_sign, held, signed
from napledger.core.read.notes import buying_note, stake_note, stakes
from napledger.core.read.said import closed_pot, deals_counted, deals_of, next_to_deal
from napledger.core.read.settlement import parties, settling_said
from napledger.core.read.timeline import CLOSING, DEAL, SEATING
from napledger.core.rules import Rules
from napledger.core.rules.texts import bid_name, rule_text
from napledger.core.words import _, pgettext

# The `--json` documents are the store's, so the page serves the very same ones.

if TYPE_CHECKING:
    from napledger.core.read.board import Scoreboard
    from napledger.core.read.settlement import Settlement
    from napledger.core.read.timeline import History
    from napledger.core.session import ClosePlan
    from napledger.store.views import CloseResult, DealResult

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

    from napledger.core.rules.load import rules_to_dict, setting_said

    console.print(
        f"[bold]{esc(rule_text(rules.title))}[/] ({esc(rules.name)}): "
        f"{esc(rule_text(rules.description))}"
    )
    grid = RichTable(title=_("Stake table (chips per opponent)"))
    for column, left in (
        (_("bid"), True),
        (_("tricks"), False),
        (_("made: wins"), False),
        (_("failed: pays"), False),
        (_("notes"), True),
    ):
        grid.add_column(column, justify="left" if left else "right")
    pot_fail_doubles = rules.settings.pool_fail_doubles
    for bid, stake in zip(rules.bids, stakes(rules), strict=True):
        # What it does to the pot, as the workbook's Rules sheet says it; and its switch.
        notes = [stake_note(stake, pot_fail_doubles)]
        if bid.toggle:
            notes.append(f"{bid.toggle}={setting_said(rules.enabled(bid))}")
        tricks = _("none (misère)") if bid.misere else str(bid.tricks)
        grid.add_row(bid_name(bid.name), tricks, str(bid.win), str(bid.lose), "; ".join(notes))
    console.print(grid)
    settings = RichTable(title=_("Rule settings (--rule KEY=VALUE)"))
    settings.add_column(_("key"))
    settings.add_column(_("value"))
    for key, value in sorted(rules_to_dict(rules)["settings"].items()):
        why = rules.why_absent(key)
        settings.add_row(key, f"— ({esc(rule_text(why))})" if why else setting_said(value))
    console.print(settings)
    buying = buying_note(rules)
    if buying:
        console.print(buying)


# --- sessions and scoreboards ---------------------------------------------------


def scoreboard(t: Scoreboard, footer: bool = True, above: Sequence[str] = ()) -> None:
    """The scoreboard, below the lines `above` (markup): all in one print, as a deal in
    `play` prints, since each print asks the terminal its size again."""
    currency = t.session.currency
    title = f"{t.session.name} · {rule_text(t.rules.title)} · {deals_counted(t.hands, t.voided)}"
    from napledger.cli.grid import Grid

    # As wide as its title, so the title never wraps above three narrow columns.
    grid = Grid(
        esc(title),
        [_("player"), _("chips"), (_("money") + " " + esc(currency_sign(currency))).strip()],
        ["left", "right", "right"],
        min_width=cell_len(title) + 4,
    )
    for line in t.standings:
        chips = line.chips
        away = " " + _("(left)") if line.away else ""
        grid.add_row(
            esc(line.player) + away,
            styled(chips),
            styled(chips, t.shown_money(chips, signed=True)),
        )
    if t.pot or t.rules.has_pot:
        grid.add_row(f"[italic]{account_name(POT)}[/]", held(t.pot), t.shown_money(t.pot))
    below = []
    if t.next_dealer:
        shown = f"[bold]{esc(t.next_dealer)}[/]"
        below.append(next_to_deal(shown, t.next_dealer in t.sits_out))
    elif t.session.closed_at and footer:
        below.append(esc(closed_pot(t.session.pot_to)))
    # The grid is drawn as Rich would draw it, without its cost in every deal of `play`.
    console.print(*above, grid.renderable(console), *below, sep="\n")


def started(t: Scoreboard) -> None:
    from napledger.core.read.messages import started as said

    for line in said(t):
        console.print(esc(line))


def session_list(tables: Sequence[Scoreboard], current: int | None) -> None:
    from rich.table import Table as RichTable

    if not tables:
        console.print(_("No sessions yet: start one with `napledger new NAME --players A,B,C`."))
        return
    from rich import box

    from napledger.core.dates import written_day

    grid = RichTable(
        title=_("Sessions"), box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True
    )
    for column in ("", "id", "name", "state", "variant", "deals", "started", "players"):
        heading = {
            "id": pgettext("session number", "id"),
            "name": _("name"),
            "state": _("state"),
            "variant": _("variant"),
            "deals": _("deals"),
            "started": _("started"),
            "players": _("players"),
        }.get(column, column)
        # A session's name is how it is picked and its state what decides whether it can
        # take deals: never cut them short; the players wrap, and a narrow terminal gets
        # the day folded before anything else is cut.
        grid.add_column(
            heading,
            no_wrap=column not in ("players", "started"),
            min_width=10 if column == "players" else None,
        )
    for t in tables:
        row = t.session
        grid.add_row(
            "*" if row.id == current else "",
            str(row.id),
            esc(row.name),
            _("closed") if row.closed_at else _("open"),
            pgettext("game", row.variant),
            str(t.hands),
            written_day(row.created_at),
            esc(", ".join(t.players)),
        )
    console.print(grid)


# --- deals ----------------------------------------------------------------------


def payment_parts(paid: Iterable[tuple[str, int]]) -> list[str]:
    """One deal's changes in the order the read model gives them (the pot last)."""
    parts = []
    for account, chips in paid:
        if account == POT:
            parts.append(f"[italic]{account_name(POT)}[/] {signed(chips)}")
        else:
            parts.append(f"{esc(account)} {styled(chips)}")
    return parts


def payments(changes: Mapping[str, int], players: Sequence[str]) -> str:
    return "   ".join(payment_parts(in_seat_order(changes, players))) or _("no payments")


def after_deal(done: DealResult) -> None:
    from napledger.core.read.messages import deal_said

    t = done.scoreboard
    said = esc(deal_said(done)), "  " + payments(done.changes, t.players)
    scoreboard(t, above=said)


def amended(done: DealResult) -> None:
    """The corrected deal as `hands` lists it (N.2 is deal N's second version)."""
    from napledger.core.read.messages import amended_said

    t = done.scoreboard
    scoreboard(t, above=(esc(amended_said(done)), "  " + payments(done.changes, t.players)))


def changed(t: Scoreboard, message: str) -> None:
    scoreboard(t, above=(message,))


def close_question(plan: ClosePlan) -> str:
    from napledger.core.read.messages import close_question as question

    return question(plan)


def closed(done: CloseResult) -> None:
    from napledger.core.read.messages import closed as said

    console.print(esc(said(done)))
    scoreboard(done.scoreboard, footer=False)  # the line above already says where the pot went


LONG_HISTORY = 200  # rows of `hands`


def hand_list(history: History) -> None:
    """The history's timeline drawn as the read model gives it (napledger.core.read):
    a pot carried in, every deal, each join and leave, and each close; a row that does
    not count (a voided or replaced deal, a close taken back by `reopen`) greyed."""
    from napledger.cli.grid import Grid

    t = history.scoreboard
    grid = Grid(
        esc(deals_of(t.session.name)),
        ["#", _("dealer"), _("bid"), _("outcome"), _("payments"), _("pot")],
    )
    # A join, leave or close stands between two lines of its own, so that it never reads
    # as the rest of the deal above it.
    between = False
    for row in history.rows():
        dim = (lambda text: f"[dim]{text}[/]") if not row.live else (lambda text: text)
        # A reopened close keeps, greyed, the shares it had paid.
        paid = payment_parts(row.changes) if row.counts or row.kind == CLOSING else []
        pot = "" if row.pot is None else held(row.pot)
        text = esc(row.text)
        if row.kind == SEATING:
            text = f"[italic]{text}[/]"
        if row.kind != DEAL:
            if grid.rows and not between:
                grid.add_section()
            cells = [dim(row.label), "", "", dim(text), dim("   ".join(paid)), pot]
            grid.add_row(*cells, end_section=True)
            between = True
            continue
        bid = f"{esc(row.bidder or '')} {esc(row.bid or '')}".strip() or "-"
        # Each payment wraps as a whole: a name is never parted from its amount.
        grid.add_row(dim(row.label), dim(esc(row.dealer or "")), dim(bid), dim(text), paid, pot)
        between = False
    # Past a few screenfuls a long evening is drawn without Rich's layout even where a
    # deal's payments must fold onto more lines (README: Performance).
    grid.print(console, long=LONG_HISTORY)


# --- settling up ----------------------------------------------------------------


def settlement(done: Settlement) -> None:
    """Each party's net beside the payments that square it, so anyone can check the sums."""
    from rich.table import Table as RichTable

    rows, net, plan, currency = done.sessions, done.net, done.transfers, done.currency
    unit = f" {esc(currency_sign(currency))}" if currency else ""
    grid = RichTable(title=esc(settling_said([r.name for r in rows], len(plan))))
    grid.add_column(_("party"))
    grid.add_column(_("net") + unit, justify="right")
    grid.add_column(_("settles by"))
    for party in parties(net):  # as every front end lists them: most money first
        amount = net[party]
        if not amount:
            continue
        said = [done.transfer_said(p) for p in plan if party in (p.payer, p.payee)]
        grid.add_row(
            esc(account_name(party)),
            styled(1 if amount > 0 else -1, done.shown_money(amount, signed=True)),
            esc(", ".join(said)),
        )
    console.print(grid)
    for note in done.notes:
        console.print(f"[italic]{esc(note)}[/]")
