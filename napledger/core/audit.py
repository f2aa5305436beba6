"""Checking a session against its own records: a pure function, every problem returned as data.

The deal records and the session's frozen rules are the truth; the entries and pot
figures stored beside them are derived. Re-deriving them (through the one history) and
comparing is what makes a stored number trustworthy, or shows that someone edited the
file by hand. The store only fetches what is checked (`store/verify.py`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from napledger.core.errors import NapError
from napledger.core.ledger import account_name, changes_from, imbalance
from napledger.core.numbers import written
from napledger.core.read.history import Revision, ScoredDeal, final_pot, score_history
from napledger.core.read.said import deals_counted
from napledger.core.read.timeline import status_said
from napledger.core.rules import rules_from_dict
from napledger.core.rules.scoring import close_payments
from napledger.core.seating import Dealt, RosterChange, misdealt, seated_at
from napledger.core.words import N_, _, ngettext


def signed_chips(chips: int) -> str:
    """Chips with their sign always shown, +0 included (a stored figure against a derived one)."""
    return written(f"{chips:+d}")


@dataclass(frozen=True)
class Problem:
    message: str
    session: str | None = None  # the session's name; None for the database as a whole
    deal: int | None = None  # the deal's number; None for the session as a whole

    @property
    def where(self) -> str:
        """Where the problem is, as a report names it: "session fri deal 4", "database"."""
        parts = [
            _("session {id}").format(id=self.session)
            if self.session is not None
            else _("database"),
            _("deal {n}").format(n=self.deal) if self.deal is not None else "",
        ]
        return " ".join(part for part in parts if part)


@dataclass(frozen=True)
class Report:
    problems: list[Problem]
    sessions: int
    deals: int

    def said(self) -> str:
        """The report's verdict: everything checks out, or how many problems it found."""
        if self.problems:
            count = len(self.problems)
            return ngettext(
                "{n} problem in the ledger", "{n} problems in the ledger", count
            ).format(n=count)
        return ngettext(
            "All {sessions} session, {deals} check out.",
            "All {sessions} sessions, {deals} check out.",
            self.sessions,
        ).format(sessions=self.sessions, deals=deals_counted(self.deals))


@dataclass(frozen=True)
class CarriedPot:
    """The session a pot was carried from, as it closed."""

    name: str
    pot_to: str | None
    pot: int


@dataclass(frozen=True)
class StoredClose:
    """A close not taken back (`reopen`), as its record keeps it."""

    pot_to: str
    pot: int  # chips in the pot at the close
    # The close's changes: the chips it moved into (+) or out of (-) each
    # account, the pot's included (not what each account held at the close).
    shares: Mapping[str, int]


@dataclass(frozen=True)
class SessionRecords:
    """Everything about one session that is checked, as stored."""

    name: str
    rules_json: str
    opening_pot: int
    carried_from: int | None
    carried: CarriedPot | None  # the source session, when it still exists
    closed: bool
    pot_to: str | None
    seating: tuple[str, ...]
    first_dealer: str
    deals: Sequence[Revision]  # every revision, by number then revision (read or not)
    closing: Mapping[str, int]  # the entries of the close
    roster: Sequence[RosterChange]
    next_number: int
    # Each close not taken back (`reopen`): one at most; None: not checked.
    live_closes: Sequence[StoredClose] | None = None


ProblemMaker = Callable[..., Problem]  # a session's `problem(message, deal=None)`


def check_session(s: SessionRecords) -> list[Problem]:
    def problem(message: str, deal: int | None = None) -> Problem:
        return Problem(message, s.name, deal)

    try:
        rules = rules_from_dict(json.loads(s.rules_json), _("the session's stored rules"))
    except (NapError, ValueError) as error:
        return [problem(_("its rules cannot be read: {error}").format(error=error))]
    history = list(score_history(rules, s.deals, s.opening_pot, strict=False))
    live = [d for d in history if d.live]
    problems = numbering(s.deals, problem) + check_carried(s, problem)
    problems += check_roster(s, history, problem)
    for d in live:
        if imbalance(d.changes):
            problems.append(
                problem(
                    _("its entries sum to {chips} chips, not 0").format(
                        chips=signed_chips(imbalance(d.changes))
                    ),
                    d.number,
                )
            )
        if d.error is not None:
            problems.append(
                problem(_("its record cannot be scored: {error}").format(error=d.error), d.number)
            )
            continue  # the next deals go on from the pot stored here: one bad deal, one problem
        problems += differences(d.changes, changes_from(d.payments), d.number, problem)
        if d.stored_pot_after != d.pot_after:
            problems.append(
                problem(
                    _("stored pot after it is {stored}, re-derived {derived}").format(
                        stored=d.stored_pot_after, derived=d.pot_after
                    ),
                    d.number,
                )
            )
    for d in history:
        if not d.live and d.changes:
            problems.append(
                problem(
                    _("it is {status} but still has entries").format(status=status_said(d.status)),
                    d.number,
                )
            )
    problems += check_close(s, final_pot(history, s.opening_pot), problem)
    return problems


def check_roster(
    s: SessionRecords, history: list[ScoredDeal], problem: ProblemMaker
) -> list[Problem]:
    """Each deal was dealt to whom the roster seated then, by whom the deal had passed to,
    and the table sits as the roster says now."""
    try:
        seated_at(s.roster, s.next_number)
    except ValueError:  # a leave of someone who was not seated
        return [problem(_("its roster cannot be replayed: someone leaves who was not seated"))]
    problems = []
    for d in history:
        if d.deal is None or not d.live:
            continue  # an unreadable record is reported where the deal is scored
        if d.deal.seated != seated_at(s.roster, d.number):
            problems.append(problem(_("its players are not whom the roster seated"), d.number))
    if s.seating != seated_at(s.roster, s.next_number):
        problems.append(problem(_("the table does not sit as its roster says")))
    dealt = [
        Dealt(d.number, d.live, d.deal.dealer, d.deal.seated, d.deal.dealer_named)
        for d in history
        if d.deal is not None
    ]
    for wrong, rightful in misdealt(s.roster, s.first_dealer, dealt) if s.roster else ():
        problems.append(
            problem(
                _("{dealer} dealt it, but the deal had passed to {rightful}").format(
                    dealer=wrong.dealer, rightful=rightful
                ),
                wrong.number,
            )
        )
    return problems


def check_carried(s: SessionRecords, problem: ProblemMaker) -> list[Problem]:
    """A session opens with exactly the pot the session it carries from closed with."""
    if s.carried_from is None:
        return (
            [
                problem(
                    _("it opens with {chips} chips in the pot but carries no pot").format(
                        chips=s.opening_pot
                    )
                )
            ]
            if s.opening_pot
            else []
        )
    source = s.carried
    if source is None or source.pot_to != "carry":
        return [problem(_("it carries the pot of a session that did not carry one"))]
    if source.pot != s.opening_pot:
        return [
            problem(
                _("it opens with {chips} chips, but '{source}' carried {carried}").format(
                    chips=s.opening_pot, source=source.name, carried=source.pot
                )
            )
        ]
    return []


def numbering(deals: Sequence[Revision], problem: ProblemMaker) -> list[Problem]:
    """Deals are numbered 1, 2, 3, ... with no gap, each number live at most once."""
    problems = []
    numbers = sorted({d.number for d in deals})
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(
            problem(
                _("its deals are numbered {numbers}, not 1 to {count}").format(
                    numbers=numbers, count=len(numbers)
                )
            )
        )
    for number in numbers:
        live = [d for d in deals if d.number == number and d.live]
        if len(live) > 1:
            problems.append(
                problem(_("{count} live revisions of one deal").format(count=len(live)), number)
            )
    return problems


def check_close(s: SessionRecords, pot: int, problem: ProblemMaker) -> list[Problem]:
    """The closing entries pay out the pot as the session says it went, and the close's own
    record says the same: where the pot went, how much was in it, who got what."""
    # A close that does not say where the pot went was a split: migration 0004 recorded
    # such a close as one, so both sides read NULL the same way.
    pot_to = "split" if s.pot_to is None else s.pot_to
    if s.live_closes is not None and [c.pot_to for c in s.live_closes] != (
        [pot_to] if s.closed else []
    ):
        return [problem(_("its close record does not match whether and how it closed"))]
    if not s.closed:
        return [problem(_("it is open but has closing entries"))] if s.closing else []
    problems = []
    if imbalance(s.closing):
        problems.append(
            problem(
                _("its closing entries sum to {chips} chips, not 0").format(
                    chips=signed_chips(imbalance(s.closing))
                )
            )
        )
    expected = changes_from(close_payments(pot, s.seating, pot_to))
    for p in differences(s.closing, expected, None, problem):
        problems.append(problem(_("at the close, {problem}").format(problem=p.message)))
    for close in s.live_closes or ():
        if close.pot != pot:
            problems.append(
                problem(
                    _("its close record has {chips} chips in the pot, re-derived {derived}").format(
                        chips=close.pot, derived=pot
                    )
                )
            )
        for p in differences(close.shares, s.closing, None, problem, N_("its closing entries")):
            problems.append(problem(_("in its close record, {problem}").format(problem=p.message)))
    return problems


def differences(
    stored: Mapping[str, int],
    derived: Mapping[str, int],
    number: int | None,
    problem: ProblemMaker,
    derived_as: str = N_("re-derived"),
) -> list[Problem]:
    problems = []
    for account in sorted(set(stored) | set(derived)):
        have, want = stored.get(account, 0), derived.get(account, 0)
        if have != want:
            problems.append(
                problem(
                    _("{account} is stored as {have} chips, {derived_as} {want}").format(
                        account=account_name(account),
                        have=signed_chips(have),
                        derived_as=_(derived_as),
                        want=signed_chips(want),
                    ),
                    number,
                )
            )
    return problems
