"""The small sheets: Summary (the evening's report) and Rules (what the money follows).

Both are built in memory first, so their columns can be sized to fit, and are laid
out as a person reads them: a title, then blocks, each with its own heading and
header row, rather than tables stacked under one frozen header.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from openpyxl.utils import get_column_letter

from napledger.core.dates import written_when
from napledger.core.ledger import POT, account_name
from napledger.core.read import said
from napledger.core.read.notes import pot_at_close_rule, setting_shown, settings, stake_note
from napledger.core.read.report import SessionReport
from napledger.core.read.settlement import (
    EveningPart,
    as_if_closed_now,
    evening,
    everyone_square,
    parties,
    payments_counted,
)
from napledger.core.read.timeline import PotFlow
from napledger.core.rules.load import rules_to_dict
from napledger.core.rules.texts import bid_name, rule_text
from napledger.core.words import N_, _
from napledger.export.cells import (
    CHANGE,
    CHIPS,
    DATETIME,
    Formula,
    excel_datetime,
    money_format,
    money_label,
)
from napledger.export.sheet import MONEY, SIGNED, Column, Sheet
from napledger.export.style import TOTAL
from napledger.export.timeline import Written

NAME_WIDTH = (12.0, 30.0)  # the first columns hold names: at least, at most

TOTAL_COLUMNS = (Column(N_("Player")), Column(N_("Chips"), CHANGE), Column(N_("Money"), SIGNED))
MONEY_ONLY_COLUMNS = (Column(N_("Player")), Column(N_("Money"), SIGNED))
CHECK = N_("Check: sums to zero")
PAYMENT_COLUMNS = (Column(N_("Pays")), Column(N_("To")), Column(N_("Amount"), MONEY))
SESSION_COLUMNS = (
    Column(N_("Name")),
    Column(N_("Variant")),
    Column(N_("Currency")),
    Column(N_("Chip value"), MONEY),
    Column(N_("Created"), DATETIME),
    Column(N_("Closed"), DATETIME),
    Column(N_("Deals"), numeric=True),
    Column(N_("Pot (chips)"), CHIPS),
    Column(N_("Pot (money)"), MONEY),
)
STAKE_COLUMNS = (
    Column(N_("Bid")),
    Column(N_("Tricks"), numeric=True),
    Column(N_("In play"), indent=True),
    Column(N_("Made: each opponent pays"), CHIPS),
    Column(N_("Failed: pays each opponent"), CHIPS),
    Column(N_("What it does to the pot"), indent=True),
)
# The note set in, clear of a number in the value column to its left ("6with 6 or more").
SETTING_COLUMNS = (
    Column(N_("Setting")),
    Column(N_("Value")),
    Column(N_("What it does"), indent=True),
)


def evening_title(sessions: Sequence[SessionReport]) -> str:
    """What the evening is called on every printed page: its sessions' names."""
    return said.evening_title([s.name for s in sessions])


def write_summary(
    sheet: Sheet, sessions: Sequence[SessionReport], history: Written, header: str
) -> None:
    """The evening first (totals, one settlement), then each session's own block.

    No block is split across two printed pages: one that would not fit below the
    last starts a page of its own.
    """
    live_deals = history.live_deals
    name_width = max(_name_width(sessions), len(_(CHECK)) + 1.0)
    variant = max((len(rule_text(s.rules.title)) for s in sessions), default=0) + 2.0
    sheet.set_widths(
        [
            name_width,
            min(max(variant, name_width, 12.0), 24.0),
            9.0,
            10.0,
            16.0,
            16.0,
            7.0,
            7.0,
            9.0,
        ],
        SESSION_COLUMNS,
    )
    sheet.print_at_scale(header, landscape=False)
    sheet.title(evening_title(sessions))
    if not sessions:
        sheet.line(_("No sessions to report."))
        return
    sheet.line(_evening_line(sessions, live_deals))
    parts = evening(sessions)
    for number, part in enumerate(parts, 1):
        _write_part(sheet, part, sessions, number if len(parts) > 1 else None)
    if any(s.closed is None for s in sessions):
        sheet.line(as_if_closed_now())
    for number, (session, live, pot) in enumerate(
        zip(sessions, live_deals, history.pots, strict=True), 1
    ):
        _write_session(sheet, session, live, pot, number)
    _write_sessions_table(sheet, sessions, live_deals)


def _evening_line(sessions: Sequence[SessionReport], live_deals: Sequence[int]) -> str:
    days = sorted({excel_datetime(s.created).date() for s in sessions})
    return said.evening_line(
        days, len(sessions), sum(live_deals), sum(s.board.voided for s in sessions)
    )


def _write_part(
    sheet: Sheet, part: EveningPart, sessions: Sequence[SessionReport], number: int | None
) -> None:
    """One currency's totals and settlement; ``number`` tells parts apart when there are several."""
    fmt = max((money_format(s.currency, s.chip_value) for s in part.sessions), key=len)
    signed = max(
        (money_format(s.currency, s.chip_value, signed=True) for s in part.sessions), key=len
    )
    suffix = f" ({part.currency})" if number and part.currency else ""
    players = [p for s in sessions if s in part.sessions for p in s.players]
    # In the board's order: most money first, as the terminal lists them.
    listed = parties({p: part.net.get(p, Decimal(0)) for p in [*players, *part.net]}, players)
    sheet.keep(len(listed) + 5)
    sheet.blank()
    sheet.heading(_("Evening totals") + suffix)
    chips = part.chip_value is not None
    columns = TOTAL_COLUMNS if chips else MONEY_ONLY_COLUMNS
    sheet.begin_table(f"EveningTotals{number or ''}", columns)
    first = sheet.rows + 1
    for party in listed:
        money = part.net.get(party, Decimal(0))
        label = _("in the carried pot") if party == POT else party
        values = [label, part.chips(party), money] if chips else [label, money]
        sheet.append(values, money=fmt, signed=signed)
    sheet.end_table()
    _check_row(sheet, columns, first, fmt, signed)
    count = len(part.plan)
    sheet.keep(count + 3)
    sheet.blank()
    sheet.heading(_("Settlement") + f"{suffix}: {payments_counted(count)}")
    if not part.plan:
        sheet.line(everyone_square())
        return
    sheet.begin_table(f"EveningSettlement{number or ''}", PAYMENT_COLUMNS)
    for transfer in part.plan:
        paid = [account_name(transfer.payer), account_name(transfer.payee), transfer.amount]
        sheet.append(paid, money=fmt, font=TOTAL)
    sheet.end_table()


def _check_row(sheet: Sheet, columns: Sequence[Column], first: int, fmt: str, signed: str) -> None:
    """Below a table of totals: the sum of each of its number columns, which is zero."""
    last = sheet.rows
    sums: list[object] = [_(CHECK)]
    for index in range(2, len(columns) + 1):
        letter = get_column_letter(index)
        sums.append(Formula(f"=SUM({letter}{first}:{letter}{last})"))
    sheet.append(sums, money=fmt, signed=signed, font=TOTAL)


def _write_session(
    sheet: Sheet, session: SessionReport, live: int, pot: PotFlow, number: int
) -> None:
    fmt = money_format(session.currency, session.chip_value)
    signed = money_format(session.currency, session.chip_value, signed=True)
    value = session.chip_value
    rows: list[tuple[str, int]] = [(line.player, line.chips) for line in session.standings]
    # The pot as a party of the session: what it brought in (a carried pot) is what the
    # players share between them, what is left in it is what they put in and did not take.
    if session.info.opening_pot:
        rows.append((session.pot_in_said(), -session.info.opening_pot))
    if session.pot:
        rows.append((session.pot_left_said(), session.pot))
    sheet.keep(len(rows) + 6)
    sheet.blank()
    sheet.heading(session.name)
    sheet.line(_session_line(session, live))
    sheet.begin_table(f"Session{number}", TOTAL_COLUMNS)
    first = sheet.rows + 1
    for index, (label, chips) in enumerate(rows):
        pot_row = index >= len(session.players)
        sheet.append([label, chips, chips * value], money=fmt, signed=signed, muted=pot_row)
    sheet.end_table()
    _check_row(sheet, TOTAL_COLUMNS, first, fmt, signed)
    sheet.line(session.pot_flow_said(pot))


def _write_sessions_table(
    sheet: Sheet, sessions: Sequence[SessionReport], live_deals: Sequence[int]
) -> None:
    """The sessions again as one table of typed values, for sorting and formulas."""
    sheet.keep(len(sessions) + 4)
    sheet.blank()
    sheet.heading(_("Sessions"))
    sheet.begin_table("SessionsTable", SESSION_COLUMNS)
    for session, live in zip(sessions, live_deals, strict=True):
        value = session.chip_value
        row = [
            session.name,
            rule_text(session.rules.title),
            session.currency,
            value,
            session.created,
            session.closed,
            live,
            session.pot,
            session.pot * value,
        ]
        sheet.append(row, money=money_format(session.currency, value))
    sheet.end_table()


def _session_line(session: SessionReport, live: int) -> str:
    chip = money_label(session.chip_value, session.currency, session.chip_value)
    started = written_when(session.created)
    closed = written_when(session.closed) if session.closed else None
    return session.line_said(live, chip, started, closed)


def _name_width(sessions: Sequence[SessionReport]) -> float:
    longest = max((len(p) for s in sessions for p in s.players), default=0)
    low, high = NAME_WIDTH
    return min(max(longest + 2.0, low), high)


# --- Rules ------------------------------------------------------------------------------


def write_rules(sheet: Sheet, sessions: Sequence[SessionReport], header: str) -> None:
    """Each set of rules once, with the sessions played under it and what it does to the pot."""
    # The two stake headers wrap onto two lines: "Made: each / opponent pays" and
    # "Failed: pays / each opponent". At 16 characters "Failed: pays each" fitted a
    # line, right-aligned against the column's left edge, and ran on from its neighbour.
    sheet.set_widths([22.0, 10.0, 13.0, 13.0, 13.0, 60.0], STAKE_COLUMNS)
    groups: dict[str, list[SessionReport]] = {}
    for s in sessions:
        groups.setdefault(repr(rules_to_dict(s.rules)), []).append(s)
    # Each set of rules fits a page: as tall as their count, as wide as one.
    sheet.print_setup(header, repeat_first_row=False, pages_tall=max(1, len(groups)))
    sheet.title(_("Rules"))
    if not sessions:
        sheet.line(_("No sessions."))
    for number, group in enumerate(groups.values(), 1):
        suffix = str(number) if number > 1 else ""
        first = group[0].rules
        sheet.blank()
        sheet.heading(rule_text(first.title))
        sheet.line(said.played_in([s.name for s in group]))
        pot_fail_doubles = bool(first.settings.pool_fail_doubles)
        sheet.begin_table(f"StakesTable{suffix}", STAKE_COLUMNS)
        for stake in group[0].stakes:
            sheet.append(
                [
                    bid_name(stake.bid),
                    _("no tricks") if stake.misere else stake.tricks,
                    _("yes") if stake.enabled else _("off"),
                    stake.win,
                    stake.lose,
                    stake_note(stake, pot_fail_doubles),
                ],
                muted=not stake.enabled,
            )
        sheet.end_table()
        sheet.blank()
        sheet.begin_table(f"SettingsTable{suffix}", SETTING_COLUMNS)
        for setting in settings(first):
            if setting.absent:  # as `variants` shows it: a dash and the reason
                sheet.append([setting.key, "—", setting.note], muted=True)
            else:
                sheet.append([setting.key, setting_shown(setting.value), setting.note])
        sheet.end_table()
        sheet.line(pot_at_close_rule())
