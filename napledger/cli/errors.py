"""Turning every failure into one `Error:` line on stderr and an exit status."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

from napledger.core.errors import NapError
from napledger.core.words import _, language


def error_line(message: str) -> str:
    return _("Error:") + " " + " ".join(str(message).split())


class NapGroup(TyperGroup):
    """Runs a command so that no traceback and no multi-line usage text reaches the user."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """A command by its English name; `pass` also by the table's word (`пас`, `pas`)."""
        found = super().get_command(ctx, cmd_name)
        if found is None:  # only then: the commands typed between deals pay nothing
            from napledger.core.vocabulary import PASS, meanings

            if PASS in meanings(cmd_name):
                return super().get_command(ctx, "pass")
        return found

    def get_params(self, ctx: Any) -> list[Any]:
        return said_params(super().get_params(ctx))

    def get_usage(self, ctx: Any) -> str:
        return said_usage(super().get_usage(ctx))

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
            fail(in_terminal(error), 1)
        except typer.TyperException as error:  # a usage error (exit 2) or another of Typer's
            message = error.format_message()
            if not message.strip():  # a bare `napledger`: Typer's Rich help is already shown
                sys.exit(error.exit_code)
            shown = in_our_words(error)
            if error.exit_code == 2:  # a mistyped command line: perhaps a short-form deal
                typed = list(args) if args is not None else sys.argv[1:]
                shown = deal_hint(typed, message, shown)
            fail(shown, error.exit_code)
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


class NapCommand(TyperCommand):
    """A command whose `--help` frame speaks the table's language (see napledger/locale_frame.py)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return said_params(super().get_params(ctx))

    def get_usage(self, ctx: Any) -> str:
        return said_usage(super().get_usage(ctx))


class NamedArgument(TyperArgument):
    """An argument whose `--help` line shows its name alone. Typer writes the Python type
    beside it (`<str>`, `<list[str]>`): a programmer's English, at a table that reads
    `НАЗВАНИЕ` or `[PARTIA]...` already."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None


def said_params(params: list[Any]) -> list[Any]:
    """Typer's own options (`--help`, `--install-completion`) told in the table's words; a
    flag shows no type (`<bool>`): it takes no value; nor does an argument (above)."""
    from napledger.locale_frame import TYPER_HELP

    for param in params:
        if getattr(param, "help", None) in TYPER_HELP:
            param.help = _(param.help)
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
        if type(param) is TyperArgument:
            param.__class__ = NamedArgument
    return params


def said_usage(usage: str) -> str:
    """Typer's usage line (its own copy of Click writes `Usage:` and `[OPTIONS]` without
    gettext) in the table's words."""
    from napledger.core.words import pgettext

    head, _sep, rest = usage.partition(" ")
    if head != "Usage:":
        return usage
    rest = rest.replace("[OPTIONS]", pgettext("placeholder", "[OPTIONS]"), 1)
    rest = rest.replace("COMMAND [ARGS]...", pgettext("placeholder", "COMMAND [ARGS]..."), 1)
    return _("Usage:") + " " + rest


# What a refusal is about (`NapError.field`), as the command line spells it.
OPTIONS = {
    "by": "--by",
    "result": "--tricks/--made/--failed/--short",
    "revoke": "--revoke",
    "dealer": "--dealer",
    "peep": "--peep",
    "buy": "--buy",
    "pot": "--pot",
    "carry": "--carry-from",
    "chip": "--chip/--currency",
}


def in_terminal(error: NapError) -> str:
    """A refusal with the option it is about, as the terminal points at it."""
    option = OPTIONS.get(error.field or "")
    return f"{error} ({option})" if option else str(error)


def fail(message: str, code: int) -> None:
    sys.stdout.flush()
    print(error_line(message), file=sys.stderr)
    sys.exit(code)


def deal_hint(words: list[str], message: str, shown: str | None = None) -> str:
    """A usage error, pointed at `hand` when what was typed is a deal in `play`'s short form.

    (`napledger nap ann 5` or `napledger hand nap ann 5`.) `message` is Click's, `shown` the
    same in the language spoken.
    """
    shown = message if shown is None else shown
    from napledger.cli.shortforms import hand_line

    while words and words[0].startswith("-"):  # the root options, such as --db PATH
        words = words[1 if "=" in words[0] else 2 :]
    typed = words[1:] if words[:1] == ["hand"] else words
    if not typed or not (message.startswith("No such command") or words[:1] == ["hand"]):
        return shown
    if "Did you mean" in message:  # a misspelt command (`hnad`, `ammend`), not a deal
        return shown
    if any(word.startswith("-") for word in typed):  # options typed: not a short form
        return shown
    line = hand_line(typed, all_bid_words())
    if line is None:
        return shown
    return _(
        "{message}: a deal is recorded with `napledger {command}` "
        "(or typed as `{typed}` in `napledger play`)"
    ).format(message=shown.rstrip("."), command=shell_words(line), typed=shell_words(typed))


def in_our_words(error: typer.TyperException) -> str:
    """A usage error of Click's in the language spoken (English: exactly as Click says it).

    Typer's copy of Click words its usage errors without gettext: they are read back by
    the patterns of napledger/locale_frame.py and said through the catalog."""
    told = error.format_message()
    if language() == "en":
        return told
    from napledger.locale_frame import DID_YOU_MEAN, ENV_VAR, USAGE_ERRORS

    for pattern, message in USAGE_ERRORS:
        found = pattern.fullmatch(told)
        if found is None:
            continue
        parts = found.groupdict()
        if parts.get("env"):
            parts["name"] += " " + _(ENV_VAR).format(name=parts["env"])
        said = _(message).format(**parts)
        if parts.get("near"):
            said += " " + _(DID_YOU_MEAN).format(suggestions=parts["near"])
        return said
    return told


def shell_words(words: list[str]) -> str:
    """Words as a shell takes them back, quoted only where it must (`три`, not `'три'`)."""
    import shlex

    return " ".join(w if re.fullmatch(r"[\w@%+=:,./-]+", w) else shlex.quote(w) for w in words)


def all_bid_words() -> set[str]:
    from napledger.cli.shortforms import bid_words
    from napledger.core.rules import list_presets, load_preset
    from napledger.core.vocabulary import word_key

    return {word_key(w) for name in list_presets() for w in bid_words(load_preset(name))}
