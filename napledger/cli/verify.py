"""`napledger verify`: re-derive every deal and say whether the stored ledger agrees."""

from dataclasses import asdict

import typer

from napledger.cli.app import JsonOpt, app, emit_json, transaction
from napledger.core.errors import NapError
from napledger.core.words import _, ngettext


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
        render.console.print(
            ngettext(
                "All {sessions} session, {deals} check out.",
                "All {sessions} sessions, {deals} check out.",
                report.sessions,
            ).format(
                sessions=report.sessions,
                deals=ngettext("{n} deal", "{n} deals", report.deals).format(n=report.deals),
            )
        )
    for p in [] if as_json else problems:
        where = " ".join(
            part
            for part in (
                _("session {id}").format(id=p.session) if p.session is not None else _("database"),
                _("deal {n}").format(n=p.deal) if p.deal is not None else "",
            )
            if part
        )
        render.console.print(f"- [bold]{render.esc(where)}[/]: {render.esc(p.message)}")
    if problems:
        count = len(problems)
        raise NapError(
            ngettext("{n} problem in the ledger", "{n} problems in the ledger", count).format(
                n=count
            )
        )
