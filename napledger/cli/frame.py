"""Click's and Typer's own words (the frame of `--help`), in the table's language.

Click and Typer translate their strings through Python's gettext, the GNU API of the
standard library (`from gettext import gettext as _`, the default domain). As Click
documents, a program gives them its catalog by binding its own domain and making it
the default (`gettext.bindtextdomain`, `gettext.textdomain`); the language comes from
`LANGUAGE`, the variable every gettext program reads first. Their messages are marked
here so that `pybabel extract` puts them in napledger's catalogs.

Click's usage errors are not among them: cli/errors.py reads those as Click words them
and says them in the table's words, so they must reach it in English.
"""

from __future__ import annotations

import gettext
import os

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
# Typer's own options, whose help its copy of Click does not pass through gettext:
# cli/errors.py says them (as it says Typer's `Usage:` line).
TYPER_HELP = (
    N_("Show this message and exit."),
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."),
)


def speak(lang: str) -> None:
    """Click and Typer speak `lang` in this process from now on (before they print help)."""
    if lang == "en":  # their own words are English: nothing to look up
        return
    os.environ["LANGUAGE"] = lang
    gettext.bindtextdomain(DOMAIN, str(LOCALE_DIR))
    gettext.textdomain(DOMAIN)
