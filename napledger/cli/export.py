"""`napledger export`: evening histories to one Excel workbook."""

import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from napledger.cli.app import app, asked_language, lang_option, session_refs, transaction
from napledger.cli.complete import complete_session
from napledger.cli.dates import day_range
from napledger.core.errors import NapError
from napledger.core.words import _, ngettext, pgettext, speaking, workbook_language

if TYPE_CHECKING:
    from napledger.core.read.board import SessionInfo
    from napledger.core.read.report import SessionReport
    from napledger.service.api import Transaction

PROGRESS_FROM = 2_000  # deals; a smaller export is done before a bar would be drawn


def default_path(names: list[str], day: date | None = None) -> Path:
    """exports/DATE-NAME.xlsx, DATE the day the (first) session was played."""
    from napledger.export.workbook import file_name

    return Path("exports") / file_name(names, day or date.today())


def bar_wanted(deals: int) -> bool:
    """A progress bar for a long export to a terminal. The terminal is asked before
    Rich is loaded: an export into a pipe or a file (a script's) never loads Rich's
    console (a few MiB of the export's peak memory, issue #22)."""
    if deals < PROGRESS_FROM or sys.stdout is None or not sys.stdout.isatty():
        return False
    from napledger.cli.render import console

    return console.is_terminal


@app.command(
    help=_(
        "Write sessions to an .xlsx workbook: the evening's report, charts, deals and rules.\n\n"
        "An existing file is never replaced silently: without -o the new workbook gets the next free name (NAME-2.xlsx, ...); with -o it is refused unless --force is given."
    )
)
def export(
    ctx: typer.Context,
    sessions: Annotated[
        list[str] | None,
        typer.Argument(
            metavar=pgettext("placeholder", "S"),
            help=_("Session ids or names (default: the current one)."),
            autocompletion=complete_session,
        ),
    ] = None,
    all_: Annotated[bool, typer.Option("--all", help=_("Every session."))] = False,
    since: Annotated[
        str | None,
        typer.Option(
            metavar=pgettext("placeholder", "DATE"),
            help=_("Sessions started on or after DATE (YYYY-MM-DD)."),
        ),
    ] = None,
    until: Annotated[
        str | None,
        typer.Option(
            metavar=pgettext("placeholder", "DATE"), help=_("Sessions started on or before DATE.")
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            metavar=pgettext("placeholder", "FILE"),
            help=_("The .xlsx file to write."),
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help=_("Replace the file if it already exists."))
    ] = False,
    lang: Annotated[
        str | None,
        lang_option(
            _("The workbook's language (default: the sessions' own, else the terminal's).")
        ),
    ] = None,
) -> None:
    start, end = day_range(since, until)
    if sessions and all_:
        raise NapError(_("name sessions or give --all, not both"))
    if output is not None and output.suffix.lower() != ".xlsx":
        raise NapError(_("the workbook must be an .xlsx file, not {path}").format(path=output))
    # The deals stream from the service into the workbook: it is written inside the
    # reading transaction, so no history is ever held in memory whole.
    with transaction(ctx, write=False) as tx:
        every = all_ or (not sessions and (start or end))
        rows = tx.sessions_between(start, end, None if every else session_refs(sessions))
        if not rows:
            raise NapError(_("no sessions to export in that range"))
        # Written in the language asked for, else the one the sessions keep, else ours.
        speaks = workbook_language(asked_language(ctx, lang), [r.language for r in rows])
        with speaking(speaks):
            path, data, total = write(ctx, rows, tx, output, force)
    typer.echo(
        ngettext(
            "Wrote {path}: {sessions} session, {deals} deal records.",
            "Wrote {path}: {sessions} sessions, {deals} deal records.",
            len(data),
        ).format(path=path, sessions=len(data), deals=total)
    )


def write(
    ctx: typer.Context,
    rows: "list[SessionInfo]",
    tx: "Transaction",
    output: Path | None,
    force: bool,
) -> "tuple[Path, list[SessionReport], int]":
    """The workbook of `rows`, written inside the reading transaction `tx`."""
    from napledger.export.workbook import Exists, played_on, write_workbook
    from napledger.service.imports import kept_records

    data = [tx.report(r) for r in rows]
    kept = kept_records(tx, rows)  # what `import` makes the sessions again from
    path = output or default_path([r.name for r in rows], played_on(data))
    if output is None:
        path.parent.mkdir(exist_ok=True)
    total = sum(r.records for r in data)
    exists: Exists = "replace" if force else "refuse" if output else "rename"
    if not bar_wanted(total):
        return write_workbook(data, path, exists=exists, kept=kept), data, total
    from rich.progress import Progress

    from napledger.cli.render import console

    with Progress(console=console, transient=True) as bar:
        task = bar.add_task(_("Writing deals"), total=total)
        path = write_workbook(
            data, path, progress=lambda n: bar.advance(task, n), exists=exists, kept=kept
        )
    return path, data, total
