"""How the evening reads: the rules every front end draws it by, decided once.

The terminal, `--json`, the page and the workbook show the same evening (the read
model: `napledger.store.views`). How its players are ordered, how a deal is labelled and
how a step of the running balances is named are decided here, and each front end only
renders the result; signs are `napledger.core.numbers.signed`, money
`napledger.core.money`, a deal's payments in order `napledger.core.ledger.in_seat_order`.
Pure: the front ends call it, it calls none of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date

from napledger.core.numbers import signed
from napledger.core.seating import RosterChange
from napledger.core.words import NC_, _, language, ngettext, pgettext

# The timeline's rows for the pot coming in and going out, where a deal's label would be
# (the terminal's `hands`, the workbook's Deals): NC_, to be said with `pot_row_label`.
OPEN, CLOSE = NC_("deal cell", "open"), NC_("deal cell", "close")


def revision_suffix(revision: int) -> str:
    """What a deal's label adds to its number: nothing for its first version, `.2` for its
    second (docs/glossary.md: revision)."""
    return f".{revision}" if revision > 1 else ""


def deal_label(number: int, revision: int) -> str:
    """A deal's version as every front end names it: N, or N.2 for deal N's second version."""
    return f"{number}{revision_suffix(revision)}"


def step_number(label: str) -> str:
    """A step of the running balances as a chart's axis names it: the deal's number (3,
    not 3.2 once amended: the axis counts deals), or `close`."""
    return label.partition(".")[0]


def by_chips(players: Sequence[str], chips: Mapping[str, int]) -> list[str]:
    """The scoreboard's order: most chips first; a tie in the order the players sat down."""
    seat = {p: i for i, p in enumerate(players)}
    return sorted(players, key=lambda p: (-chips.get(p, 0), seat[p]))


def pot_row_label(which: str) -> str:
    """`OPEN` or `CLOSE` as the timeline's row names it, in the language spoken."""
    return pgettext("deal cell", which)


def pot_carried_in(pot: int, source: str | None) -> str:
    """A session's pot carried in from another one, as its timeline says it."""
    if source:
        return _("pot of {n} carried in from {session}").format(n=pot, session=source)
    return _("pot of {n} carried in").format(n=pot)


def pot_at_close(pot: int, pot_to: str, carried_to: str | None = None) -> str:
    """Where a close sent the pot, as the timeline says it: split, to one player, or
    carried (to the session that took it, once one has)."""
    if pot_to == "carry" and carried_to:
        said = _("pot of {n} carried to {session}")
    elif pot_to == "carry":
        said = _("pot of {n} carried on")
    elif pot_to == "split":
        said = _("pot of {n} split")
    else:
        said = _("pot of {n} to {player}")
    return said.format(n=pot, session=carried_to, player=pot_to)


def shares_said(shares: Iterable[tuple[str, int]]) -> str:
    """Each player's share of a pot paid out at a close, signed as every change is:
    "Ann +2, Ben +2"."""
    return ", ".join(f"{player} {signed(chips)}" for player, chips in shares)


def roster_said(change: RosterChange) -> str:
    """A join or a leave as the timeline says it."""
    if change.kind == "leave":
        return _("{player} leaves the table").format(player=change.player)
    return _("{player} sits down in seat {seat}").format(player=change.player, seat=change.seat + 1)


def deals_counted(played: int, voided: int = 0) -> str:
    """How many deals a session has, said the same by the terminal, the page and the
    workbook: the deals played, the voided ones apart ("13 deals, 1 voided" after deal
    14), so the count never seems to disagree with the deal numbers."""
    said = ngettext("{n} deal", "{n} deals", played).format(n=played)
    if not voided:
        return said
    apart = ngettext("{n} voided", "{n} voided", voided).format(n=voided)
    return _("{deals}, {voided}").format(deals=said, voided=apart)


def next_to_deal(player: str, sits_out: bool = False) -> str:
    """Who deals next (`player` as the front end shows the name), and whether they sit
    the deal out (at a table as big as dealer_sits_out_from)."""
    if sits_out:
        return _("Next to deal: {player}, who sits out: no cards, no bid").format(player=player)
    return _("Next to deal: {player}").format(player=player)


def pot_went(pot_to: str | None) -> str:
    """Where a closed session's pot went, in a word: split, carry, or the player."""
    if pot_to == "split":
        return _("split")
    if pot_to == "carry":
        return _("carry")
    return pot_to or ""


def closed_pot(pot_to: str | None) -> str:
    """A closed session's footer: where its pot went."""
    return _("Closed; pot: {where}.").format(where=pot_went(pot_to))


def deals_of(session: str) -> str:
    """The title of a session's list of deals."""
    return _("{session}: deals").format(session=session)


def evening_title(sessions: Sequence[str]) -> str:
    """What an evening is called on every printed page: its sessions' names."""
    if not sessions:
        return _("napledger: no sessions")
    return _("Nap evening: {sessions}").format(sessions=", ".join(sessions))


def evening_line(days: Sequence[date], sessions: int, deals: int, voided: int = 0) -> str:
    """An evening in one line: its day (or first and last), its sessions and deals (the
    voided ones apart)."""
    if len(days) == 1:
        when = day_said(days[0])
    else:
        when = _("{first} to {last}").format(first=day_said(days[0]), last=day_said(days[-1]))
    sessions_said = ngettext("{n} session", "{n} sessions", sessions).format(n=sessions)
    return f"{when} · {sessions_said} · {deals_counted(deals, voided)}"


def played_in(sessions: Sequence[str]) -> str:
    """The sessions played under one set of rules."""
    return _("Played in: {sessions}").format(sessions=", ".join(sessions))


def day_said(day: date) -> str:
    """A day as the language writes it: Thu 3 Dec 2026, чт 3 дек. 2026, czw. 3 gru 2026."""
    if language() == "en":
        return f"{day:%a} {day.day} {day:%b %Y}"
    weekday = pgettext("weekday", WEEKDAYS[day.weekday()])
    month = pgettext("month of a date", MONTHS[day.month - 1])
    return f"{weekday} {day.day} {month} {day.year}"


# A date's words, for the languages other than English (which Python's C locale writes).
WEEKDAYS = (
    NC_("weekday", "Mon"),
    NC_("weekday", "Tue"),
    NC_("weekday", "Wed"),
    NC_("weekday", "Thu"),
    NC_("weekday", "Fri"),
    NC_("weekday", "Sat"),
    NC_("weekday", "Sun"),
)
MONTHS = (
    NC_("month of a date", "Jan"),
    NC_("month of a date", "Feb"),
    NC_("month of a date", "Mar"),
    NC_("month of a date", "Apr"),
    NC_("month of a date", "May"),
    NC_("month of a date", "Jun"),
    NC_("month of a date", "Jul"),
    NC_("month of a date", "Aug"),
    NC_("month of a date", "Sep"),
    NC_("month of a date", "Oct"),
    NC_("month of a date", "Nov"),
    NC_("month of a date", "Dec"),
)


def table_prompt(session: str, number: int, dealer: str | None) -> str:
    """Where the table is, as `play`'s prompt says it: the session, the next deal and its
    dealer (None: the session is closed)."""
    if dealer is None:
        return _("{session} (closed)> ").format(session=session)
    return _("{session} · deal {n} · {dealer} deals> ").format(
        session=session, n=number, dealer=dealer
    )
