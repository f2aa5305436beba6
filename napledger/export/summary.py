"""The small sheets, built in memory first so their columns can be sized to fit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from napledger.export.cells import CHIPS, money_format
from napledger.export.data import SessionExport
from napledger.export.sheet import MONEY, Column, Sheet, fit_widths


@dataclass(frozen=True)
class Block:
    """One table of a sheet: rows of values, each row with its session's money format."""

    table: str
    columns: Sequence[Column]
    rows: Sequence[tuple[str, Sequence[object]]]


SESSION_COLUMNS = (
    Column("Session"),
    Column("Name"),
    Column("Variant"),
    Column("Currency"),
    Column("Chip value", MONEY),
    Column("Created"),
    Column("Closed"),
    Column("Live deals"),
    Column("Pot (chips)", CHIPS),
    Column("Pot (money)", MONEY),
)
BALANCE_COLUMNS = (
    Column("Session"),
    Column("Player"),
    Column("Chips", CHIPS),
    Column("Money", MONEY),
)
SETTLEMENT_COLUMNS = (Column("Session"), Column("Payer"), Column("Payee"), Column("Money", MONEY))
STAKE_COLUMNS = (
    Column("Session"),
    Column("Bid"),
    Column("Tricks"),
    Column("Win (chips)", CHIPS),
    Column("Lose (chips)", CHIPS),
)
SETTING_COLUMNS = (Column("Session"), Column("Setting"), Column("Value"))


def write_summary(
    sheet: Sheet, sessions: Sequence[SessionExport], live_deals: Sequence[int]
) -> None:
    """Sessions, then every player's final chips and money, then the settlement."""
    sessions_rows = []
    balance_rows = []
    settlement_rows = []
    for session, live in zip(sessions, live_deals, strict=True):
        fmt = money_format(session.currency, session.chip_value)
        value = session.chip_value
        sessions_rows.append(
            (
                fmt,
                (
                    session.id,
                    session.name,
                    session.variant,
                    session.currency,
                    value,
                    session.created,
                    session.closed,
                    live,
                    session.pot,
                    session.pot * value,
                ),
            )
        )
        for player in session.players:
            chips = session.chips.get(player, 0)
            balance_rows.append((fmt, (session.id, player, chips, chips * value)))
        for payment in session.settlement:
            settlement_rows.append((fmt, (session.id, payment.payer, payment.payee, payment.money)))
    write_blocks(
        sheet,
        [
            Block("SessionsTable", SESSION_COLUMNS, sessions_rows),
            Block("BalancesTable", BALANCE_COLUMNS, balance_rows),
            Block("SettlementTable", SETTLEMENT_COLUMNS, settlement_rows),
        ],
    )


def write_rules(sheet: Sheet, sessions: Sequence[SessionExport]) -> None:
    """The stake table and the settings each session was played under."""
    stake_rows = [
        ("", (s.id, stake.bid, stake.tricks, stake.win, stake.lose))
        for s in sessions
        for stake in s.stakes
    ]
    setting_rows = [("", (s.id, key, value)) for s in sessions for key, value in s.settings.items()]
    write_blocks(
        sheet,
        [
            Block("StakesTable", STAKE_COLUMNS, stake_rows),
            Block("SettingsTable", SETTING_COLUMNS, setting_rows),
        ],
    )


def write_blocks(sheet: Sheet, blocks: Sequence[Block]) -> None:
    """Tables one under another, a blank row between, columns wide enough for all."""
    widths: dict[int, float] = {}
    for block in blocks:
        fitted = fit_widths([c.header for c in block.columns], (r for _, r in block.rows))
        for index, width in enumerate(fitted):
            widths[index] = max(widths.get(index, 0.0), width)
    sheet.set_widths(widths[index] for index in sorted(widths))
    for index, block in enumerate(blocks):
        if index:
            sheet.blank()
        sheet.begin_table(block.table, block.columns)
        for fmt, values in block.rows:
            sheet.append(values, money=fmt)
        sheet.end_table()
