"""The small sheets: Summary (the evening's report) and Rules (what the money follows).

Both are built in memory first, so their columns can be sized to fit, and are laid
out as a person reads them: a title, then blocks, each with its own heading and
header row, rather than tables stacked under one frozen header.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal

from napledger.export.cells import CHIPS, DATETIME, excel_datetime, money_format
from napledger.export.data import SessionExport, StakeRow
from napledger.export.evening import EveningPart, evening
from napledger.export.sheet import MONEY, Column, Sheet
from napledger.export.style import TOTAL
from napledger.ledger import POT

NAME_WIDTH = (12.0, 30.0)  # the first columns hold names: at least, at most

TOTAL_COLUMNS = (Column("Player"), Column("Chips", CHIPS), Column("Money", MONEY))
MONEY_ONLY_COLUMNS = (Column("Player"), Column("Money", MONEY))
PAYMENT_COLUMNS = (Column("Pays"), Column("To"), Column("Amount", MONEY))
SESSION_COLUMNS = (
    Column("Name"),
    Column("Variant"),
    Column("Currency"),
    Column("Chip value", MONEY),
    Column("Created", DATETIME),
    Column("Closed", DATETIME),
    Column("Live deals", numeric=True),
    Column("Pot (chips)", CHIPS),
    Column("Pot (money)", MONEY),
)
STAKE_COLUMNS = (
    Column("Bid"),
    Column("Tricks", numeric=True),
    Column("In play", indent=True),
    Column("Made: each opponent pays", CHIPS),
    Column("Failed: pays each opponent", CHIPS),
    Column("What it does to the pot", indent=True),
)
SETTING_COLUMNS = (Column("Setting"), Column("Value"), Column("What it does"))


def evening_title(sessions: Sequence[SessionExport]) -> str:
    """What the evening is called on every printed page: its sessions' names."""
    if not sessions:
        return "napledger: no sessions"
    return "Nap evening: " + ", ".join(s.name for s in sessions)


def write_summary(
    sheet: Sheet, sessions: Sequence[SessionExport], live_deals: Sequence[int]
) -> None:
    """The evening first (totals, one settlement), then each session's own block."""
    name_width = _name_width(sessions)
    variant = max((len(s.variant) for s in sessions), default=0) + 2.0
    sheet.set_widths([name_width, max(name_width, variant, 12.0), 16.0, 12.0, 17.0, 17.0, 8.0])
    sheet.title(evening_title(sessions))
    if not sessions:
        sheet.line("No sessions to report.")
        return
    sheet.line(_evening_line(sessions, live_deals))
    parts = evening(sessions)
    for number, part in enumerate(parts, 1):
        _write_part(sheet, part, number if len(parts) > 1 else None)
    if any(s.closed is None for s in sessions):
        sheet.line("An open session counts as if it closed now with the pot split, as settle does.")
    for number, (session, live) in enumerate(zip(sessions, live_deals, strict=True), 1):
        _write_session(sheet, session, live, number)
    _write_sessions_table(sheet, sessions, live_deals)


def _evening_line(sessions: Sequence[SessionExport], live_deals: Sequence[int]) -> str:
    days = sorted({excel_datetime(s.created).date() for s in sessions})
    when = _day(days[0]) if len(days) == 1 else f"{_day(days[0])} to {_day(days[-1])}"
    count = len(sessions)
    deals = sum(live_deals)
    return f"{when} · {count} session{'s' * (count != 1)} · {deals} deal{'s' * (deals != 1)}"


def _day(day: date) -> str:
    return f"{day:%a} {day.day} {day:%b %Y}"


def _write_part(sheet: Sheet, part: EveningPart, number: int | None) -> None:
    """One currency's totals and settlement; ``number`` tells parts apart when there are several."""
    fmt = max((money_format(s.currency, s.chip_value) for s in part.sessions), key=len)
    suffix = f" ({part.currency})" if number else ""
    sheet.blank()
    sheet.heading(f"Evening totals{suffix}")
    chips = part.chip_value is not None
    sheet.begin_table(
        f"EveningTotals{number or ''}", TOTAL_COLUMNS if chips else MONEY_ONLY_COLUMNS
    )
    players = list(dict.fromkeys(p for s in part.sessions for p in s.players))
    for party in [*players, *(p for p in part.net if p not in players)]:
        money = part.net.get(party, Decimal(0))
        if party == POT and not money:
            continue
        values = [party, part.chips(party), money] if chips else [party, money]
        sheet.append(values, money=fmt)
    sheet.end_table()
    sheet.blank()
    count = len(part.plan)
    sheet.heading(f"Settlement{suffix}: {count} payment{'s' * (count != 1)}")
    if not part.plan:
        sheet.line("Everyone is square.")
        return
    sheet.begin_table(f"EveningSettlement{number or ''}", PAYMENT_COLUMNS)
    for payment in part.plan:
        sheet.append([payment.payer, payment.payee, payment.amount], money=fmt, font=TOTAL)
    sheet.end_table()


def _write_session(sheet: Sheet, session: SessionExport, live: int, number: int) -> None:
    fmt = money_format(session.currency, session.chip_value)
    value = session.chip_value
    sheet.blank()
    sheet.heading(session.name)
    sheet.line(_session_line(session, live))
    sheet.begin_table(f"Session{number}", TOTAL_COLUMNS)
    for player in session.players:
        chips = session.chips.get(player, 0)
        sheet.append([player, chips, chips * value], money=fmt)
    if session.pot:
        sheet.append(["left in the pot", session.pot, session.pot * value], money=fmt, muted=True)
    sheet.end_table()


def _write_sessions_table(
    sheet: Sheet, sessions: Sequence[SessionExport], live_deals: Sequence[int]
) -> None:
    """The sessions again as one table of typed values, for sorting and formulas."""
    sheet.blank()
    sheet.heading("Sessions")
    sheet.begin_table("SessionsTable", SESSION_COLUMNS)
    for session, live in zip(sessions, live_deals, strict=True):
        value = session.chip_value
        row = [
            session.name,
            session.variant,
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


def _session_line(session: SessionExport, live: int) -> str:
    chip = f"{session.chip_value.normalize():f} {session.currency}".strip()
    started = f"started {excel_datetime(session.created):%Y-%m-%d %H:%M}"
    closed = f"closed {excel_datetime(session.closed):%Y-%m-%d %H:%M}" if session.closed else "open"
    deals = f"{live} deal{'s' * (live != 1)}"
    return f"{session.variant} · a chip is {chip} · {started}, {closed} · {deals}"


def _name_width(sessions: Sequence[SessionExport]) -> float:
    longest = max((len(p) for s in sessions for p in s.players), default=0)
    low, high = NAME_WIDTH
    return min(max(longest + 2.0, low), high)


# --- Rules ------------------------------------------------------------------------------


def write_rules(sheet: Sheet, sessions: Sequence[SessionExport]) -> None:
    """Each set of rules once, with the sessions played under it and what it does to the pot."""
    # The two stake headers wrap onto two lines: "Made: each / opponent pays" and
    # "Failed: pays / each opponent". At 16 characters "Failed: pays each" fitted a
    # line, right-aligned against the column's left edge, and ran on from its neighbour.
    sheet.set_widths([22.0, 10.0, 13.0, 13.0, 13.0, 60.0], STAKE_COLUMNS)
    groups: dict[tuple[object, ...], list[SessionExport]] = {}
    for s in sessions:
        same = (s.variant, s.stakes, tuple(sorted(s.settings.items())), tuple(s.absent.items()))
        groups.setdefault(same, []).append(s)
    sheet.title("Rules")
    if not sessions:
        sheet.line("No sessions.")
    for number, group in enumerate(groups.values(), 1):
        suffix = str(number) if number > 1 else ""
        first = group[0]
        sheet.blank()
        sheet.heading(first.variant)
        sheet.line("Played in: " + ", ".join(s.name for s in group))
        pot_fail_doubles = bool(first.settings.get("pool_fail_doubles"))
        sheet.begin_table(f"StakesTable{suffix}", STAKE_COLUMNS)
        for stake in first.stakes:
            sheet.append(
                [
                    stake.bid,
                    "no tricks" if stake.misere else stake.tricks,
                    "yes" if stake.enabled else "off",
                    stake.win,
                    stake.lose,
                    stake_note(stake, pot_fail_doubles),
                ],
                muted=not stake.enabled,
            )
        sheet.end_table()
        sheet.blank()
        sheet.begin_table(f"SettingsTable{suffix}", SETTING_COLUMNS)
        for key, setting in first.settings.items():
            if key in first.absent:  # as `variants` shows it: a dash and the reason
                sheet.append([key, "—", first.absent[key]], muted=True)
            else:
                note = setting_note(key, setting, first.settings)
                sheet.append([key, _setting_text(setting), note])
        sheet.end_table()
        sheet.line(
            "At the close of a session the pot is split among those seated, "
            "given to one player, or carried to the next session, as chosen with close."
        )


def stake_note(stake: StakeRow, pot_fail_doubles: bool) -> str:
    """What a bid does to the pot, in a few words."""
    if not stake.enabled:
        return "off in this session: it cannot be bid"
    parts = []
    if stake.pot_bid:
        parts.append("made: takes the whole pot")
        if pot_fail_doubles:
            parts.append("failed: pays the pot as much as it holds (doubles it)")
    if stake.fail_pot:
        chips = f"{stake.fail_pot} chip{'s' * (stake.fail_pot != 1)}"
        parts.append(f"failed: also pays {chips} into the pot")
    return "; ".join(parts) or "none: paid between the players only"


def _setting_text(value: object) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)


def setting_note(key: str, value: object, settings: Mapping[str, object]) -> str:
    """What a setting does to the money, in a few words."""
    on = value not in (False, "off", 0, None)
    ante = settings.get("pool_ante", 1)
    notes = {
        "dealer_sits_out_from": (
            f"with {value} or more seated, the dealer sits the deal out"
            if on
            else "the dealer always plays"
        ),
        "pool": (
            f"every seated player antes {ante} into the pot each deal, passed-out ones too"
            if on
            else "no ante from every player"
        ),
        "pool_ante": "chips each player antes when pool is on",
        "pool_fail_doubles": (
            "a failed pot bid pays the pot as much as it holds"
            if on
            else "a failed pot bid pays the pot nothing"
        ),
        "dealer_ante": (
            f"the dealer puts {value} into the pot each deal" if on else "the dealer antes nothing"
        ),
        "peep_fee": f"each player who peeps pays {value} into the pot" if on else "peeping is free",
        "purchase_fee": (
            f"each card bought costs {value}, paid into the pot" if on else "buying cards is free"
        ),
        "dealer_peeps": {
            "free": "the dealer looks at the floater free",
            "pays": "the dealer pays the peep fee to look, like anyone",
            "never": "the dealer may not look at the floater",
        }.get(str(value), ""),
        "revoke_fine": (
            f"a revoker also pays {value} into the pot" if on else "a revoke pays no fine"
        ),
        "empty_pot_ante": (
            f"a deal that starts with the pot empty: every seated player first puts in {value}"
            if on
            else "an empty pot is not refilled"
        ),
        "pass_doubles": (
            "the deal after a passed-out one pays its stakes twice (never antes, fees or the pot)"
            if on
            else "stakes stay the same after a pass"
        ),
        "purchase_max_dealt": (
            f"cards are bought only with at most {value} dealt in"
            if on
            else "cards may be bought at any table"
        ),
    }
    if key in notes:
        return notes[key]
    if isinstance(value, bool):
        return f"the bid {key} is {'on' if value else 'off'}"
    return ""
