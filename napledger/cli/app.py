"""The Typer app. Each command parses, makes one call of the session API, and renders.

No `from __future__ import annotations` here: Typer would have to eval every string
annotation of every command at each start, which costs a one-shot command ~10 ms.
"""

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from napledger.cli.complete import complete_bid, complete_player, complete_pot, complete_session
from napledger.cli.errors import NapCommand, NapGroup
from napledger.core.errors import NapError
from napledger.core.words import _, checked, chosen, pgettext
from napledger.core.words import use as speak

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from napledger.core.options import DealOptions
    from napledger.service.api import Database, SessionAPI, Transaction
    from napledger.store.views import SeatResult, VoidResult

T = TypeVar("T")


class Commands(typer.Typer):
    """The app, which keeps each command as declared so that a run can build only its own.

    Typer builds the Click command of every command before it runs one (about 8 ms of a
    one-shot `hand`, issue #23). `only(name)` is an app of the same settings, the same
    root options and just that command, declared through Typer's public decorators: what
    the command parses, says and refuses is the same, since it is the same declaration.
    """

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self.settings = settings
        self.root: Callable[..., Any] | None = None
        self.declared: dict[str, tuple[tuple[Any, ...], dict[str, Any], Callable[..., Any]]] = {}

    def callback(self, *given: Any, **settings: Any) -> Callable[[Callable[..., Any]], Any]:
        assert not given and not settings, "only(name) declares the root callback bare"
        declare = super().callback()

        def keep(f: Callable[..., Any]) -> Any:
            self.root = f
            return declare(f)

        return keep

    def command(self, *given: Any, **settings: Any) -> Callable[[Callable[..., Any]], Any]:
        settings.setdefault("cls", NapCommand)  # its --help frame in the table's language
        declare = super().command(*given, **settings)
        name = given[0] if given else settings.get("name")

        def keep(f: Callable[..., Any]) -> Any:
            # The name Typer gives a function declared without one (a test compares them).
            self.declared[name or f.__name__.lower().replace("_", "-")] = (given, settings, f)
            return declare(f)

        return keep

    def only(self, name: str) -> typer.Typer:
        """An app of the same settings and root callback, with command `name` alone."""
        tree = typer.Typer(**self.settings)
        if self.root is not None:
            tree.callback()(self.root)
        given, settings, f = self.declared[name]
        tree.command(*given, **settings)(f)
        return tree

    def typed(self, argv: list[str]) -> str | None:
        """The command `argv` names after the root's options (`--db PATH`, `--lang ru`), if
        it names one exactly; None for anything else (help, a bare `napledger`, a word that
        only the whole app can refuse or read as `pass`): those get the whole app."""
        at = 0
        while at < len(argv):
            if argv[at] in ROOT_VALUED:
                at += 2
            elif argv[at].partition("=")[0] in ROOT_VALUED:
                at += 1
            else:
                return argv[at] if argv[at] in self.declared else None
        return None


# The root options that take a value: what `typed` steps over to find the command.
ROOT_VALUED = ("--db", "--lang")

app = Commands(
    cls=NapGroup,
    help=_("Score and money ledger for Napoleon (Nap) at a real table."),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Typer's own --install-completion; the completions come from cli/complete.py.
    add_completion=True,
    # Typer loads its Rich help only to print help: the commands between deals never pay.
    rich_markup_mode="rich",
)

DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="NAPLEDGER_DB",
        metavar=pgettext("placeholder", "PATH|URL"),
        help=_("SQLite file or database URL."),
    ),
]
# A club's tables share one database, and so its "current session": each table names its own.
SessionOpt = Annotated[
    str | None,
    typer.Option(
        "--session",
        "-s",
        envvar="NAPLEDGER_SESSION",
        metavar=pgettext("placeholder", "S"),
        help=_("Session id or name (default: current)."),
        autocompletion=complete_session,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help=_("Print one JSON document."))]


def language_given(text: str) -> str:
    """A language named on the command line (or in NAPLEDGER_LANG): en, ru or pl."""
    try:
        return checked(text)
    except NapError as error:  # a mistyped command line: a usage error, as Typer's own are
        raise typer.BadParameter(str(error)) from None


def lang_option(help: str, envvar: str | None = None) -> Any:
    """A `--lang en|ru|pl` option: the root's, `new`'s (the session keeps it), `export`'s."""
    return typer.Option(
        "--lang", envvar=envvar, metavar="en|ru|pl", parser=language_given, help=help
    )


LangOpt = Annotated[
    str | None,
    lang_option(
        _("The language napledger speaks (default: the locale's, else English)."), "NAPLEDGER_LANG"
    ),
]


class Run:
    """What the commands of one run share: the `--db` given, and its database once opened.

    A one-shot command opens the database and closes it as it ends; `play` hands its own
    `Run` to every line, so an evening keeps one database (and its engine) open.
    """

    def __init__(self, db: str | None, lang: str | None = None) -> None:
        self.db = db
        self.lang = lang  # the language asked for (--lang, NAPLEDGER_LANG), else None
        self._database: Database | None = None

    def database(self, ctx: typer.Context) -> "Database":
        if self._database is None:
            from napledger.collector import started
            from napledger.service.api import Database

            started()
            self._database = Database(self.db)
            ctx.find_root().call_on_close(self.close)
        return self._database

    def close(self) -> None:
        if self._database is not None:
            self._database.close()
            self._database = None


@app.callback()
def root(ctx: typer.Context, db: DbOpt = None, lang: LangOpt = None) -> None:
    # `play` passes each line the run of its evening, unless the line names another database.
    if not isinstance(ctx.obj, Run) or (db is not None and db != ctx.obj.db):
        ctx.obj = Run(db, lang)
    elif lang is not None:
        ctx.obj.lang = lang
    speak(chosen(ctx.obj.lang))


def asked_language(ctx: typer.Context, own: str | None = None) -> str | None:
    """The language this command was asked to speak: its own `--lang`, else the root's
    (or NAPLEDGER_LANG); None where only the locale speaks."""
    if own is not None:
        speak(own)
        return own
    run = ctx.find_root().obj
    return run.lang if isinstance(run, Run) else None


def transaction(ctx: typer.Context, write: bool = True) -> "AbstractContextManager[Transaction]":
    """This command's one transaction: a writing one unless `write` is False."""
    run: Run = ctx.find_root().obj
    database = run.database(ctx)
    return database.write() if write else database.read()


def change(ctx: typer.Context, session: str | None, act: "Callable[[SessionAPI], T]") -> T:
    """One change to a session (the current one unless named), in its own transaction."""
    with transaction(ctx) as tx:
        return act(tx.session(session))


def change_and_show(
    ctx: typer.Context,
    session: str | None,
    act: "Callable[[SessionAPI], VoidResult | SeatResult]",
    say: "Callable[[Any], str]",
) -> None:
    """A change that is told in one line (`say` of what it returned) above the scoreboard."""
    from napledger.cli import render

    done = change(ctx, session, act)
    render.changed(done.scoreboard, say(done))


def session_refs(named: list[str] | None) -> list[str | None]:
    """The sessions a many-session command acts on: those named, else this table's own."""
    import os

    if named:
        return list(named)
    return [os.environ.get("NAPLEDGER_SESSION") or None]


def emit_json(data: Any) -> None:
    import json

    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


# --- rules ----------------------------------------------------------------------


@app.command(help=_("List the presets, or show one variant's stake table and settings."))
def variants(
    name: Annotated[
        str | None,
        typer.Argument(
            metavar=pgettext("placeholder", "[NAME]"), help=_("A preset or a .toml file.")
        ),
    ] = None,
) -> None:
    from napledger.core.rules import list_presets, load_preset, load_rules

    if name is None:
        from napledger.cli import plain

        plain.variant_list([load_preset(n) for n in list_presets()])
    else:
        from napledger.cli import render

        render.variant(load_rules(name))


# --- sessions -------------------------------------------------------------------


@app.command(help=_("Start a session and make it the current one."))
def new(
    ctx: typer.Context,
    name: Annotated[
        str,
        typer.Argument(
            metavar=pgettext("placeholder", "NAME"),
            help=_("A name for the session, e.g. friday-12-dec."),
        ),
    ],
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            metavar=pgettext("placeholder", "A,B,C"),
            help=_("Seated players in clockwise order."),
        ),
    ],
    variant: Annotated[
        str,
        typer.Option(
            metavar=pgettext("placeholder", "NAME|FILE"),
            help=_("classic, seven-card, russian, or FILE.toml"),
        ),
    ] = "classic",
    rule: Annotated[
        list[str] | None,
        typer.Option(
            "--rule",
            "-r",
            metavar=pgettext("placeholder", "KEY=VALUE"),
            help=_("A rule setting; repeat."),
        ),
    ] = None,
    chip: Annotated[
        str | None,
        typer.Option(
            metavar=pgettext("placeholder", "AMOUNT"),
            help=_("Money one chip is worth (default 1, or the carried pot's)."),
        ),
    ] = None,
    currency: Annotated[
        str | None,
        typer.Option(
            metavar=pgettext("placeholder", "CODE"),
            help=_("Currency code shown with money, e.g. GBP."),
        ),
    ] = None,
    dealer: Annotated[
        str | None,
        typer.Option(
            metavar=pgettext("placeholder", "PLAYER"),
            help=_("Who deals first (default: the first player)."),
        ),
    ] = None,
    carry_from: Annotated[
        str | None,
        typer.Option(
            "--carry-from",
            metavar=pgettext("placeholder", "S"),
            help=_("Open with the pot a closed session carried."),
            autocompletion=complete_session,
        ),
    ] = None,
    lang: Annotated[
        str | None, lang_option(_("The table's language, kept for its page and workbook."))
    ] = None,
    expect: Annotated[
        bool,
        typer.Option(
            "--expect-new",
            help=_(
                "Sent again: the same session made already (nothing played in it yet) is "
                "told again, not refused."
            ),
        ),
    ] = False,
) -> None:
    from napledger.cli import render
    from napledger.core.money import chip_value as parse_chip
    from napledger.core.rules import load_rules
    from napledger.core.rules.load import with_overrides

    rules = with_overrides(load_rules(variant), rule or [])
    chip_value = parse_chip(chip, "--chip") if chip is not None else None
    names = [p for p in players.split(",") if p.strip()]
    with transaction(ctx) as tx:
        again = tx.started_already(name, rules, names) if expect else None
        board = again or tx.new_session(
            name, rules, names, chip_value, currency, dealer, carry_from, asked_language(ctx, lang)
        )
    render.started(board)


@app.command(help=_("List the sessions in the database."))
def sessions(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    from napledger.cli import render
    from napledger.service import documents

    with transaction(ctx, write=False) as tx:
        boards = tx.sessions()
        current = tx.current_id()
    if as_json:
        emit_json(documents.sessions_json(boards, current))
    else:
        render.session_list(boards, current)


@app.command(help=_("Make a session the current one."))
def use(
    ctx: typer.Context,
    session: Annotated[
        str,
        typer.Argument(
            metavar=pgettext("placeholder", "S"),
            help=_("Session id or name."),
            autocompletion=complete_session,
        ),
    ],
) -> None:
    with transaction(ctx) as tx:
        info = tx.use(session)
    from napledger.core.read.messages import current

    typer.echo(current(info.name, info.id))


@app.command(help=_("The scoreboard: every player's chips and money, and the pot."))
def table(ctx: typer.Context, session: SessionOpt = None, as_json: JsonOpt = False) -> None:
    from napledger.cli import render
    from napledger.service import documents

    with transaction(ctx, write=False) as tx:
        s = tx.session(session)
        t = s.scoreboard()
        document = documents.table_document(s) if as_json else None
    if document is not None:
        emit_json(document)
    else:
        render.scoreboard(t)


@app.command(help=_("Every deal of a session and what it paid."))
def hands(ctx: typer.Context, session: SessionOpt = None, as_json: JsonOpt = False) -> None:
    from napledger.cli import render
    from napledger.service import documents

    with transaction(ctx, write=False) as tx:
        history = tx.session(session).history(with_roster=not as_json)
    if as_json:
        emit_json(documents.hands_json(history))
    else:
        render.hand_list(history)


# --- deals ----------------------------------------------------------------------

ByOpt = Annotated[
    str | None,
    typer.Option(
        "--by",
        "-b",
        metavar=pgettext("placeholder", "PLAYER"),
        help=_("The bidder."),
        autocompletion=complete_player,
    ),
]


def counted(text: str) -> int:
    """A number typed on the command line, by the one rule for numbers (napledger/core/numbers.py)."""
    from napledger.core.numbers import whole

    try:
        return whole(text, "")  # Typer names the option: the message starts at "wants"
    except NapError as error:  # a mistyped command line: a usage error, as Typer's own are
        raise typer.BadParameter(str(error).lstrip(" :")) from None


TricksOpt = Annotated[
    int | None,
    typer.Option("--tricks", "-t", metavar="N", help=_("Tricks the bidder took."), parser=counted),
]


def deal_number(text: str) -> int:
    """A deal's number; `2.2` (how `hands` lists deal 2 once corrected) means deal 2."""
    number, dot, revision = text.strip().partition(".")
    if dot and number and revision.isascii() and revision.isdigit():
        from napledger.core.read.messages import corrected_label

        raise typer.BadParameter(corrected_label(text.strip(), number))
    return counted(text)


DealNumberArg = Annotated[
    int, typer.Argument(metavar="N", help=_("Deal number."), parser=deal_number)
]


@dataclass(frozen=True)
class Seen:
    """A deal's version as `hands` labels it, `27` or `27.2`: what a change expects."""

    number: int
    revision: int

    def of(self, number: int) -> int:
        """The version seen of deal `number`; naming another deal is a usage error."""
        if self.number != number:
            from napledger.core.read.messages import another_deal

            raise typer.BadParameter(another_deal(self.number, number), param_hint="--expect")
        return self.revision


def seen(text: str) -> Seen:
    number, dot, revision = text.strip().partition(".")
    return Seen(counted(number), counted(revision) if dot else 1)


def expect_option(help: str, parser: Callable[[str], Any] = counted, metavar: str = "N") -> Any:
    """`--expect`: a change made only if the ledger is still as the one who typed it saw it;
    done already is told again, changed since is refused (`help` says what is compared)."""
    return typer.Option("--expect", metavar=metavar, parser=parser, help=help)


ExpectNumberOpt = Annotated[
    int | None,
    expect_option(
        _(
            "Only as deal N, the number shown: deal N already this deal is told again, not "
            "added; another deal N is refused."
        )
    ),
]
ExpectSeenOpt = Annotated[
    Seen | None,
    expect_option(
        _(
            "Only if the deal is still the version shown (27, 27.2): done already is told "
            "again; changed since is refused."
        ),
        seen,
        "N[.R]",
    ),
]
ExpectSeatingOpt = Annotated[
    int | None,
    expect_option(
        _(
            "Only if the seating has changed N times so far (table --json: seating_version): "
            "done already is told again; changed since is refused."
        )
    ),
]
MadeOpt = Annotated[bool, typer.Option("--made", help=_("The bid was made."))]
FailedOpt = Annotated[bool, typer.Option("--failed", help=_("The bid failed."))]
ShortOpt = Annotated[
    int | None,
    typer.Option(
        "--short",
        metavar="N",
        help=_("The bid failed by N tricks, as a table says it (`без двух` is --short 2)."),
        parser=counted,
    ),
]
RevokeOpt = Annotated[
    str | None,
    typer.Option(
        "--revoke",
        metavar=pgettext("placeholder", "PLAYER"),
        help=_("Who revoked (renonce)."),
        autocompletion=complete_player,
    ),
]
DealerOpt = Annotated[
    str | None,
    typer.Option(
        "--dealer",
        metavar=pgettext("placeholder", "PLAYER"),
        help=_("Who dealt (default: by rotation)."),
        autocompletion=complete_player,
    ),
]
PeepOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--peep",
        metavar=pgettext("placeholder", "PLAYER"),
        help=_("A player who peeped; repeat."),
        autocompletion=complete_player,
    ),
]
BuyOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--buy",
        metavar=pgettext("placeholder", "PLAYER=N"),
        help=_("Cards a player bought; repeat."),
        autocompletion=complete_player,
    ),
]
NoteOpt = Annotated[
    str | None,
    typer.Option(
        "--note",
        metavar=pgettext("placeholder", "TEXT"),
        help=_('A few words to remember (amend: "" clears).'),
    ),
]
NoPeepsOpt = Annotated[bool, typer.Option("--no-peeps", help=_("Nobody peeped after all."))]
NoBuysOpt = Annotated[bool, typer.Option("--no-buys", help=_("Nobody bought cards after all."))]

# The one definition of what `hand`, `pass` and `amend` take about a deal: each command
# names the options it offers, and receives them as one `DealOptions`.
DEAL_OPTIONS: dict[str, tuple[Any, Any]] = {
    "by": (ByOpt, None),
    "tricks": (TricksOpt, None),
    "made": (MadeOpt, False),
    "failed": (FailedOpt, False),
    "short": (ShortOpt, None),
    "revoke": (RevokeOpt, None),
    "dealer": (DealerOpt, None),
    "peep": (PeepOpt, None),
    "buy": (BuyOpt, None),
    "no_peeps": (NoPeepsOpt, False),
    "no_buys": (NoBuysOpt, False),
    "note": (NoteOpt, None),
}
FIELDS = {"peep": "peeps", "buy": "buys"}  # option name -> DealOptions field


def purchase(item: str) -> tuple[str, int]:
    """`--buy PLAYER=N` as the core takes it: (player as typed, cards bought)."""
    from napledger.core.numbers import whole

    player, sep, count = item.rpartition("=")
    if not sep:
        raise NapError(_("--buy wants PLAYER=N (cards bought), not '{item}'").format(item=item))
    return player, whole(count, "--buy " + pgettext("placeholder", "PLAYER=N"))


def deal_options(*names: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Give a command the deal options `names` (before its `--session`), as `options`.

    Typer reads a command's parameters from its signature; `__signature__` is how Python
    lets a wrapper declare the signature it accepts (PEP 362).
    """

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        own = [p for p in inspect.signature(command).parameters.values() if p.name != "options"]
        at = next((i for i, p in enumerate(own) if p.name == "session"), len(own))
        shared = [
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=DEAL_OPTIONS[name][0],
                default=DEAL_OPTIONS[name][1],
            )
            for name in names
        ]
        own = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own]

        def run(**given: Any) -> None:
            from napledger.core.options import DealOptions

            typed = {name: given.pop(name) for name in names}
            if typed.get("peep") is not None:
                typed["peep"] = tuple(typed["peep"])
            if typed.get("buy") is not None:
                typed["buy"] = tuple(purchase(item) for item in typed["buy"])
            command(**given, options=DealOptions(**{FIELDS.get(k, k): v for k, v in typed.items()}))

        params = own[:at] + shared + own[at:]
        run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in params}
        run.__name__, run.__doc__ = command.__name__, command.__doc__
        return run

    return decorate


@app.command(help=_("Record a played deal: the bid, the bidder and the outcome (or a revoke)."))
@deal_options("by", "tricks", "made", "failed", "short", "revoke", "dealer", "peep", "buy", "note")
def hand(
    ctx: typer.Context,
    bid: Annotated[
        str,
        typer.Argument(
            metavar=pgettext("placeholder", "BID"),
            help=_("The bid: nap, misere, 3, ..."),
            autocompletion=complete_bid,
        ),
    ],
    options: "DealOptions",
    expect: ExpectNumberOpt = None,
    session: SessionOpt = None,
) -> None:
    from dataclasses import replace

    from napledger.cli import render

    done = change(ctx, session, lambda s: s.record(replace(options, bid=bid), expect))
    render.after_deal(done)


@app.command(
    "pass", help=_("Record a passed-out deal: only antes and fees are paid, the deal moves on.")
)
@deal_options("dealer", "peep", "buy", "note")
def pass_(
    ctx: typer.Context,
    options: "DealOptions",
    expect: ExpectNumberOpt = None,
    session: SessionOpt = None,
) -> None:
    from napledger.cli import render

    render.after_deal(change(ctx, session, lambda s: s.pass_(options, expect)))


@app.command(help=_("Void the last deal (it stays in the record, marked voided)."))
def undo(
    ctx: typer.Context,
    expect: Annotated[
        Seen | None,
        expect_option(
            _(
                "Only if the last deal is still deal N (version R) as shown: voided already "
                "is told again; another last deal is refused."
            ),
            seen,
            "N[.R]",
        ),
    ] = None,
    session: SessionOpt = None,
) -> None:
    from napledger.core.read.messages import voided

    change_and_show(
        ctx,
        session,
        lambda s: s.undo(expect.number, expect.revision) if expect else s.undo(),
        lambda gone: voided(gone.number),
    )


@app.command(help=_("Void deal N; later deals are scored again (the pot may differ)."))
def void(
    ctx: typer.Context,
    number: DealNumberArg,
    expect: ExpectSeenOpt = None,
    session: SessionOpt = None,
) -> None:
    from napledger.core.read.messages import voided

    revision = expect.of(number) if expect else None
    change_and_show(ctx, session, lambda s: s.void(number, revision), lambda _: voided(number))


@app.command(help=_("Correct deal N: what you give replaces what was recorded; the rest stays."))
@deal_options(*DEAL_OPTIONS)
def amend(
    ctx: typer.Context,
    number: DealNumberArg,
    options: "DealOptions",
    bid: Annotated[
        str | None,
        typer.Argument(
            metavar=pgettext("placeholder", "[BID]"),
            help=_("A new bid, or `pass`."),
            autocompletion=complete_bid,
        ),
    ] = None,
    expect: ExpectSeenOpt = None,
    session: SessionOpt = None,
) -> None:
    from dataclasses import replace

    from napledger.cli import render

    revision = expect.of(number) if expect else None
    render.amended(
        change(ctx, session, lambda s: s.amend(number, replace(options, bid=bid), revision))
    )


@app.command(help=_("Seat a player from the next deal."))
def join(
    ctx: typer.Context,
    player: Annotated[
        str,
        typer.Argument(
            metavar=pgettext("placeholder", "PLAYER"), help=_("The player who sits down.")
        ),
    ],
    after: Annotated[
        str | None,
        typer.Option(
            metavar=pgettext("placeholder", "PLAYER"),
            help=_("Sit after this player (default: last seat)."),
            autocompletion=complete_player,
        ),
    ] = None,
    session: SessionOpt = None,
    expect: ExpectSeatingOpt = None,
) -> None:
    from napledger.core.read.messages import joins

    change_and_show(
        ctx,
        session,
        lambda s: s.join(player, after, expect),
        lambda n: joins(n.player),
    )


@app.command(help=_("A player leaves the table from the next deal; their score stays."))
def leave(
    ctx: typer.Context,
    player: Annotated[
        str,
        typer.Argument(
            metavar=pgettext("placeholder", "PLAYER"),
            help=_("The player who stands up."),
            autocompletion=complete_player,
        ),
    ],
    session: SessionOpt = None,
    expect: ExpectSeatingOpt = None,
) -> None:
    from napledger.core.read.messages import leaves

    change_and_show(
        ctx, session, lambda s: s.leave(player, expect), lambda gone: leaves(gone.player)
    )


@app.command(help=_("Close a session and decide what happens to the pot (`reopen` takes it back)."))
def close(
    ctx: typer.Context,
    pot: Annotated[
        str,
        typer.Option(
            metavar=pgettext("placeholder", "split|carry|PLAYER"),
            help=_("split (default), carry, or a player who takes it."),
            autocompletion=complete_pot,
        ),
    ] = "split",
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help=_("Do not ask first (only a terminal asks)."))
    ] = False,
    session: SessionOpt = None,
    expect: Annotated[
        int | None,
        expect_option(
            _(
                "Only if the session was closed N times before (table --json: closes): "
                "closed by this already is told again; changed since is refused."
            )
        ),
    ] = None,
) -> None:
    import sys

    from napledger.cli import render
    from napledger.cli.ask import confirm
    from napledger.core.read.messages import stays_open

    plan = None
    if not yes and sys.stdin is not None and sys.stdin.isatty():
        # Asked outside any transaction: a question left unanswered holds no lock.
        with transaction(ctx, write=False) as tx:
            plan = tx.session(session).close_plan(pot)
        # On stderr, as an error would be: `close > log` still shows the question.
        if not confirm(render.close_question(plan)):
            typer.echo(stays_open(plan.session))
            return
    agreed = plan.digest if plan else None
    render.closed(change(ctx, session, lambda s: s.close(pot, agreed, expect)))


@app.command(help=_("Take back a close made by mistake: it stays in the record, voided."))
def reopen(
    ctx: typer.Context,
    session: SessionOpt = None,
    expect: Annotated[
        int | None,
        expect_option(
            _(
                "Only to take back close N (table --json: closes): taken back already is "
                "told again; changed since is refused."
            )
        ),
    ] = None,
) -> None:
    from napledger.cli import render
    from napledger.core.read.messages import reopened

    t = change(ctx, session, lambda s: s.reopen(expect))
    render.changed(t, reopened(t))


def main() -> None:
    import sys

    name = app.typed(sys.argv[1:])
    (app if name is None else app.only(name))()
