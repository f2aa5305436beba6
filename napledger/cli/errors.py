"""Turning every failure into one `Error:` line on stderr and an exit status."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup

from napledger.core.errors import NapError
from napledger.core.words import _


def error_line(message: str) -> str:
    return "Error: " + " ".join(str(message).split())


class NapGroup(TyperGroup):
    """Runs a command so that no traceback and no multi-line usage text reaches the user."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except NapError as error:
            fail(str(error), 1)
        except typer.TyperException as error:  # a usage error (exit 2) or another of Typer's
            message = error.format_message()
            if not message.strip():  # a bare `napledger`: Typer's Rich help is already shown
                sys.exit(error.exit_code)
            if error.exit_code == 2:  # a mistyped command line: perhaps a short-form deal
                message = deal_hint(list(args) if args is not None else sys.argv[1:], message)
            fail(message, error.exit_code)
        except typer.Abort:
            fail(_("stopped"), 130)
        except KeyboardInterrupt:
            fail(_("stopped"), 130)
        except BrokenPipeError:  # `napledger hands | head`: the reader has gone, nothing to say
            sys.stderr.close()
            sys.exit(1)
        except Exception as error:  # the last line of defence: a bug, told in one line
            if os.environ.get("NAPLEDGER_DEBUG"):
                raise
            fail(
                _("unexpected {kind}: {error} (set NAPLEDGER_DEBUG=1 for details)").format(
                    kind=type(error).__name__, error=error
                ),
                1,
            )
        code = result if isinstance(result, int) else 0
        if standalone_mode:
            sys.exit(code)
        return code


def fail(message: str, code: int) -> None:
    sys.stdout.flush()
    print(error_line(message), file=sys.stderr)
    sys.exit(code)


def deal_hint(words: list[str], message: str) -> str:
    """A usage error, pointed at `hand` when what was typed is a deal in `play`'s short form.

    (`napledger nap ann 5` or `napledger hand nap ann 5`.)
    """
    import shlex

    from napledger.cli.shortforms import hand_line

    while words and words[0].startswith("-"):  # the root options, such as --db PATH
        words = words[1 if "=" in words[0] else 2 :]
    typed = words[1:] if words[:1] == ["hand"] else words
    if not typed or not (message.startswith("No such command") or words[:1] == ["hand"]):
        return message
    if "Did you mean" in message:  # a misspelt command (`hnad`, `ammend`), not a deal
        return message
    line = hand_line(typed, all_bid_words())
    if line is None:
        return message
    return _(
        "{message}: a deal is recorded with `napledger {command}` "
        "(or typed as `{typed}` in `napledger play`)"
    ).format(message=message.rstrip("."), command=shlex.join(line), typed=shlex.join(typed))


def all_bid_words() -> set[str]:
    from napledger.cli.shortforms import bid_words
    from napledger.core.rules import list_presets, load_preset
    from napledger.core.rules.model import fold

    return {fold(w) for name in list_presets() for w in bid_words(load_preset(name))}
