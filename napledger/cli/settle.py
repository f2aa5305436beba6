"""`napledger settle`: who pays whom, in the fewest payments, over one session or several."""

from typing import Annotated

import typer

from napledger.cli.app import app, emit_json, session_refs, transaction
from napledger.cli.complete import complete_session
from napledger.core.words import _, pgettext


@app.command(
    help=_("Settle up with the fewest payments (an open session: as if closed now, pot split).")
)
def settle(
    ctx: typer.Context,
    session: Annotated[
        list[str] | None,
        typer.Option(
            "--session",
            "-s",
            metavar=pgettext("placeholder", "S"),
            help=_("Session id or name; repeat for an evening."),
            autocompletion=complete_session,
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=_("Print one JSON document."))] = False,
) -> None:
    from napledger.cli import render
    from napledger.service import documents

    with transaction(ctx, write=False) as tx:
        done = tx.settlement(session_refs(session))
    if as_json:
        emit_json(documents.settlement_json(done))
    else:
        render.settlement(done)
