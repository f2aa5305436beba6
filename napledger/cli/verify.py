"""`napledger verify`: re-derive every deal and say whether the stored ledger agrees."""

from dataclasses import asdict

import typer

from napledger.cli.app import JsonOpt, app, emit_json, transaction
from napledger.core.errors import NapError
from napledger.core.words import _


@app.command(
    help=_("Re-derive every deal from its record and rules; exit 1 if anything stored disagrees.")
)
def verify(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    from napledger.cli import render

    with transaction(ctx, write=False) as tx:
        report = tx.verify()
    problems = report.problems
    if as_json:
        emit_json(
            {
                "ok": not problems,
                "sessions": report.sessions,
                "deals": report.deals,
                "problems": [asdict(p) for p in problems],
            }
        )
    elif not problems:
        render.console.print(report.said())
    for p in [] if as_json else problems:
        render.console.print(f"- [bold]{render.esc(p.where)}[/]: {render.esc(p.message)}")
    if problems:
        raise NapError(report.said())
