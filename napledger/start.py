"""The `napledger` program: the language is chosen before the command line is built.

Typer takes each `--help` text as the commands are declared, when `napledger.cli` is
imported: choosing the language first makes `napledger --lang ru --help` Russian too.
"""

import os
import sys
from typing import Any

from napledger.allocator import program
from napledger.collector import defer_collector


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
    from napledger.locale_frame import speak

    speak(lang)
    from napledger.cli import main as run

    assemble()
    with program():  # `serve` may start this process again on another allocator
        run()


def assemble() -> None:
    """The program's parts that the layers keep apart, put together: the command line's
    `serve` is handed its web server (the command line never imports the web)."""
    from napledger.cli import serve

    serve.server = serve_web


def serve_web(*given: Any) -> None:
    """`napledger serve`'s web server, imported only when it runs. Handed to the command
    line from here, above both front ends, so that neither imports the other."""
    from napledger.web.serve import serve

    serve(*given)
