"""A yes-or-no question, answered in the table's language (`да`, `д`, `tak`, `t`) or in English.

Click's confirm takes only `y`/`yes` and says `[y/N]` and its refusal in English; a Russian
table answers `да`. Every language's answers are taken, whatever language is spoken, as
the game's words are (core/vocabulary.py).
"""

from __future__ import annotations

import sys

import typer

from napledger.cli.errors import error_line
from napledger.core.vocabulary import word_key
from napledger.core.words import _

YES = ("y", "yes", "д", "да", "t", "tak")
NO = ("n", "no", "н", "нет", "nie")


def answer(typed: str) -> bool | None:
    """True for yes, False for no (or nothing typed: the default is no), None otherwise."""
    key = word_key(typed)
    if not key or key in NO:
        return False
    return True if key in YES else None


def confirm(question: str) -> bool:
    """Ask on stderr (`close > log` still shows it) until the answer is yes or no."""
    while True:
        typer.echo(_("{question} [y/N]: ").format(question=question), nl=False, err=True)
        line = sys.stdin.readline()
        if not line:  # end of input: no
            typer.echo("", err=True)
            return False
        said = answer(line)
        if said is not None:
            return said
        typer.echo(error_line(_("answer y (yes) or n (no)")), err=True)
