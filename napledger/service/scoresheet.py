"""A typed paper score sheet in, through the one session service (docs/scoresheet.md).

    sheet = read_sheet(Path("vecher.csv"))      # the whole file read and checked; nothing written
    with database.write() as tx:
        session_id = write_sheet(tx, sheet)     # the session started and every deal recorded

The parsing, free of any database, is the core's (napledger/core/scoresheet.py); this
module only opens the file, and writes what it read the way `new`, `hand` and `pass` do,
so every rule and check of the service applies.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from napledger.core.errors import NapError
from napledger.core.files import NotRegular, read_small
from napledger.core.read.messages import on_line
from napledger.core.reasons import os_reason
from napledger.core.rules import Rules, load_rules
from napledger.core.scoresheet import Sheet, SheetError, parse_sheet
from napledger.core.words import _

if TYPE_CHECKING:
    from napledger.service.api import Transaction

__all__ = ["Sheet", "SheetError", "read_sheet", "write_sheet"]

MAX_SHEET = 16 * 1024 * 1024  # bytes: some 300,000 deals typed, far beyond any table's years


def read_sheet(path: Path) -> Sheet:
    """The score sheet at `path`, read and every deal checked by the rules (no database).

    UTF-8, with or without the byte-order mark Excel writes. A rule file the header names
    by a relative path is found beside the sheet. A sheet that cannot be imported is a
    `SheetError` naming the first line that is wrong and why."""
    text = _text(path)

    def rules_from(game: str) -> Rules:
        own = Path(game).expanduser()
        if game.endswith(".toml") or "/" in game or "\\" in game:
            return load_rules(str(own if own.is_absolute() else path.parent / own))
        return load_rules(game)

    return parse_sheet(text, rules_from)


def _text(path: Path) -> str:
    """The file's text: a regular file of a sheet's size, in UTF-8; else one clear line."""
    try:
        data = read_small(path, MAX_SHEET)
    except OSError as error:
        raise NapError(
            _("cannot read {path}: {why}").format(path=path, why=os_reason(error))
        ) from None
    except NotRegular:  # a folder, a FIFO: before it is read
        raise NapError(_("{path} is not a regular file").format(path=path)) from None
    if len(data) > MAX_SHEET:
        raise NapError(
            _("{path} is over {mb} MB; a score sheet is far smaller").format(
                path=path, mb=MAX_SHEET // (1024 * 1024)
            )
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        message = _("{path} is not UTF-8 text; save it as CSV UTF-8").format(path=path)
        raise SheetError(on_line(line, message), line) from None


def write_sheet(
    tx: Transaction,
    sheet: Sheet,
    *,
    name: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Start the sheet's session (named `name`, else as its header says) and record every
    deal through the session service, in the caller's transaction; its id. A deal the
    service refuses is a `SheetError` naming its line (the caller's transaction is then
    rolled back: nothing is written). `progress`, if given, is told how many deals are
    recorded after each one (of `sheet.deal_count`)."""
    board = tx.new_session(
        sheet.name if name is None else name,
        sheet.rules,
        sheet.players,
        sheet.chip_value,
        sheet.currency,
        sheet.dealer,
        None,
        sheet.language,
    )
    session_id = board.session.id
    session = tx.session(str(session_id))
    for done, deal in enumerate(sheet.deals, 1):
        try:
            if deal.passed:
                session.pass_(deal.options)
            else:
                session.record(deal.options)
        except NapError as error:
            raise SheetError(on_line(deal.line, str(error)), deal.line) from None
        if progress is not None:
            progress(done)
    return session_id
