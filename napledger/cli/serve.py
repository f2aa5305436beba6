"""`napledger serve`: the table's screen. The web stack is imported only when it runs."""

from collections.abc import Callable
from typing import Annotated

import typer

from napledger.cli.app import SessionOpt, app
from napledger.core.words import _, pgettext

# The web server `serve` runs, handed in by the program's start (napledger/start.py), which
# stands above both front ends: the command line and the web stay apart (the layers).
server: Callable[..., None] | None = None


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
    port: Annotated[
        int,
        typer.Option(
            "--port", min=0, max=65535, metavar=pgettext("placeholder", "PORT"), help=_("TCP port.")
        ),
    ] = 8421,
    key: Annotated[
        str | None,
        typer.Option(
            "--key",
            envvar="NAPLEDGER_KEY",
            help=_(
                "The secret every link's key is made from (default: the one kept with the "
                "ledger, made the first time)."
            ),
        ),
    ] = None,
    new_secret: Annotated[
        bool,
        typer.Option(
            "--new-secret",
            help=_("Make a new secret: every link given out before stops working."),
        ),
    ] = False,
    rules: Annotated[
        list[str] | None,
        typer.Option(
            "--rules",
            metavar=pgettext("placeholder", "FILE.toml"),
            help=_("A house-rule file the organiser's new-session form offers (repeatable)."),
        ),
    ] = None,
) -> None:
    from napledger.collector import started

    if server is None:
        raise RuntimeError("the web server is handed in by napledger.start")
    started()
    # The links and their labels in the terminal's language; the page as each request asks.
    server(ctx.find_root().obj.db, session, lan, port, key, host, rules or [], new_secret)
