"""Shell completion reads an old ledger without upgrading it: a Tab press writes nothing."""

import shutil
from pathlib import Path

import pytest

from napledger.core.errors import NapError
from napledger.service.api import Database

pytestmark = pytest.mark.sqlite_only

FIXTURE = Path(__file__).parent.parent / "fixtures" / "schema-0001.db"


@pytest.fixture
def old_db(db_path: Path) -> Path:
    shutil.copy(FIXTURE, db_path)
    return db_path


def untouched(db: Path) -> None:
    assert db.read_bytes() == FIXTURE.read_bytes()
    assert list(db.parent.glob(f"{db.name}.bak-*")) == []


def test_completion_offers_nothing_from_an_old_schema_and_leaves_it_as_it_was(old_db, nap):
    assert nap.complete("napledger use f") == []
    assert nap.complete("napledger hand nap --by ") == []
    untouched(old_db)
    # Any command upgrades it; then completion offers what is there.
    nap("sessions")
    assert nap.complete("napledger use f") == ["friday"]


def test_a_read_that_may_not_upgrade_refuses_an_old_schema(old_db):
    with (
        Database(str(old_db)) as database,
        pytest.raises(NapError, match="needs its schema upgraded"),
        database.read(upgrade=False),
    ):
        pass
    untouched(old_db)
