"""What the live page reads, inside the caller's transaction: the session's board, a deal
to amend, the list of sessions, and the session's JSON documents, each made from the
core's read model (napledger/core/read/page.py) as `hands`, `table` and `settle` make
theirs. With a `KeptHistory` (a page's), only the deals recorded since it last looked
are scored, and nothing walks the whole evening. And the organiser's new session
(`start`), answered again when its form is sent again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from napledger.core.errors import NapError
from napledger.core.read import page
from napledger.core.read.board import Scoreboard
from napledger.core.read.page import Amending, Board, SessionItem
from napledger.core.read.settlement import Settlement
from napledger.core.read.timeline import History
from napledger.core.rules import Rules
from napledger.service.api import Database, SessionAPI, Transaction
from napledger.service.kept import KeptHistory


def history(s: SessionAPI, kept: KeptHistory | None = None) -> tuple[History, Settlement, int]:
    """The session's history (its closes too) and settlement, and the id of the newest
    deal record read: from the kept history when there is one, else afresh."""
    if kept is not None:
        found, settled = kept.read(s)
        return found, settled, kept.newest
    found = s.history()
    return found, s.settlement(), max((d.id for d in found.deals), default=0)


def board(s: SessionAPI, kept: KeptHistory | None = None, recent: int = 8) -> Board:
    """The session's page: its board, last `recent` deals and rows, chart and settlement."""
    return page.board(*history(s, kept), recent=recent)


def amending(s: SessionAPI, number: int) -> Amending:
    """Deal `number` as its amend form shows it (refused as amend refuses: no such deal)."""
    revision, deal = s.deal(number)
    return page.amending(s.scoreboard().rules, number, revision, deal)


def sessions(tx: Transaction) -> list[SessionItem]:
    """Every session as the list shows it, the newest first (each one scored)."""
    current = tx.current_id()
    return [page.session_item(t, current) for t in reversed(tx.sessions())]


def session_items(tx: Transaction, ids: Iterable[int]) -> dict[int, SessionItem]:
    """The list's rows of the sessions `ids` only, each scored on its own."""
    current = tx.current_id()
    return {sid: page.session_item(tx.session(str(sid)).scoreboard(), current) for sid in ids}


def session_marks(tx: Transaction) -> dict[int, tuple[object, ...]]:
    """What the list of sessions shows of each session changes only when its mark does:
    the session's `last_change`, and whether it is the current one (no session scored)."""
    current = tx.current_id()
    return {sid: (mark, sid == current) for sid, mark in tx.last_changes().items()}


def documents(s: SessionAPI, kept: KeptHistory | None = None) -> dict[str, Any]:
    """The session as `table --json`, `hands --json` and `settle --json` print it, in one,
    and its timeline as `hands` and the page list it."""
    from napledger.service.documents import (
        hands_json,
        settlement_json,
        table_document,
        timeline_json,
    )

    found, settled, _newest = history(s, kept)
    return {
        "table": table_document(s),
        "hands": hands_json(found),
        "timeline": timeline_json(found),
        "settle": settlement_json(settled),
    }


def start(
    database: Database,
    name: str,
    rules: Rules,
    players: Sequence[str],
    chip_value: Decimal | None = None,
    currency: str | None = None,
    dealer: str | None = None,
    carry_from: str | None = None,
) -> Scoreboard:
    """A new session, as `new` starts it; refused as a session of that name, unless it is
    the one this same form started (same rules and players, nothing played or seated
    since): then its board again, the form's first answer."""
    try:
        with database.write() as tx:
            return tx.new_session(name, rules, players, chip_value, currency, dealer, carry_from)
    except NapError:
        with database.read() as tx:
            again = tx.started_already(name, rules, players)
        if again is None:
            raise
        return again
