"""A paper score sheet typed as rows (docs/scoresheet.md): read and checked, no database.

A table that kept score on paper types it as a CSV file: a header naming the session, the
game, the players in seat order, the chip value and currency; a row of column headings;
then one deal a row (dealer, bidder, bid, result, revoker, peeps, purchases, note). The
header's keys and the column headings may be written in English, Russian or Polish; bids
and results are the words `hand` and `play` take (the rules' bids, the game's words of
napledger/core/vocabulary.py).

`parse_sheet` reads the whole text and plays every deal through the core's own session
(napledger/core/session.py), exactly as the service will: a sheet it returns records
deal for deal, and the first row that cannot be recorded is refused naming its line.

How the file is split, an explicit rule rather than a guess: the first line that is not
blank or a comment starts with a key, which holds no separator, so the first `;`, tab or
`,` on that line is the separator of the whole file (Excel in a Russian or Polish locale
writes `;`, elsewhere `,`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from types import MappingProxyType
from typing import TypeVar

from napledger.core import vocabulary
from napledger.core.errors import NapError
from napledger.core.money import chip_value, currency_code
from napledger.core.numbers import is_whole, whole
from napledger.core.options import DealOptions
from napledger.core.read.messages import on_line
from napledger.core.rules import Rules, load_rules
from napledger.core.rules.load import with_overrides
from napledger.core.session import (
    SessionState,
    opened,
    pass_out,
    record,
    seating_of,
    session_terms,
    start,
)
from napledger.core.words import LANGUAGES, _, language

T = TypeVar("T")
SEPARATORS = (";", "\t", ",")
# The header's keys: meaning -> language -> the words a table writes for it (matched as
# vocabulary.word_key matches words: any case, accents or none). docs/scoresheet.md lists them.
# fmt: off
HEADER: dict[str, dict[str, tuple[str, ...]]] = {
    "session": {"en": ("session",), "ru": ("партия",), "pl": ("partia",)},
    "game": {"en": ("game", "variant"), "ru": ("игра", "вариант"), "pl": ("gra", "wariant")},
    "rule": {"en": ("rule",), "ru": ("правило",), "pl": ("zasada", "zasady")},
    "players": {"en": ("players",), "ru": ("игроки",), "pl": ("gracze",)},
    "chip": {"en": ("chip", "chip value"), "ru": ("фишка", "цена фишки"),
             "pl": ("żeton", "wartość żetonu")},
    "currency": {"en": ("currency",), "ru": ("валюта",), "pl": ("waluta",)},
    "language": {"en": ("language",), "ru": ("язык",), "pl": ("język",)},
}
# The columns of the deals, in the order docs/scoresheet.md writes them.
COLUMNS: dict[str, dict[str, tuple[str, ...]]] = {
    "dealer": {"en": ("dealer",), "ru": ("сдатчик", "сдаёт"), "pl": ("rozdający", "rozdaje")},
    "bidder": {"en": ("bidder",), "ru": ("играющий", "играет"), "pl": ("licytant",)},
    "bid": {"en": ("bid",), "ru": ("назначение",), "pl": ("licytacja",)},
    "result": {"en": ("result", "outcome"), "ru": ("исход",), "pl": ("wynik",)},
    "revoker": {"en": ("revoker", "revoke"), "ru": ("ренонс",), "pl": ("renons",)},
    "peeps": {"en": ("peeps", "peep"), "ru": ("подсмотр",), "pl": ("podglądanie", "podgląda")},
    "purchases": {"en": ("purchases", "buys"), "ru": ("прикуп",),
                  "pl": ("dokupowanie", "dokupka")},
    "note": {"en": ("note",), "ru": ("заметка",), "pl": ("notatka", "uwagi")},
}
# fmt: on
REQUIRED_HEADER = ("session", "game", "players")
REQUIRED_COLUMNS = ("bidder", "bid", "result")
REPEATABLE = ("rule",)  # every other key is given once


def _index(words: Mapping[str, Mapping[str, tuple[str, ...]]]) -> dict[str, str]:
    return {
        vocabulary.word_key(word): meaning
        for meaning, said in words.items()
        for spoken in said.values()
        for word in spoken
    }


HEADER_KEYS = _index(HEADER)
COLUMN_KEYS = _index(COLUMNS)


def key_of(cell: str) -> str:
    """A key or a column heading as it is matched: as a word (`word_key`), a colon after
    it left off (`игроки:`, as a sheet on paper heads its lines)."""
    return vocabulary.word_key(cell.rstrip(":"))


def said(words: Mapping[str, Mapping[str, tuple[str, ...]]], meaning: str) -> str:
    """How the language spoken writes a key or a column (English where it has none)."""
    return words[meaning].get(language(), words[meaning]["en"])[0]


class SheetError(NapError):
    """A score sheet that cannot be imported; `line` is the line of the file it is about
    (None: the file as a whole, e.g. a key it lacks)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class SheetDeal:
    """One row of deals: what `hand` (or `pass`) would be given for it."""

    line: int
    options: DealOptions
    passed: bool  # a passed-out deal: the service's `pass_`, else `record`


@dataclass(frozen=True)
class Sheet:
    """A score sheet read and checked: the session to start and its deals, in order."""

    name: str
    rules: Rules
    players: tuple[str, ...]  # in seat order, as `new --players` takes them
    chip_value: Decimal | None  # None: not given (1, as `new` without --chip)
    currency: str | None
    language: str | None  # the table's language (`new --lang`), if the header names one
    dealer: str | None  # who dealt first, as the first deal's row says (None: the first player)
    deals: tuple[SheetDeal, ...]
    # What the deals come to, scored by the rules as the service will score them.
    chips: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    pot: int = 0

    @property
    def deal_count(self) -> int:
        return len(self.deals)


@dataclass
class _Row:
    line: int
    cells: list[str]

    @property
    def head(self) -> int:
        """Where its first cell that says something is (a spreadsheet may start a row with
        an empty column)."""
        return next(i for i, cell in enumerate(self.cells) if cell)


def rows_of(text: str) -> list[_Row]:
    """The file's rows that say something, each with the line it starts on: blank rows
    (`;;;;` from a spreadsheet too) and comments (a first cell that says something
    starting with `#`) left out."""
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    first = next((s for s in lines if s.strip() and not s.lstrip().startswith("#")), "")
    separator = next((c for c in first if c in SEPARATORS), ",")
    told = first.strip().casefold()
    if len(told) == 5 and told.startswith("sep=") and told[4] in SEPARATORS:
        separator = told[4]  # Excel's own line saying the separator: said, so skipped
    else:
        told = ""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator)
    rows: list[_Row] = []
    line = 1
    try:
        for cells in reader:
            cells = [c.strip() for c in cells]
            said_separator = bool(told) and separator.join(cells).casefold() == told
            if any(cells) and not said_separator:
                row = _Row(line, cells)
                if not cells[row.head].startswith("#"):
                    rows.append(row)
            line = reader.line_num + 1
    except csv.Error as error:
        raise SheetError(on_line(line, str(error)), line) from None
    return rows


def parse_sheet(text: str, rules_from: Callable[[str], Rules] = load_rules) -> Sheet:
    """The score sheet `text` is, every deal checked by the rules; else a `SheetError`
    naming the first line that is wrong and why. `rules_from` gives the rules the header's
    game names (a preset's name, or a rule file: the service finds it beside the sheet)."""
    rows = rows_of(text)
    header: dict[str, list[str]] = {}
    lines: dict[str, int] = {}
    at = 0
    while at < len(rows) and COLUMN_KEYS.get(key_of(rows[at].cells[rows[at].head])) is None:
        row = rows[at]
        typed = row.cells[row.head]
        key = HEADER_KEYS.get(key_of(typed))
        if key is None:
            raise SheetError(on_line(row.line, _not_a_key(typed)), row.line)
        if key in lines and key not in REPEATABLE:
            message = _("{key} is given twice (line {other} too)").format(
                key=typed, other=lines[key]
            )
            raise SheetError(on_line(row.line, message), row.line)
        lines.setdefault(key, row.line)
        header.setdefault(key, []).extend(c for c in row.cells[row.head + 1 :] if c)
        at += 1
    for key in REQUIRED_HEADER:
        if key not in header:
            raise SheetError(
                _(
                    "the score sheet does not say its {key}: a line such as `{key};…` before "
                    "the deals"
                ).format(key=said(HEADER, key))
            )
    if at == len(rows):
        raise SheetError(
            _("the score sheet has no row of column headings ({columns}) before the deals").format(
                columns=", ".join(said(COLUMNS, c) for c in COLUMNS)
            )
        )
    terms = _terms(header, lines, rules_from)
    columns = _columns(rows[at])
    deals = tuple(_deal(row, columns) for row in rows[at + 1 :])
    return _played(terms, deals)


def _not_a_key(cell: str) -> str:
    keys = ", ".join(said(HEADER, k) for k in HEADER)
    columns = ", ".join(said(COLUMNS, c) for c in COLUMNS)
    return _(
        "'{cell}' is not a line of the score sheet's header ({keys}), nor its row of "
        "column headings ({columns})"
    ).format(cell=cell[:40], keys=keys, columns=columns)


@dataclass(frozen=True)
class _Terms:
    name: str
    rules: Rules
    players: tuple[str, ...]
    chip_value: Decimal | None
    currency: str | None
    language: str | None
    lines: Mapping[str, int]


def _terms(
    header: Mapping[str, list[str]], lines: Mapping[str, int], rules_from: Callable[[str], Rules]
) -> _Terms:
    def one(key: str) -> str | None:
        values = header.get(key)
        if values is None:
            return None
        if len(values) != 1:
            message = _("{key} wants one value, not {count}: {values}").format(
                key=said(HEADER, key), count=len(values), values=", ".join(values) or "—"
            )
            raise SheetError(on_line(lines[key], message), lines[key])
        return values[0]

    def checked(key: str, make: Callable[[], T]) -> T:
        try:
            return make()
        except SheetError:
            raise
        except NapError as error:
            raise SheetError(on_line(lines[key], str(error)), lines[key]) from None

    game = one("game")
    assert game is not None
    rules = checked("game", lambda: rules_from(game))
    if "rule" in header:
        rules = checked("rule", lambda: with_overrides(rules, header["rule"]))
    chip = one("chip")
    if chip is not None and chip.count(",") == 1 and "." not in chip:
        chip = chip.replace(",", ".")  # a decimal comma, as ru and pl write it: 0,05
    value = checked("chip", lambda: None if chip is None else chip_value(chip))
    lang = one("language")
    if lang is not None and lang.casefold() not in LANGUAGES:
        message = _("the language is one of {languages}, not '{lang}'").format(
            languages=", ".join(LANGUAGES), lang=lang
        )
        raise SheetError(on_line(lines["language"], message), lines["language"])
    typed = one("session")
    assert typed is not None
    typed_currency = one("currency")
    currency = checked(
        "currency", lambda: None if typed_currency is None else currency_code(typed_currency)
    )
    name, value, currency = checked("session", lambda: session_terms(typed, value, currency))
    players = [p.strip() for cell in header["players"] for p in cell.split(",") if p.strip()]
    seating = checked("players", lambda: tuple(seating_of(players)))
    return _Terms(
        name=name,
        rules=rules,
        players=seating,
        chip_value=value,
        currency=currency,
        language=lang.casefold() if lang else None,
        lines=lines,
    )


def _columns(row: _Row) -> dict[int, str]:
    """The column headings: which column holds what (a cell with no heading holds nothing)."""
    columns: dict[int, str] = {}
    for index, cell in enumerate(row.cells):
        if not cell:
            continue
        column = COLUMN_KEYS.get(key_of(cell))
        if column is None:
            message = _("'{cell}' is not a column of the score sheet; the columns are {columns}")
            known = ", ".join(said(COLUMNS, c) for c in COLUMNS)
            line = on_line(row.line, message.format(cell=cell[:40], columns=known))
            raise SheetError(line, row.line)
        if column in columns.values():
            message = _("the column {column} is headed twice").format(column=cell)
            raise SheetError(on_line(row.line, message), row.line)
        columns[index] = column
    for column in REQUIRED_COLUMNS:
        if column not in columns.values():
            message = _("the row of column headings has no {column} column").format(
                column=said(COLUMNS, column)
            )
            raise SheetError(on_line(row.line, message), row.line)
    return columns


def _deal(row: _Row, columns: Mapping[int, str]) -> SheetDeal:
    try:
        return SheetDeal(row.line, *_options(row, columns))
    except SheetError:
        raise
    except NapError as error:
        raise SheetError(on_line(row.line, str(error)), row.line) from None


def _options(row: _Row, columns: Mapping[int, str]) -> tuple[DealOptions, bool]:
    """What `hand` or `pass` would be given for one row of deals."""
    cell: dict[str, str] = {}
    for index, text in enumerate(row.cells):
        if index not in columns:
            if text:
                raise NapError(
                    _("column {index} has no heading, so '{text}' means nothing").format(
                        index=index + 1, text=text[:40]
                    )
                )
            continue
        cell[columns[index]] = text
    bid, bidder = cell.get("bid", ""), cell.get("bidder", "")
    result, revoker = cell.get("result", ""), cell.get("revoker", "")
    common = DealOptions(
        dealer=cell.get("dealer") or None,
        peeps=_names(cell.get("peeps", "")) or None,
        buys=_purchases(cell.get("purchases", "")) or None,
        note=cell.get("note") or None,
    )
    if not bid:
        raise NapError(_("the bid is empty: write the bid, or pass for a passed-out deal"))
    if vocabulary.is_pass(bid):
        if bidder or result or revoker:
            raise NapError(_("a passed-out deal has no bidder, result or revoker"))
        return common, True
    if not bidder:
        raise NapError(_("who bid {bid}? the bidder is empty").format(bid=bid))
    return replace(
        _outcome(result, revoker),
        bid=bid,
        by=bidder,
        dealer=common.dealer,
        peeps=common.peeps,
        buys=common.buys,
        note=common.note,
    ), False


def _outcome(result: str, revoker: str) -> DealOptions:
    """The result cell (and the revoker's) as `hand` takes them: the tricks taken, made,
    failed, or a revoke (`ренонс`, alone or with who revoked)."""
    words = result.split()
    if not words:
        if revoker:
            return DealOptions(revoke=revoker)
        raise NapError(_("the result is empty: write the tricks taken, made, failed or a revoke"))
    if is_whole(result):
        return DealOptions(tricks=whole(result, _("the tricks taken")), revoke=revoker or None)
    short = vocabulary.tricks_short(words)
    if short is not None:  # `без двух`: two tricks short
        return DealOptions(short=short, revoke=revoker or None)
    meaning, length = vocabulary.phrase_at(words)
    rest = " ".join(words[length:])
    if meaning == vocabulary.REVOKE:
        if rest and revoker and vocabulary.word_key(rest) != vocabulary.word_key(revoker):
            raise NapError(
                _("the result says '{result}' but the revoker is '{revoker}'").format(
                    result=result, revoker=revoker
                )
            )
        if not (rest or revoker):
            raise NapError(_("say who revoked: the revoker, or the name after the revoke"))
        return DealOptions(revoke=rest or revoker)
    if meaning in (vocabulary.MADE, vocabulary.FAILED) and not rest:
        return DealOptions(
            made=meaning == vocabulary.MADE,
            failed=meaning == vocabulary.FAILED,
            revoke=revoker or None,
        )
    raise NapError(
        _(
            "the result '{result}' is not the tricks taken, made, failed or a revoke "
            "(e.g. 3, made, failed, revoke)"
        ).format(result=result[:40])
    )


def _names(text: str) -> tuple[str, ...]:
    """Players in one cell, separated by commas (a name holds no comma)."""
    return tuple(p.strip() for p in text.split(",") if p.strip())


def _purchases(text: str) -> tuple[tuple[str, int], ...]:
    """`Ann=2, Ben`: who bought how many cards (one when no number is given)."""
    bought = []
    for item in _names(text):
        player, sep, count = item.rpartition("=")
        if sep:
            bought.append((player.strip(), whole(count, _("cards bought"))))
        else:
            bought.append((item, 1))
    return tuple(bought)


def _played(terms: _Terms, deals: Sequence[SheetDeal]) -> Sheet:
    """The sheet, once every deal was recorded on the core's session as the service will;
    the first that the rules refuse is named by its line."""
    first_dealer = deals[0].options.dealer if deals else None
    where = deals[0].line if deals else terms.lines["players"]
    try:
        opening = start(
            terms.name,
            terms.rules,
            terms.players,
            first_dealer,
            terms.chip_value,
            terms.currency,
        )
    except NapError as error:
        line = terms.lines["players"] if first_dealer is None else where
        raise SheetError(on_line(line, str(error)), line) from None
    state: SessionState = opened(opening, terms.rules)
    for deal in deals:
        try:
            done = pass_out(state, deal.options) if deal.passed else record(state, deal.options)
        except NapError as error:
            raise SheetError(on_line(deal.line, str(error)), deal.line) from None
        state = done.state
    return Sheet(
        name=terms.name,
        rules=terms.rules,
        players=terms.players,
        chip_value=terms.chip_value,
        currency=terms.currency,
        language=terms.language,
        dealer=opening.first_dealer if first_dealer else None,
        deals=tuple(deals),
        chips=MappingProxyType(state.chips),
        pot=state.pot,
    )
