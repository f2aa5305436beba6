"""The store's encoding of a deal: a record read back is the deal written, and one that
cannot be read is refused, or (for `verify`) carried with the reason."""

import importlib.util
from pathlib import Path

import pytest
from hypothesis import given, settings

from napledger.core.read.history import score_history
from napledger.core.rules import load_preset
from napledger.store.codec import DealRecord, deal_from_json, deal_to_json, read, revisions

spec = importlib.util.spec_from_file_location(
    "zero_sum", Path(__file__).parent.parent / "core" / "rules" / "test_zero_sum.py"
)
assert spec and spec.loader
zero_sum = importlib.util.module_from_spec(spec)
spec.loader.exec_module(zero_sum)


@settings(max_examples=100, deadline=None)
@given(zero_sum.evenings())
def test_a_deal_read_back_is_the_deal_written(evening):
    _rules, deals, _opening = evening
    for deal in deals:
        assert deal_from_json(deal_to_json(deal)) == deal


def test_an_unreadable_record_is_refused_unless_verify_asks_for_the_reason():
    bad = DealRecord(7, 3, 1, "live", '{"seated": ["Ann"]}', 12)
    with pytest.raises(KeyError):
        read(bad)
    carried = read(bad, strict=False)
    assert carried.deal is None and carried.error == "'dealer'" and carried.number == 3
    # The history goes on from the pot stored beside it.
    scored = list(
        score_history(load_preset("classic"), revisions([bad], strict=False), 0, strict=False)
    )
    assert scored[0].error == "'dealer'" and scored[0].pot_before is None
