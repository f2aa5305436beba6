"""`stats`: lifetime figures per player over every session in the database."""

from typing import TYPE_CHECKING, Annotated

import typer

from napledger.cli.app import JsonOpt, app, emit_json, transaction
from napledger.cli.dates import day_range, parse_day
from napledger.core.words import N_, _, pgettext

if TYPE_CHECKING:
    from napledger.core.tally import Figures, PlayerFigures


@app.command(
    help=_("Lifetime figures per player: bids made and failed, chips and money, naps, treasure.")
)
def stats(
    ctx: typer.Context,
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            "-p",
            metavar=pgettext("placeholder", "PLAYER"),
            help=_("Only this player; repeat."),
        ),
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(
            metavar=pgettext("placeholder", "DATE"),
            help=_("Sessions started on or after this date (YYYY-MM-DD)."),
        ),
    ] = None,
    until: Annotated[
        str | None,
        typer.Option(
            metavar=pgettext("placeholder", "DATE"),
            help=_("Sessions started on or before this date (YYYY-MM-DD)."),
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    start, end = day_range(since, until)
    from napledger.core.names import match_player

    with transaction(ctx, write=False) as tx:
        everyone = tx.known_players()
        chosen = [
            match_player(p, everyone, N_("has played in this database")) for p in player or []
        ]
        tally = tx.stats(start, end)
    rows = tally.ranked()
    if chosen:
        rows = [tally.player(name) for name in dict.fromkeys(chosen)]
    if as_json:
        from napledger.service.documents import stats_json

        emit_json(stats_json(tally, rows, parse_day(since, "--since"), parse_day(until, "--until")))
    else:
        render_stats(tally, rows, bool(since or until))


def render_stats(tally: "Figures", rows: "list[PlayerFigures]", filtered: bool) -> None:
    from rich import box
    from rich.table import Table as RichTable

    from napledger.cli.render import console, esc, signed, styled
    from napledger.core.money import shown_amount
    from napledger.core.numbers import written
    from napledger.core.rules.texts import bid_name

    if not rows:
        console.print(
            _("No sessions started in that period.")
            if tally.currencies or filtered
            else _("No sessions yet: start one with `napledger new NAME --players A,B,C`.")
        )
        return

    def money(stats: "PlayerFigures") -> str:
        return "\n".join(
            styled(
                int(amount.compare(0)),
                shown_amount(amount, tally.places[currency], currency, signed=True, label=True),
            )
            for currency, amount in sorted(stats.money.items())
        )

    chips = tally.chips_add_up
    results = RichTable(title=_("Lifetime results"), box=box.SIMPLE_HEAD)
    results.add_column(_("player"))
    for column in (_("sessions"), _("deals"), *((_("chips"),) if chips else ()), _("money")):
        results.add_column(column, justify="right")
    for column in (_("best deal"), _("worst deal")):
        results.add_column(column + ("" if chips else " " + _("(chips)")), justify="right")
    for s in rows:
        results.add_row(
            esc(s.name),
            written(str(s.sessions)),
            written(str(s.deals)),
            *((styled(s.chips),) if chips else ()),
            money(s) or "0",
            signed(s.biggest_win),
            signed(s.biggest_loss),
        )
    console.print(results)
    if not chips:
        from napledger.core.read.messages import no_chip_total

        console.print(f"[italic]{no_chip_total(tally.chip_values)}[/]")

    bidding = RichTable(title=_("Bidding"), box=box.SIMPLE_HEAD)
    bidding.add_column(_("player"))
    for column in (
        _("bids"),
        # Counts of bids under "bids": Polish says them in the plural (ugrane, przegrane),
        # where a deal's result is one bid (ugrana); Russian «не сыграно» beside «сыграно».
        pgettext("bids counted", "made"),
        pgettext("bids counted", "failed"),
        _("made %"),
        _("naps made"),
        _("treasure taken"),
    ):
        bidding.add_column(column, justify="right")
    for s in rows:
        pct = s.bids.made_percent
        bidding.add_row(
            esc(s.name),
            str(s.bids.bids),
            str(s.bids.made),
            str(s.bids.failed),
            "-" if pct is None else written(str(pct)) + "%",
            str(s.naps_made),
            str(s.treasure),
        )
    console.print(bidding)
    kinds = list(dict.fromkeys(name for s in rows for name in s.by_bid))
    if not kinds:
        return
    bids = RichTable(title=_("Bids made / bid, by kind"), box=box.SIMPLE_HEAD)
    bids.add_column(_("player"))
    for kind in kinds:
        bids.add_column(esc(bid_name(kind)), justify="right")
    for s in rows:
        cells = [s.by_bid.get(kind) for kind in kinds]
        bids.add_row(esc(s.name), *(f"{t.made}/{t.bids}" if t else "" for t in cells))
    console.print(bids)
