"""`napledger import`: sessions from another ledger, a workbook napledger wrote, or a typed
score sheet, written into this ledger in one transaction (napledger/service/imports.py)."""

import sys
from typing import Annotated

import typer

from napledger.cli.app import JsonOpt, app, emit_json, transaction
from napledger.core.words import _, pgettext

PROGRESS_FROM = 2_000  # deal records; a smaller import is done before a bar would be drawn


def bar_wanted(records: int, as_json: bool) -> bool:
    """A progress bar on stderr for a long import, when stderr is a terminal."""
    if as_json or records < PROGRESS_FROM or sys.stderr is None:
        return False
    return sys.stderr.isatty()


@app.command(
    "import",
    help=_(
        "Bring sessions in, with their whole history: from another ledger (a SQLite file "
        "or a database URL), a workbook napledger wrote (.xlsx) or a typed score sheet "
        "(.csv). A session imported before is not imported again."
    ),
)
def import_(
    ctx: typer.Context,
    source: Annotated[
        str,
        typer.Argument(
            metavar=pgettext("placeholder", "SOURCE"),
            help=_("FILE.xlsx, FILE.csv, a ledger's file or a database URL."),
        ),
    ],
    sessions: Annotated[
        list[str] | None,
        typer.Argument(
            metavar=pgettext("placeholder", "S"),
            help=_("The sessions to import, by name or by their id there (default: all)."),
        ),
    ] = None,
    as_name: Annotated[
        str | None,
        typer.Option(
            "--as",
            metavar=pgettext("placeholder", "NAME"),
            help=_("Import the one session named as a new session called NAME."),
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help=_("Say what would be imported; write nothing."))
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    from contextlib import ExitStack

    from napledger.cli.app import Run
    from napledger.service.imports import (
        DryRun,
        Outcome,
        dry_run_into,
        import_into,
        open_source,
    )

    with ExitStack() as stack:
        found = stack.enter_context(open_source(source))
        total = sum(o.records for o in found.offered())
        step = None
        if bar_wanted(total, as_json):
            from rich.console import Console
            from rich.progress import Progress

            bar = stack.enter_context(Progress(console=Console(stderr=True), transient=True))
            from napledger.core.read.importing import importing_deals

            task = bar.add_task(importing_deals(), total=total)

            def step(n: int) -> None:
                bar.advance(task, n)

        outcome: Outcome
        try:
            run: Run = ctx.find_root().obj
            writing = dry_run_into(run.database(ctx)) if dry_run else transaction(ctx)
            with writing as tx:
                outcome = import_into(tx, found, sessions or (), as_name, dry_run, step)
        except DryRun as rolled_back:
            outcome = rolled_back.outcome
    if as_json:
        emit_json(outcome.document())
        return
    for line in outcome.lines():
        typer.echo(line)
