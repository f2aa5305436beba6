"""`new`: what a chip may be worth and how a currency is written, checked by the core.

The command line and the session API refuse the same things, because the checks live in
the core (`napledger/core/money.py`) that `Book.create` calls; the command line only names
its option in the message.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("chip", "message"),
    [
        ("0", "Error: --chip must be more than 0, not '0'"),
        ("0.0000001", "Error: --chip has more than 6 decimal places: '0.0000001'"),
        ("2000000", "Error: --chip of 2000000 is more than anyone plays for"),
        ("1e400", "Error: --chip of 1e400 is more than anyone plays for"),
        ("-5", "Error: --chip wants an amount of money like 0.05, not '-5'"),
        # Bounded on the text, before Decimal: an overflow, or gigabytes of zeros (#37).
        ("1e999999999", "Error: --chip of 1e999999999 is more than anyone plays for"),
        ("1e-999999999", "Error: --chip has more than 12 decimal places: '1e-999999999'"),
    ],
)
def test_a_chip_value_out_of_bounds_is_refused_in_the_options_words(nap, chip, message):
    assert nap.fails(f"new x --players A,B,C --chip={chip}") == message


def test_a_currency_code_in_letters_is_written_in_capitals(nap):
    assert "1 chip = 0.05 GBP" in nap("new a --players A,B,C --chip 0.05 --currency gbp").stdout
    nap("hand 3 --by A --made")
    nap("new b --players A,B,C --chip 0.05 --currency GBP")
    nap("hand 3 --by B --made")
    assert nap.json("table --json --session a")["session"]["currency"] == "GBP"
    # One currency however it was typed: the evenings settle together.
    plan = nap.json("settle --session a --session b --json")["transfers"]
    assert plan and all(p["money"] for p in plan)


def test_a_currency_symbol_is_kept_as_typed(nap):
    assert "1 chip = 0.05 £" in nap("new a --players A,B,C --chip 0.05 --currency £").stdout
    assert nap.json("table --json")["session"]["currency"] == "£"


def test_a_currency_with_control_characters_is_refused(nap):
    assert nap.fails("new x --players A,B,C --currency G\x07B") == (
        "Error: the currency 'G\\x07B' has control characters in it"
    )


def test_a_broken_constraint_other_than_the_name_is_not_called_a_taken_name(nap, on_postgres):
    """Only a duplicate name is 'already a session called …': any other refusal of the
    database (here a trigger's, at the very insert) says what the database said."""
    from sqlalchemy import create_engine, text

    from napledger.store.db import resolve_url

    nap("new first --players A,B,C")
    engine = create_engine(resolve_url(None))
    with engine.begin() as db:
        if on_postgres:
            db.execute(
                text(
                    "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION "
                    "'no new sessions today' USING ERRCODE = 'check_violation'; END $$ "
                    "LANGUAGE plpgsql"
                )
            )
            db.execute(
                text(
                    "CREATE TRIGGER refuse BEFORE INSERT ON sessions "
                    "FOR EACH ROW EXECUTE FUNCTION refuse()"
                )
            )
        else:
            db.execute(
                text(
                    "CREATE TRIGGER refuse BEFORE INSERT ON sessions "
                    "BEGIN SELECT RAISE(ABORT, 'no new sessions today'); END"
                )
            )
    engine.dispose()

    line = nap.fails("new second --players A,B,C")
    assert "no new sessions today" in line and "already a session" not in line
    assert "already a session called 'first'" in nap.fails("new first --players A,B,C")
