"""The `napledger` program: the language is chosen before the command line is built.

Typer takes each `--help` text as the commands are declared, when `napledger.cli` is
imported: choosing the language first makes `napledger --lang ru --help` Russian too.
"""

import gc
import os
import sys

# Whether `main` turned the cycle collector off for the start-up (see `started`).
_deferred = False


def asked(argv: list[str]) -> str | None:
    """`--lang X` as typed, before Typer reads it: the last one given, as Typer takes it
    (NAPLEDGER_LANG is the option's envvar)."""
    given = os.environ.get("NAPLEDGER_LANG")
    for at, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and at + 1 < len(argv):
            given = argv[at + 1]
        elif word.startswith("--lang="):
            given = word.removeprefix("--lang=")
    return given


def main() -> None:
    defer_collector()
    from napledger.core.errors import NapError
    from napledger.core.words import chosen, of_locale, use

    try:
        lang = chosen(asked(sys.argv[1:]))
    except NapError:  # an unknown language: Typer refuses it, in the locale's language
        lang = of_locale()
    use(lang)
    from napledger.cli.frame import speak

    speak(lang)
    from napledger.cli import main as run

    run()


def defer_collector() -> None:
    """Python's cycle collector off until `started`.

    Start-up makes some hundred thousand objects that live as long as the process
    (modules, classes, functions of Typer, Rich, SQLAlchemy, pydantic), and the collector
    walks them again and again while they are made, finding nothing to free: a fifth of
    what a one-shot command cost (issue #23)."""
    global _deferred
    if gc.isenabled():
        gc.disable()
        _deferred = True


def started() -> None:
    """The command's libraries are loaded: what start-up made is set aside for good
    (`gc.freeze`: no collection walks it again, in a one-shot command or over an evening
    of `play` or `serve`), and the collector runs again for whatever the command makes.
    Called as a command opens its database or starts its server; nothing when `main`
    did not defer the collector (a test's `CliRunner`, a program importing napledger)."""
    global _deferred
    if _deferred:
        _deferred = False
        gc.freeze()
        gc.enable()
