"""Click's and Typer's own words, for napledger's catalogs to say in the table's language.

These are the libraries' sentences, not napledger's: each msgid is the English that Click
or Typer (with its own copy of Click) prints, with its variable part as a
placeholder; napledger only translates them, as Click documents. Nothing here is about the
evening, and napledger's own sentences stay in the front ends and the core.

- The frame of `--help` (`FRAME`): Click and Typer pass these through Python's gettext
  themselves (`from gettext import gettext as _`, the default domain), so the catalog
  answers them directly once `speak` has bound napledger's domain as the default; the
  language comes from `LANGUAGE`, the variable every gettext program reads first.
- Typer's own options' help (`TYPER_HELP`) and Click's usage errors (`USAGE_ERRORS`):
  Typer's copy of Click writes them without gettext (only `No such command` goes through
  it, and napledger reads that one back with the rest, so that `napledger nap ann 5` can
  still be recognised as a deal typed without `hand`). cli/errors.py reads them as Typer
  prints them, by the patterns below, and says them through the catalog.
"""

from __future__ import annotations

import gettext
import os
import re

from napledger.core.words import DOMAIN, LOCALE_DIR, N_

# The msgids exactly as Click (formatting.py, decorators.py) and Typer (rich_utils.py,
# core.py, completion.py) write them.
FRAME = (
    N_("Usage:"),
    N_("Options"),
    N_("Arguments"),
    N_("Commands"),
    N_("[required]"),
    N_("required"),
    N_("[default: {}]"),
    N_("default: {default}"),
    N_("[env var: {}]"),
    N_("env var: {var}"),
    N_("(deprecated) "),
    N_("Aborted."),
    N_("Aborted!"),
)
# Typer's own options, whose help its copy of Click does not pass through gettext.
TYPER_HELP = (
    N_("Show this message and exit."),
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."),
)

# Click's usage errors as Typer's copy of Click prints them (its exceptions.py,
# parser.py, core.py; typer/core.py), each with the pattern that reads one back. A name
# comes quoted as Click quotes it ('--by'); `near` is what Click suggests after it.
USAGE_ERRORS = [
    (
        re.compile(r"No such command (?P<name>'.*')\.(?: Did you mean (?P<near>.*)\?)?"),
        N_("No such command {name}."),
    ),
    (
        re.compile(r"No such option: (?P<name>.+?)(?: \(Possible options: (?P<near>.*)\))?"),
        N_("No such option: {name}"),
    ),
    (
        re.compile(r"Option (?P<name>'.*') requires an argument\."),
        N_("Option {name} requires an argument."),
    ),
    (re.compile(r"Missing argument (?P<name>.*)\."), N_("Missing argument {name}.")),
    (re.compile(r"Missing option (?P<name>.*)\."), N_("Missing option {name}.")),
    (re.compile(r"Missing parameter: (?P<name>.*)"), N_("Missing parameter: {name}")),
    (
        re.compile(
            r"Invalid value for (?P<name>.*?)(?: \(env var: (?P<env>'[^']*')\))?: (?P<message>.*)",
            re.S,
        ),
        N_("Invalid value for {name}: {message}"),
    ),
    (re.compile(r"Invalid value: (?P<message>.*)", re.S), N_("Invalid value: {message}")),
    (
        re.compile(r"Got unexpected extra argument\(s\) \((?P<args>.*)\)", re.S),
        N_("Got unexpected extra argument(s) ({args})"),
    ),
]
# What Click adds to a parameter named by its environment variable, and to a name it does
# not know when one is near.
ENV_VAR = N_("(env var: {name})")
DID_YOU_MEAN = N_("Did you mean {suggestions}?")


def speak(lang: str) -> None:
    """Click and Typer speak `lang` in this process from now on (before they print help)."""
    if lang == "en":  # their own words are English: nothing to look up
        return
    os.environ["LANGUAGE"] = lang
    gettext.bindtextdomain(DOMAIN, str(LOCALE_DIR))
    gettext.textdomain(DOMAIN)
