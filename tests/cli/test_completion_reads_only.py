"""Shell completion reads an old ledger without upgrading it: a Tab press writes nothing."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from napledger.core.errors import NapError
from napledger.store.api import Database

pytestmark = pytest.mark.sqlite_only

SCRIPT = Path(sys.executable).with_name("napledger")
FIXTURE = Path(__file__).parent.parent / "fixtures" / "schema-0001.db"


@pytest.fixture
def old_db(db_path: Path) -> Path:
    shutil.copy(FIXTURE, db_path)
    return db_path


def complete(db: Path, line: str) -> list[str]:
    run = subprocess.run(
        [str(SCRIPT)],
        env={
            **os.environ,
            "NAPLEDGER_DB": str(db),
            "_NAPLEDGER_COMPLETE": "complete_bash",
            "COMP_WORDS": line,
            "COMP_CWORD": str(len(line.split(" ")) - 1),
        },
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stderr == ""
    return run.stdout.split()


def untouched(db: Path) -> None:
    assert db.read_bytes() == FIXTURE.read_bytes()
    assert list(db.parent.glob(f"{db.name}.bak-*")) == []


@pytest.mark.skipif(not SCRIPT.exists(), reason="the napledger script is not installed")
def test_completion_offers_nothing_from_an_old_schema_and_leaves_it_as_it_was(old_db, nap):
    assert complete(old_db, "napledger use f") == []
    assert complete(old_db, "napledger hand nap --by ") == []
    untouched(old_db)
    # Any command upgrades it; then completion offers what is there.
    nap("sessions")
    assert complete(old_db, "napledger use f") == ["friday"]


def test_a_read_that_may_not_upgrade_refuses_an_old_schema(old_db):
    with (
        Database(str(old_db)) as database,
        pytest.raises(NapError, match="needs its schema upgraded"),
        database.read(upgrade=False),
    ):
        pass
    untouched(old_db)
