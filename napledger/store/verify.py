"""Checking a ledger against its own records: every problem found is returned as data.

The deal records and each session's frozen rules are the truth; the entries and pot
figures stored beside them are derived. Re-deriving them from scratch and comparing is
what makes a stored number trustworthy (or shows that someone edited the file by hand).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from sqlalchemy import text

from napledger.errors import NapError
from napledger.ledger import imbalance, postings
from napledger.rules.scoring import close_transfers, replay
from napledger.seating import Dealt, misdealt, seated_at
from napledger.store.book import Book, deal_from_json
from napledger.store.models import DealRow, SessionRow


@dataclass(frozen=True)
class Problem:
    message: str
    session: str | None = None  # the session's name; None for the database as a whole
    deal: int | None = None  # the deal's number; None for the session as a whole


ProblemMaker = Callable[..., Problem]  # a session's `problem(message, deal=None)`


@dataclass(frozen=True)
class Report:
    problems: list[Problem]
    sessions: int
    deals: int


def verify(book: Book) -> Report:
    problems = integrity(book)
    sessions = book.sessions()
    deals = 0
    for row in sessions:
        problems += check_session(book, row)
        deals += len(book.live_deals(row))
    return Report(problems, len(sessions), deals)


def integrity(book: Book) -> list[Problem]:
    """SQLite's own check of pages, indexes and foreign keys."""
    connection = book.db.connection()
    if connection.dialect.name != "sqlite":
        return []
    found = [r[0] for r in connection.execute(text("PRAGMA integrity_check"))]
    problems = [Problem(f"integrity check: {line}") for line in found if line != "ok"]
    for table, rowid, parent, _ in connection.execute(text("PRAGMA foreign_key_check")):
        problems.append(Problem(f"{table} row {rowid} points to a missing {parent} row"))
    return problems


def check_session(book: Book, row: SessionRow) -> list[Problem]:
    def problem(message: str, deal: int | None = None) -> Problem:
        return Problem(message, str(row.name), deal)

    try:
        rules = book.rules(row)
    except NapError as error:
        return [problem(f"its rules cannot be read: {error}")]
    live = book.live_deals(row)
    problems = numbering(book.all_deals(row), problem) + check_carried(book, row, problem)
    problems += check_roster(book, row, live, problem)
    entries = book.entries_by_deal(row)
    pot = row.opening_pot
    for deal_row in live:
        stored = entries.get(deal_row.id, {})
        if imbalance(stored):
            problems.append(
                problem(f"its entries sum to {imbalance(stored):+d} chips, not 0", deal_row.number)
            )
        try:
            scored = replay(rules, [deal_from_json(deal_row.record_json)], pot)[0]
        except (NapError, ValueError, KeyError, TypeError) as error:
            problems.append(problem(f"its record cannot be scored: {error}", deal_row.number))
            # Carry on from what was stored, so one bad deal is one problem.
            pot = deal_row.pot_after
            continue
        pot = scored.pot_after
        problems += differences(stored, postings(scored.transfers), deal_row.number, problem)
        if deal_row.pot_after != scored.pot_after:
            problems.append(
                problem(
                    f"stored pot after it is {deal_row.pot_after}, re-derived {scored.pot_after}",
                    deal_row.number,
                )
            )
    live_ids = {d.id for d in live}
    for deal_row in book.all_deals(row):
        if deal_row.id not in live_ids and entries.get(deal_row.id):
            problems.append(
                problem(f"it is {deal_row.status} but still has entries", deal_row.number)
            )
    problems += check_close(row, pot, entries.get(None, {}), problem)
    return problems


def check_roster(
    book: Book, row: SessionRow, live: list[DealRow], problem: ProblemMaker
) -> list[Problem]:
    """Each deal was dealt to whom the roster seated then, and the table sits as it says now."""
    changes = book.roster(row)
    try:
        seated_at(changes, book.next_number(row))
    except ValueError:  # a leave of someone who was not seated
        return [problem("its roster cannot be replayed: someone leaves who was not seated")]
    problems = []
    for deal_row in live:
        try:
            seated = deal_from_json(deal_row.record_json).seated
        except (ValueError, KeyError, TypeError):
            continue  # reported where the deal is scored
        if seated != seated_at(changes, deal_row.number):
            problems.append(problem("its players are not whom the roster seated", deal_row.number))
    if book.seating(row) != seated_at(changes, book.next_number(row)):
        problems.append(problem("the table does not sit as its roster says"))
    dealt = []
    for deal_row in book.all_deals(row):
        try:
            record = deal_from_json(deal_row.record_json)
        except (ValueError, KeyError, TypeError):
            continue
        is_live = deal_row.status == "live"
        dealt.append(
            Dealt(deal_row.number, is_live, record.dealer, record.seated, record.dealer_named)
        )
    for wrong, rightful in misdealt(changes, row.first_dealer, dealt) if changes else ():
        problems.append(
            problem(f"{wrong.dealer} dealt it, but the deal had passed to {rightful}", wrong.number)
        )
    return problems


def check_carried(book: Book, row: SessionRow, problem: ProblemMaker) -> list[Problem]:
    """A session opens with exactly the pot the session it carries from closed with."""
    if row.carried_from is None:
        return (
            [problem(f"it opens with {row.opening_pot} chips in the pot but carries no pot")]
            if row.opening_pot
            else []
        )
    source = book.db.get(SessionRow, row.carried_from)
    if source is None or source.pot_to != "carry":
        return [problem("it carries the pot of a session that did not carry one")]
    if book.pot(source) != row.opening_pot:
        return [
            problem(
                f"it opens with {row.opening_pot} chips, but {source.name!r} carried {book.pot(source)}"
            )
        ]
    return []


def numbering(deals: list[DealRow], problem: ProblemMaker) -> list[Problem]:
    """Deals are numbered 1, 2, 3, ... with no gap, each number live at most once."""
    problems = []
    numbers = sorted({d.number for d in deals})
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(problem(f"its deals are numbered {numbers}, not 1 to {len(numbers)}"))
    for number in numbers:
        live = [d for d in deals if d.number == number and d.status == "live"]
        if len(live) > 1:
            problems.append(problem(f"{len(live)} live revisions of one deal", number))
    return problems


def check_close(
    row: SessionRow, pot: int, stored: Mapping[str, int], problem: ProblemMaker
) -> list[Problem]:
    if row.closed_at is None:
        if stored:
            return [problem("it is open but has closing entries")]
        return []
    problems = []
    if imbalance(stored):
        problems.append(problem(f"its closing entries sum to {imbalance(stored):+d} chips, not 0"))
    seating = tuple(json.loads(row.seating_json))
    expected = postings(close_transfers(pot, seating, str(row.pot_to)))
    for p in differences(stored, expected, None, problem):
        problems.append(problem(f"at the close, {p.message}"))
    return problems


def differences(
    stored: Mapping[str, int], derived: Mapping[str, int], number: int | None, problem: ProblemMaker
) -> list[Problem]:
    problems = []
    for account in sorted(set(stored) | set(derived)):
        have, want = stored.get(account, 0), derived.get(account, 0)
        if have != want:
            problems.append(
                problem(f"{account} is stored as {have:+d} chips, re-derived {want:+d}", number)
            )
    return problems
