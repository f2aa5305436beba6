"""Table mode: one running program for a whole evening, one line a deal.

Each line runs through the very command objects a one-shot `napledger ...` runs, so it
prints, fails and commits exactly as that command would; only the engine is kept open.
(No `from __future__ import annotations`: Typer would eval the command's annotations.)
"""

import re
import shutil
import sys
import textwrap
from typing import TYPE_CHECKING

import typer

from napledger.cli.app import Run, SessionOpt, app
from napledger.cli.errors import NapGroup, error_line, in_terminal
from napledger.core.errors import NapError
from napledger.core.read.messages import on_line
from napledger.core.read.said import table_prompt
from napledger.core.words import N_, _

if TYPE_CHECKING:
    from napledger.service.api import Transaction
    from napledger.store.views import TableView

LEAVE = ("quit", "exit")
OWN_WORDS = (*LEAVE, "help")

HELP = N_("""\
A line is a napledger command without `napledger`, or a deal in short form:
  BID PLAYER RESULT [OPTIONS]    nap ann 5 · 3 ben made · mis cat 0 · 4 dan revoke eve
  PLAYER BID RESULT [OPTIONS]    ann nap 5 · ben 3 failed
RESULT: tricks taken, made (won), failed (lost, down), or revoke PLAYER.
Russian and Polish words work too: борис три взял · гена наполеон без · пас · ania trzy ugrała.
OPTIONS: the options of `hand`, e.g. --peep ann --buy ben=2 --dealer cat.
A command word always wins (`nap pass 5` is Pass's nap); a line that reads as two
different deals is refused: write it as `hand BID --by PLAYER ...`.
Commands: {commands}.
quit, exit or Ctrl-D leave; Ctrl-C abandons the line. Every deal is saved as it is typed.""")


HELP_WIDTH = 80  # the help is read in a terminal: never wider, narrower where it is


def fitted(text: str, width: int) -> str:
    """Each line wrapped between words to `width`: a table row's continuation under its
    example column, any other line's indented two spaces (no line is cut mid-word). A
    sentence the source broke over two lines is one paragraph again first."""
    paragraphs: list[str] = []
    for line in text.splitlines():
        previous = paragraphs[-1] if paragraphs else ""
        if previous[:1].isalpha() and line[:1].isalpha() and not previous.endswith((".", ":")):
            paragraphs[-1] += " " + line
        else:
            paragraphs.append(line)
    lines = []
    for line in paragraphs:
        row = re.match(r"(\s*\S.*?\s{2,})\S", line)
        indent = " " * len(row.group(1)) if row else "  "
        if len(indent) > width // 2:
            indent = "  "
        lines += textwrap.wrap(
            line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
        ) or [""]
    return "\n".join(lines)


def load_view(ctx: typer.Context, session: str | None) -> "TableView":
    """What the loop knows of the session between commands: for the prompt and short forms."""
    run: Run = ctx.find_root().obj
    with run.database(ctx).read() as tx:
        return tx.session(session).view()


class Loop:
    def __init__(self, ctx: typer.Context, session: str | None) -> None:
        group = typer.main.get_command(app)
        assert isinstance(group, NapGroup)
        self.group = group
        self.commands = {*self.group.commands, *OWN_WORDS}
        # Every line runs in this run: one database, opened once for the evening.
        self.ctx, self.run_state, self.session = ctx, ctx.find_root().obj, session
        self._view: TableView | None = None
        self.stale = True
        self.matches: list[str] = []
        # The deal number the last prompt showed: a deal typed at it expects that number,
        # so the same deal typed meanwhile at the page or another terminal is not added twice.
        self.shown: int | None = None
        self.failed = 0  # lines that ended in an error

    def view(self) -> "TableView | None":
        if self.stale:
            try:
                self._view = load_view(self.ctx, self.session)
            except NapError:
                self._view = None  # no database or no current session yet: commands still work
            self.stale = False
        return self._view

    def saw(self, tx: "Transaction") -> None:
        """A line's change went well: what the prompt and the short forms need next is read
        in its own transaction, before it commits, not in a second one."""
        try:
            self._view = tx.session(self.session).view()
        except NapError:
            return  # no current session (say): read again before the next line
        self.stale = False

    def prompt(self) -> str:
        v = self.view()
        self.shown = None
        if v is None:
            return "napledger> "
        if v.dealer is not None:
            self.shown = v.number
        return table_prompt(v.name, v.number, v.dealer)

    def run(self, interactive: bool) -> None:
        if interactive:
            self.enable_completion()
        number = 0
        while True:
            try:
                line = input(self.prompt()) if interactive else sys.stdin.readline()
                if not interactive and not line:
                    return
                number += 1
                if not (self.handle(line) if interactive else self.handle_numbered(line, number)):
                    return
            except EOFError:  # Ctrl-D leaves, as in a shell
                print()
                return
            except KeyboardInterrupt:
                if not interactive:
                    return
                # As in a shell: Ctrl-C abandons the line (or stops the command, rolled
                # back) and the loop goes on.
                print()

    def handle_numbered(self, line: str, number: int) -> bool:
        """`handle`, with the line's number in its error: a replayed file says where it failed."""
        import io
        from contextlib import redirect_stderr

        said = io.StringIO()
        try:
            with redirect_stderr(said):
                return self.handle(line)
        finally:
            for text in said.getvalue().splitlines(keepends=True):
                if text.startswith("Error: "):
                    text = f"Error: {on_line(number, text.removeprefix('Error: '))}"
                sys.stderr.write(text)

    def handle(self, line: str) -> bool:
        """Run one line; False when it asks to leave."""
        from napledger.cli.shortforms import parse

        first = line.split(maxsplit=1)[0].casefold() if line.strip() else ""
        if first and first not in OWN_WORDS and not self.same_database(line):
            return True
        view = None if first in self.commands else self.view()
        try:
            argv = parse(
                line, view.seated if view else (), view.rules if view else None, self.commands
            )
        except NapError as error:
            print(error_line(in_terminal(error)), file=sys.stderr)
            self.failed += 1
            return True
        if not argv:
            return True
        if argv[0] in LEAVE:
            return False
        if argv[0] == "help":
            said = _(HELP).format(commands=", ".join(sorted(self.group.commands)))
            print(fitted(said, min(HELP_WIDTH, shutil.get_terminal_size().columns)))
            return True
        if argv[0] == "play":
            print(error_line(_("already playing; type a command or a deal")), file=sys.stderr)
            self.failed += 1
            return True
        self.dispatch(argv)
        return True

    def same_database(self, line: str) -> bool:
        """False, after saying so, when the database file was moved or replaced under us.

        The line is shown again (and stays in the line history) so that nothing typed is lost.
        """
        try:
            self.run_state.database(self.ctx).check_same_files()
        except NapError as error:
            said = _("{error}; not saved: {line}").format(error=error, line=line.strip())
            print(error_line(said), file=sys.stderr)
            self.failed += 1
            return False
        return True

    def dispatch(self, argv: list[str]) -> None:
        argv = self.expecting(argv)
        command = self.group.commands.get(argv[0])
        if (
            self.session is not None
            and command is not None
            and any("--session" in p.opts for p in command.params)
            and not any(a in ("--session", "-s") or a.startswith("--session=") for a in argv)
        ):
            argv = [*argv, "--session", self.session]
        if self.run_state.db is not None:
            # The evening's database, whatever NAPLEDGER_DB says (a line may still name another).
            argv = ["--db", self.run_state.db, *argv]
        self.stale = True  # until a change made by this line says how the table stands
        try:
            self.group.main(argv, prog_name="napledger", obj=self.run_state)
        except SystemExit as stop:
            if stop.code:
                self.failed += 1
                self.stale = True  # the change may have been rolled back after all
        finally:
            sys.stdout.flush()

    def expecting(self, argv: list[str]) -> list[str]:
        """A deal typed at a prompt that named its number, as that deal (`--expect N`).

        Not when the line names its own expectation, session or database: the prompt
        spoke of this session only. A replayed file shows no prompt, so expects nothing.
        """
        own = ("--expect", "--session", "-s", "--db")
        if (
            self.shown is None
            or argv[0] not in ("hand", "pass")
            or any(a in own or a.startswith(tuple(f"{o}=" for o in own)) for a in argv)
        ):
            return argv
        return [*argv, "--expect", str(self.shown)]

    def enable_completion(self) -> None:
        try:
            import readline
        except ImportError:  # no readline on this platform: plain input still works
            return
        readline.set_completer(self.complete)
        readline.set_completer_delims(" \t")
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")

    def complete(self, text: str, state: int) -> str | None:
        if state == 0:
            import readline

            from napledger.cli.shortforms import completions

            view = self.view()
            before = readline.get_line_buffer()[: readline.get_begidx()].split()
            self.matches = completions(
                text,
                before,
                view.seated if view else (),
                view.rules if view else None,
                self.commands,
                view.dealer if view else None,
            )
            if len(self.matches) == 1:  # Python's readline adds no space after a whole word
                self.matches[0] += " "
        return self.matches[state] if state < len(self.matches) else None


@app.command(
    help=_("Table mode: type deals and commands line after line (`help` inside lists the forms).")
)
def play(ctx: typer.Context, session: SessionOpt = None) -> None:
    database = ctx.find_root().obj.database(ctx)  # opened once here, closed as `play` ends
    loop = Loop(ctx, session)
    database.before_commit.append(loop.saw)
    if session is not None:
        load_view(ctx, session)  # a session that does not exist is refused before the loop
    if sys.stdin is None:  # started with its input closed (`<&-`): nothing to read
        raise NapError(_("play reads lines from a terminal or a file, and its input is closed"))
    interactive = sys.stdin.isatty()
    loop.run(interactive)
    if loop.failed and not interactive:
        # A replayed file with a bad line must not pass for a clean replay in a script.
        raise typer.Exit(1)
