"""The words napledger says, in the table's language (GNU gettext, standard library only).

Every message a person reads goes through `_` (or `ngettext` where a number decides the
form), so one catalog per language translates all four front ends. The language is held in
a context variable: the terminal sets it once for the process, the server once per
request, and nothing else needs to know. A message written at import time is marked with
`N_` and translated where it is shown.

Catalogs are compiled into `napledger/locale/<lang>/LC_MESSAGES/napledger.mo`; a missing
catalog falls back to English, which is also the source text.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from napledger.core.errors import NapError

LANGUAGES = ("en", "ru", "pl")
DOMAIN = "napledger"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

_english = gettext.NullTranslations()
_current: ContextVar[gettext.NullTranslations] = ContextVar("napledger_words", default=_english)
_language: ContextVar[str] = ContextVar("napledger_language", default="en")


@cache
def catalog(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of one language (English: the source text itself)."""
    if lang == "en":
        return _english
    # The file itself, not gettext.translation(): that would search the locale's own
    # variants (and import `locale`) on every start of a one-shot command.
    try:
        with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as compiled:
            return gettext.GNUTranslations(compiled)
    except OSError:  # not compiled (a source tree never built): English, the source text
        return _english


def use(lang: str) -> None:
    """Speak `lang` from now on in this context (the process, or one request)."""
    _language.set(lang)
    _current.set(catalog(lang))


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak `lang` inside the block only (a request, a workbook of one session)."""
    lang_token = _language.set(lang)
    words_token = _current.set(catalog(lang))
    try:
        yield
    finally:
        _current.reset(words_token)
        _language.reset(lang_token)


def language() -> str:
    return _language.get()


# The locale's variables, in the order POSIX reads them for messages: the first one set
# decides (a German LC_ALL means German, so English, even beside a Russian LANG).
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def of_locale(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for (`ru_RU.UTF-8` is ru), English where it names one
    napledger does not speak, or none (`C`, `POSIX`)."""
    environ = os.environ if environ is None else environ
    # GNU gettext's own list of preferences (`LANGUAGE=pl:ru`) comes first, as every
    # gettext program reads it; a language napledger does not speak is passed over.
    for wanted in environ.get("LANGUAGE", "").split(":"):
        code = wanted.strip().partition(".")[0].partition("@")[0].partition("_")[0].lower()
        if code in LANGUAGES:
            return code
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "").strip()
        if value:
            code = value.partition(".")[0].partition("@")[0].partition("_")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


def checked(given: str) -> str:
    """A language as a person names it (`ru`, `RU`, `ru_RU`), or a refusal listing those known."""
    code = given.strip().replace("-", "_").partition("_")[0].lower()
    if code not in LANGUAGES:
        raise NapError(
            _("unknown language '{given}'; napledger speaks {known}").format(
                given=given, known=", ".join(LANGUAGES)
            )
        )
    return code


def chosen(given: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: `given` (`--lang`, or NAPLEDGER_LANG, which the option reads),
    else the locale's, else English."""
    return checked(given) if given else of_locale(environ)


def _(message: str) -> str:
    return _current.get().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.get().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A message whose English alone is ambiguous, told apart by `context` ("bid": `one`)."""
    return _current.get().pgettext(context, message)


def NC_(context: str, message: str) -> str:
    """Mark a message with its context for the catalog (`pgettext` translates it)."""
    return message


def N_(message: str) -> str:
    """Mark a message for the catalog without translating it yet (it is translated where shown)."""
    return message


def workbook_language(asked: str | None, kept: Iterable[str | None]) -> str:
    """The language a workbook of these sessions is written in: the one asked for, else
    the one every session keeps (`new --lang`), else the one this terminal speaks."""
    if asked:
        return asked
    own = set(kept)
    return own.pop() or language() if len(own) == 1 else language()
