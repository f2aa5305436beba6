"""`stats`: lifetime figures over every session, checked against hand-worked evenings, as
its tables and JSON show them. What counts as a nap and as treasure is tested on the
session service (tests/service/test_stats.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

import pytest


def two_evenings(nap):
    nap("new fri --players A,B,C,D,E --chip 0.05 --currency GBP")
    nap("hand nap --by A --tricks 5")  # A +40
    nap("hand 3 --by B --tricks 4")
    nap("hand misère --by C --tricks 1")
    nap("hand four --by D --revoke E")  # E's revoke: D's bid neither made nor failed
    nap("hand wellington --by A --revoke A")  # A's own revoke: failed, -40
    nap("close")
    nap("new moscow --players a,b,c,d --variant russian --chip 5 --currency RUB")
    nap("hand three --by B --made")
    nap("hand 4 --by C --tricks 2")
    nap("hand napoleon --by D --failed")
    nap("hand наполеон --by A --made")  # A takes the box of 15
    nap("hand 2 --by A --made")
    nap("undo")  # a voided deal never counts


def by_name(doc):
    return {p["name"]: p for p in doc["players"]}


def test_lifetime_figures_over_two_sessions_and_currencies(nap):
    two_evenings(nap)
    doc = nap.json("stats --json")
    assert doc["currencies"] == ["GBP", "RUB"]
    # Pence and roubles neither add up as chips nor as money: players are listed by name.
    assert [p["name"] for p in doc["players"]] == ["A", "B", "C", "D", "E"]
    a = by_name(doc)["A"]
    assert {k: a[k] for k in ("sessions", "deals", "bids", "made", "failed", "chips")} == {
        "sessions": 2, "deals": 9, "bids": 3, "made": 2, "failed": 1, "chips": None,
    }  # fmt: skip
    assert a["money"] == a["money_by_currency"] == {"GBP": "0.00", "RUB": "175.00"}
    assert (a["biggest_win"], a["biggest_loss"]) == (40, -40)
    assert (a["naps_made"], a["treasure"]) == (2, 15)
    assert a["made_percent"] == "66.7"
    assert a["by_bid"]["wellington"] == {"bids": 1, "made": 0, "failed": 1, "made_percent": "0.0"}
    assert "two" not in a["by_bid"]
    d = by_name(doc)["D"]
    assert (d["bids"], d["made"], d["failed"]) == (2, 0, 1)
    assert by_name(doc)["E"]["made_percent"] is None
    # Every session sums to zero, so the lifetime money in each currency does too.
    for currency in doc["currencies"]:
        assert sum(Decimal(p["money"].get(currency, 0)) for p in doc["players"]) == 0


def test_rich_tables_show_the_figures(nap):
    two_evenings(nap)
    out = nap("stats").stdout
    assert "Lifetime results" in out and "Bidding" in out and "by kind" in out
    assert "+175.00 RUB" in out and "66.7%" in out


def test_one_currency_gives_money_as_one_decimal(nap):
    nap("new a --players Ann,Bob,Cy --chip 0.10")
    nap("hand 3 --by ann --made")
    nap("close")
    nap("new b --players Ann,Bob,Cy --chip 0.25")
    nap("hand 4 --by bob --failed")
    doc = nap.json("stats --json")
    ann = by_name(doc)["Ann"]
    assert ann["money"] == "1.60" and ann["sessions"] == 2 and ann["deals"] == 2
    # 6 chips of 0.10 and 4 of 0.25 are not 10 of anything: chips are not added up.
    assert ann["chips"] is None and doc["chip_values"] == ["0.10", "0.25"]
    assert [p["name"] for p in doc["players"]] == ["Ann", "Cy", "Bob"]  # ranked by money
    out = nap("stats").stdout
    assert "No chip total: these sessions value a chip differently (0.10, 0.25)" in out
    assert "+1.60" in out and "chips " not in out.split("Bidding")[0].replace("(chips)", "")
    polish = nap("--lang pl stats").stdout
    assert "różną wartość (0,10; 0,25)" in polish  # the decimal comma, the list's semicolon
    bidding = polish.split("Licytacje")[1]
    assert "ugrane" in bidding and "przegrane" in bidding and "ugrana" not in bidding
    russian = nap("--lang ru stats").stdout.split("Назначения")[1]
    assert "не сыграно" in russian and " без " not in russian


def test_player_filter_matches_like_the_table_does(nap):
    two_evenings(nap)
    doc = nap.json("stats --json --player b --player A")
    assert [p["name"] for p in doc["players"]] == ["B", "A"]
    assert "no player 'zed' has played" in nap.fails("stats --player zed")


def test_player_who_never_bid_or_played_in_range(nap):
    nap("new a --players Ann,Annie,Bob")
    assert "could be Ann, Annie" in nap.fails("stats -p an")
    assert by_name(nap.json("stats --json -p annie"))["Annie"]["deals"] == 0


def started(when: str) -> None:
    """Move the latest session's start, as if it had been played then."""
    from sqlalchemy import func, select, update

    from napledger.service.api import Database
    from napledger.store.models import sessions

    S = sessions.c
    with Database() as database, database.write() as tx:
        db = tx.book.db
        latest = db.execute(select(func.max(S.id))).scalar_one()
        moment = datetime.fromisoformat(when).astimezone(UTC)
        db.execute(update(sessions).where(S.id == latest).values(created_at=moment))


def test_since_and_until_pick_sessions_by_their_start_date(nap):
    nap("new jan --players A,B,C")
    nap("hand 3 --by A --made")
    started("2026-01-15T20:00")
    nap("new feb --players A,B,C")
    nap("hand 4 --by B --made")
    started("2026-02-28T23:30")
    nap("new mar --players A,B,C")
    nap("hand 3 --by C --made")
    started("2026-03-01T00:30")

    def chips(options: str) -> dict[str, int]:
        return {p["name"]: p["chips"] for p in nap.json(f"stats --json {options}")["players"]}

    assert chips("--until 2026-01-31") == {"A": 6, "B": -3, "C": -3}
    assert chips("--since 2026-02-01 --until 2026-02-28") == {"B": 8, "A": -4, "C": -4}
    assert chips("--since 2026-03-01")["C"] == 6
    assert chips("--since 2026-01-01")["A"] == 6 - 4 - 3
    doc = nap.json("stats --json --since 2027-01-01")
    assert doc["players"] == [] and doc["since"] == "2027-01-01"
    assert "No sessions started in that period" in nap("stats --since 2027-01-01").stdout


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("--since 2026-13-01", "--since wants a date like"),
        ("--until yesterday", "--until wants a date like"),
        ("--since 2026-03-02 --until 2026-03-01", "is after --until"),
    ],
)
def test_bad_dates_are_one_error_line(nap, options, message):
    nap("new a --players A,B,C")
    assert message in nap.fails(f"stats {options}")


def test_players_with_no_deals_yet(nap):
    nap("new a --players A,B,C")
    assert [p["deals"] for p in nap.json("stats --json")["players"]] == [0, 0, 0]
