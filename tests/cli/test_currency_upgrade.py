"""Sessions stored before currencies were folded to capitals (`gbp`) are upgraded to `GBP`,
so they carry their pot into, settle with and count in the figures beside new ones."""

from __future__ import annotations

from sqlalchemy import create_engine, text

from napledger.store.db import resolve_url

MIGRATION = "0005_currency_codes"


def stored_as_before_the_migration(currencies: dict[str, str]) -> None:
    """Write these currencies as an older napledger kept them, and forget the migration."""
    engine = create_engine(resolve_url(None))
    with engine.begin() as db:
        for name, currency in currencies.items():
            db.execute(
                text("UPDATE sessions SET currency = :c WHERE name = :n"),
                {"c": currency, "n": name},
            )
        db.execute(text("DELETE FROM schema_migrations WHERE name = :n"), {"n": MIGRATION})
    engine.dispose()


def stored_currencies() -> dict[str, str]:
    engine = create_engine(resolve_url(None))
    with engine.connect() as db:
        rows = {n: c for n, c in db.execute(text("SELECT name, currency FROM sessions"))}
    engine.dispose()
    return rows


def test_lower_case_currencies_of_old_sessions_are_upgraded_to_capitals(nap, on_postgres, tmp_path):
    nap("new old --players A,B,C --chip 0.05 --currency GBP")
    nap("hand 3 --by A --failed")
    nap("close --pot carry")
    nap("new mixed --players A,B,C --currency GBP")
    nap("new pound --players A,B,C --currency £")
    nap("new dollar --players A,B,C --currency us$")
    nap("new none --players A,B,C")
    stored_as_before_the_migration({"old": "gbp", "mixed": "Gbp"})

    result = nap("sessions")
    assert f"upgraded the database schema ({MIGRATION})" in result.stderr or on_postgres
    assert stored_currencies() == {
        "old": "GBP",
        "mixed": "GBP",
        "pound": "£",  # a symbol is kept as typed
        "dollar": "us$",  # not only letters: not a code to fold
        "none": "",
    }
    if not on_postgres:  # a SQLite file is copied before its schema changes
        assert len(list(tmp_path.glob("nap.db.bak-*"))) == 1

    # Typed in lower case, folded, it now matches the old session's currency.
    nap("new new1 --players A,B,C --carry-from old --currency gbp")
    assert nap.json("table --json --session new1")["session"]["currency"] == "GBP"
    nap("hand 3 --by B --made")
    plan = nap.json("settle -s old -s new1 -s mixed --json")["transfers"]
    assert plan  # one currency: settled together
    stats = nap.json("stats --json")
    assert "gbp" not in stats["currencies"] and "GBP" in stats["currencies"]
    assert nap("verify").exit_code == 0
    assert nap("sessions").stderr == ""  # upgraded once
