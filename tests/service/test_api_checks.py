"""The session API refuses on its own what a front end might forget to check."""

from __future__ import annotations

import os
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from napledger.core.errors import DealError, NapError
from napledger.core.options import DealOptions
from napledger.core.rules import load_preset
from napledger.service.api import Database

CLASSIC = load_preset("classic")


def new(chip: Decimal | None = None, currency: str | None = None, name: str = "x") -> str:
    with Database() as database, database.write() as tx:
        board = tx.new_session(name, CLASSIC, ["Ann", "Bob", "Cy"], chip, currency)
    return board.session.currency


@pytest.mark.parametrize(
    ("chip", "message"),
    [
        (Decimal(-5), "the chip value must be more than 0, not '-5'"),
        (Decimal(0), "the chip value must be more than 0"),
        (Decimal("0.0000001"), "the chip value has more than 6 decimal places"),
        (Decimal(10**7), "the chip value of 10000000 is more than anyone plays for"),
        (Decimal("NaN"), "the chip value wants an amount of money"),
        (Decimal("Infinity"), "the chip value wants an amount of money"),
    ],
)
def test_a_chip_value_out_of_bounds_is_refused(chip, message):
    with pytest.raises(NapError, match=message):
        new(chip=chip)
    with Database() as database, database.write() as tx:
        assert tx.sessions() == []


def test_a_currency_with_control_characters_is_refused():
    with pytest.raises(NapError, match="the currency '\\\\x07bad' has control characters"):
        new(currency="\x07bad")


def test_a_currency_in_letters_is_folded_to_capitals_and_a_symbol_kept():
    assert new(currency="gbp", name="a") == "GBP"
    assert new(currency=" £ ", name="b") == "£"
    assert new(currency="", name="c") == ""
    with Database() as database, database.read() as tx:
        assert tx.settlement(["a", "a"]).currency == "GBP"


def test_a_chip_value_in_exponent_notation_is_stored_plainly():
    with Database() as database, database.write() as tx:
        board = tx.new_session("x", CLASSIC, ["Ann", "Bob", "Cy"], Decimal("5E+1"))
    assert str(board.session.chip_value) == "50"


@pytest.mark.parametrize(
    "options",
    [
        DealOptions(bid="nap", tricks=5),
        DealOptions(bid="3", made=True, peeps=("Bob",)),
        DealOptions(bid="3", made=True, buys=(("Bob", 1),)),
    ],
)
def test_a_deal_without_a_bidder_is_refused_in_plain_words(options):
    new()
    with Database() as database:
        with pytest.raises(DealError) as refused, database.write() as tx:
            tx.session().record(options)
        with database.read() as tx:
            assert tx.session().scoreboard().hands == 0
    # One message for every front end: it names no option of any one of them.
    assert str(refused.value) == "say who bid"


@pytest.mark.sqlite_only
def test_a_first_write_after_the_file_was_replaced_is_refused(db_path, tmp_path):
    new()
    backup = tmp_path / "backup.db"
    with Database() as database:
        with database.read() as tx:  # the reading engine opens the file
            assert [b.session.name for b in tx.sessions()] == ["x"]
        shutil.copy(db_path, backup)
        os.replace(backup, db_path)  # a backup restored over it, as a new file
        before = db_path.read_bytes()
        # The writing engine is made only now, and opens the new file: still refused.
        moved = "is no longer the database file opened at the start"
        with pytest.raises(NapError, match=moved), database.write() as tx:
            tx.session().record(DealOptions(bid="nap", by="Ann", tricks=5))
        with pytest.raises(NapError, match="no longer the database file"):
            database.check_same_files()
    assert db_path.read_bytes() == before
    assert not Path(f"{db_path}-wal").exists() or Path(f"{db_path}-wal").stat().st_size == 0
