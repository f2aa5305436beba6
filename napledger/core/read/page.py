"""One session as the live page shows it, and the list of sessions: the read model the
page lays out, with every sentence about the evening it shows said here.

Built from the history and settlement the service reads (`board`), from a scoreboard
(`session_item`), or from one deal (`amending`); the page only places what these hold.
Some sentences keep the `%(name)s` placeholders they had in the page's templates, so
their translations in the catalogs still find them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from napledger.core.ledger import POT
from napledger.core.read.board import Scoreboard, Standing
from napledger.core.read.messages import deal_number_said
from napledger.core.read.said import deal_label, deals_counted, next_to_deal, step_number
from napledger.core.read.settlement import Settlement
from napledger.core.read.timeline import History, Row
from napledger.core.rules import Deal, Rules
from napledger.core.rules.choices import Choices, choices
from napledger.core.rules.scoring import describe
from napledger.core.rules.texts import rule_text
from napledger.core.words import _

T = TypeVar("T")
# The most points of each player's line in the chart: one per 3 pixels of a phone's width.
CHART_STEPS = 100


def void_question(label: str, text: str) -> str:
    """What voiding a deal asks first, naming it: "Void deal 12: Ann dealt · …?"."""
    return _("Void deal {label}: {text}?").format(label=label, text=text)


@dataclass(frozen=True)
class DealView:
    number: int
    label: str  # "5", or "5.2" for deal 5's second version
    text: str
    changes: tuple[tuple[str, int], ...]  # seat order, the pot last


@dataclass(frozen=True)
class Board:
    """One session as its page shows it."""

    id: int
    name: str
    title: str
    closed: bool
    scoreboard: Scoreboard  # the read model's board: its money is written by shown_money
    players: tuple[Standing, ...]  # the board's lines, in its order
    pot: int
    hands: int
    voided: int  # deal numbers voided: said apart from the deals played
    next_dealer: str | None
    deals: tuple[DealView, ...]  # the live deals offered to amend, the latest first
    rows: tuple[Row, ...]  # the timeline's last rows, the latest first
    # Each player's balance after each step (a deal or the close), None while away; then
    # the pot's, where it ever holds chips. `steps` names the steps: "12", "close".
    series: tuple[tuple[str, tuple[int | None, ...]], ...]
    steps: tuple[str, ...]
    settlement: Settlement  # if the session closed now: its transfers, written by shown_money
    newest: int  # the id of the newest deal record: a live page counts from it
    # What the scorekeeper's form offers for the next deal.
    seated: tuple[str, ...]
    bids: tuple[str, ...]
    hand_size: int
    choices: Choices
    last_deal: int | None
    last_revision: int | None  # the version of the last deal shown: what amend and undo expect
    next_number: int  # the number the next deal will take: what the form expects
    seating_version: int = 0  # changes to who sits so far: what a join or leave expects
    closes: int = 0  # closes so far, reopened ones included: what close and reopen expect

    @property
    def hands_said(self) -> str:
        """ "13 deals, 1 voided": as the terminal and the workbook say it."""
        return deals_counted(self.hands, self.voided)

    @property
    def last_label(self) -> str:
        """The last deal as the keeper's buttons name it: 27, or 27.2 once amended."""
        if self.last_deal is None or self.last_revision is None:
            return ""
        return deal_label(self.last_deal, self.last_revision)

    @property
    def upcoming(self) -> str:
        """The next deal and who deals it, as the terminal says it: "Deal 5 · Next to
        deal: Ann" (and whether the dealer sits it out)."""
        said = deal_number_said(self.next_number)
        if not self.next_dealer:
            return said
        return f"{said} · {next_to_deal(self.next_dealer, bool(self.choices.sits_out))}"

    # The keeper's buttons, each naming what it acts on.
    @property
    def record_label(self) -> str:
        return _("Record deal %(number)s") % {"number": self.next_number}

    @property
    def amend_label(self) -> str:
        return _("Amend deal %(number)s") % {"number": self.last_deal}

    @property
    def undo_label(self) -> str:
        return _("Undo deal %(number)s") % {"number": self.last_deal}

    @property
    def close_label(self) -> str:
        return _("Close %(name)s") % {"name": self.name}

    @property
    def reopen_label(self) -> str:
        return _("Reopen %(name)s") % {"name": self.name}

    @property
    def pot_choices(self) -> tuple[tuple[str, str], ...]:
        """Where a close may send the pot, as `close --pot` takes it and as said."""
        return (
            ("split", _("split between the players")),
            ("carry", _("carried to the next session")),
            *((p, _("to %(player)s") % {"player": p}) for p in self.seated),
        )

    # What a risky tap asks first, naming what it will do, drawn from the board shown:
    # a tap on a stale page never asks about another deal than the one it acts on.
    @property
    def undo_question(self) -> str:
        last = self.deals[0] if self.deals else None
        return void_question(last.label, last.text) if last else ""

    @property
    def pass_question(self) -> str:
        return _("Deal {number}: nobody bid. Record it as passed out?").format(
            number=self.next_number
        )

    @property
    def leave_question(self) -> str:
        """ "{player}" left in it: the page puts in the player chosen."""
        return _("Leaving the table: {player}?")

    @property
    def keeper_state(self) -> str:
        """A short mark of everything the keeper's controls show: when it differs from
        the page's, the page fetches them again (whoever changed the session)."""
        shown = (
            self.closed,
            self.next_number,
            self.last_label,
            self.next_dealer,
            self.seated,
            tuple(d.label for d in self.deals),  # the deals offered to amend
        )
        return hashlib.sha256(repr(shown).encode()).hexdigest()[:16]


def board(history: History, settlement: Settlement, newest: int, recent: int = 8) -> Board:
    """The session's page from its history and settlement (as the service read them);
    `newest`: the id of the newest deal record the reading saw."""
    t = history.scoreboard
    info = t.session
    live = history.recent(recent)
    deals = [
        DealView(d.number, d.label, describe(t.rules, d.deal), history.changes(d))
        for d in live
        if d.deal is not None  # the API scores strictly: a live deal has its record
    ]
    rules = t.rules
    allowed = choices(rules, t.seating, t.next_dealer)  # what the next deal allows
    return Board(
        id=info.id,
        name=info.name,
        title=rule_text(rules.title),
        closed=info.closed,
        scoreboard=t,
        players=t.standings,
        pot=t.pot,
        hands=t.hands,
        voided=t.voided,
        next_dealer=t.next_dealer,
        deals=tuple(deals),
        # The timeline's last rows, as hands lists them (napledger.core.read.timeline).
        rows=history.last_rows(recent),
        series=chart_series(history, info.opening_pot),
        # Deal numbers along the bottom, as the workbook's chart: 3, not 3.2 once amended.
        steps=tuple(step_number(label) for label, _, _ in spread(history.steps, CHART_STEPS)),
        settlement=settlement,
        newest=newest,
        seated=t.seating,
        bids=allowed.bids,
        hand_size=rules.hand_size,
        choices=allowed,
        last_deal=live[0].number if live else None,
        last_revision=live[0].revision if live else None,
        next_number=history.next_number,
        seating_version=len(history.roster),
        closes=len(history.closes),
    )


def chart_series(
    history: History, opening_pot: int
) -> tuple[tuple[str, tuple[int | None, ...]], ...]:
    """Each player's balance at each step, None while not at the table, and the pot's
    (opening pot included) where it ever holds chips."""
    steps = spread(history.steps, CHART_STEPS)
    lines = [
        (p, tuple(total.get(p, 0) if p in seated else None for _, total, seated in steps))
        for p in history.scoreboard.players
    ]
    pot = tuple(opening_pot + total.get(POT, 0) for _, total, _ in steps)
    if any(pot):
        lines.append((POT, pot))
    return tuple(lines)


def spread(steps: Sequence[T], most: int) -> Sequence[T]:
    """At most `most` of `steps`, evenly spaced, the last always among them: a chart as
    wide as a phone shows no more, and the page stays the same size however long the
    evening."""
    if len(steps) <= most:
        return steps
    last = len(steps) - 1
    return [steps[round(i * last / (most - 1))] for i in range(most)]


@dataclass(frozen=True)
class Amending:
    """One deal as the keeper's amend form shows it: the same form as a new deal's,
    filled in with what the deal says, offering whom the rules allowed in that deal."""

    number: int
    revision: int  # the version shown: what the correction expects
    label: str  # 5, or 5.2
    text: str
    deal: Deal  # what the form is filled in with
    choices: Choices

    @property
    def heading(self) -> str:
        return _("Amending deal {label}").format(label=self.label)

    @property
    def now(self) -> str:
        return _("Now: %(text)s") % {"text": self.text}

    @property
    def save_label(self) -> str:
        return _("Save deal %(number)s") % {"number": self.number}

    @property
    def void_label(self) -> str:
        return _("Void deal %(number)s") % {"number": self.number}

    @property
    def void_question(self) -> str:
        return void_question(self.label, self.text)


def amending(rules: Rules, number: int, revision: int, deal: Deal) -> Amending:
    """Deal `number` at its live `revision`, to amend or void."""
    return Amending(
        number=number,
        revision=revision,
        label=deal_label(number, revision),
        text=describe(rules, deal),
        deal=deal,
        choices=choices(rules, deal.seated, deal.dealer),
    )


@dataclass(frozen=True)
class SessionItem:
    """One session as the list of sessions shows it."""

    id: int
    name: str
    title: str
    hands: int
    closed: bool
    current: bool
    next_dealer: str | None = None  # None once closed
    game: str = ""  # what a new session may carry its pot from: the same game
    currency: str = ""  # and the same currency
    voided: int = 0  # deal numbers voided: said apart from the deals played

    @property
    def hands_said(self) -> str:
        return deals_counted(self.hands, self.voided)

    @property
    def next_said(self) -> str:
        return next_to_deal(self.next_dealer or "")

    @property
    def keep_link(self) -> str:
        """The organiser's link to the session's scorekeeper page."""
        return _("keep score at %(name)s") % {"name": self.name}


def session_item(t: Scoreboard, current: int | None) -> SessionItem:
    return SessionItem(
        id=t.session.id,
        name=t.session.name,
        title=rule_text(t.rules.title),
        hands=t.hands,
        closed=t.session.closed,
        current=t.session.id == current,
        next_dealer=t.next_dealer,
        game=t.rules.name,
        currency=t.session.currency,
        voided=t.voided,
    )
