"""A ledger written before the house rules from the books keeps its money (docs/rules.md).

tests/fixtures/before-house-rules.db was made by tests/fixtures/make_before_house_rules.py
with the napledger of that day: the dealer paid to peep and five players bought cards.
"""

from __future__ import annotations

import shutil
from pathlib import Path

FIXTURE = Path(__file__).parent.parent / "fixtures" / "before-house-rules.db"
AS_RECORDED = {"Ann": -23, "Ben": -3, "Cat": -2, "Dan": 50, "Eve": -22}


def test_an_evening_from_before_the_house_rules_keeps_its_money_and_verifies(nap, db_path):
    shutil.copy(FIXTURE, db_path)
    assert nap.chips() == AS_RECORDED
    assert "check out" in nap("verify").stdout
    # Its frozen rules still mean what they meant: the dealer (Eve, after Ann, Ben, Cat and
    # Dan) pays to peep, and five may buy; a classic session started today does neither.
    assert "Next to deal: Eve" in nap("table").stdout
    nap("hand three --by Cat --made --peep Eve --buy Dan=1")
    chips = nap.chips()
    assert chips["Eve"] == AS_RECORDED["Eve"] - 1 - 3 - 1  # ante, the stake, the look
    assert "check out" in nap("verify").stdout
