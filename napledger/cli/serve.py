"""`napledger serve`: the table's screen. The web stack is imported only when it runs."""

from typing import Annotated

import typer

from napledger.cli.app import SessionOpt, app
from napledger.core.words import _


@app.command(
    help=_("Serve the scoreboard to every phone at the table, and deal entry to the scorekeeper.")
)
def serve(
    ctx: typer.Context,
    session: SessionOpt = None,
    lan: Annotated[
        bool, typer.Option("--lan", help=_("Listen on the local network, not only this machine."))
    ] = False,
    host: Annotated[
        str | None,
        typer.Option(
            "--host",
            help=_(
                "Listen on this address of this computer, and print it (when --lan finds none)."
            ),
        ),
    ] = None,
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help=_("TCP port."))] = 8421,
    key: Annotated[
        str | None,
        typer.Option(
            "--key",
            envvar="NAPLEDGER_KEY",
            help=_("The secret every link's key is made from (default: random)."),
        ),
    ] = None,
    rules: Annotated[
        list[str] | None,
        typer.Option(
            "--rules",
            metavar="FILE.toml",
            help="A house-rule file the organiser's new-session form offers (repeatable).",
        ),
    ] = None,
) -> None:
    from napledger.collector import started
    from napledger.core.words import use
    from napledger.web.serve import serve as run

    started()

    # The page speaks as each request asks (words.speaking); where none does, English, not
    # whatever language this terminal happens to speak.
    use("en")

    run(ctx.find_root().obj.db, session, lan, port, key, host, rules or [])
