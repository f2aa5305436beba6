"""Property: the one history scores a session exactly as the rules do, deal after deal.

Voided and replaced revisions pay nothing and leave the pot alone; every live deal's
payments sum to zero; and the lazy reading `stats` uses (stored pots, scored on demand)
gives the very payments the full replay gives, wherever the stored pots are honest.
"""

import importlib.util
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from napledger.core.ledger import changes_from, imbalance
from napledger.core.read.history import Revision, final_pot, score_history
from napledger.core.rules.scoring import replay

spec = importlib.util.spec_from_file_location(
    "zero_sum", Path(__file__).parent / "rules" / "test_zero_sum.py"
)
assert spec and spec.loader
zero_sum = importlib.util.module_from_spec(spec)
spec.loader.exec_module(zero_sum)
WHEN = datetime(2026, 1, 1, tzinfo=UTC)


@settings(max_examples=100, deadline=None)
@given(zero_sum.evenings(), st.lists(st.sampled_from(["live", "voided", "replaced"]), max_size=25))
def test_the_history_is_the_replay_of_the_live_deals(evening, statuses):
    rules, deals, opening = evening
    statuses = [*statuses, *["live"] * len(deals)][: len(deals)]
    records = [
        Revision(i, i, 1, status, deal, 0, WHEN)
        for i, (deal, status) in enumerate(zip(deals, statuses, strict=True), 1)
    ]
    live = [deal for deal, status in zip(deals, statuses, strict=True) if status == "live"]
    expected = iter(replay(rules, live, opening))
    history = list(score_history(rules, records, opening))
    for record, scored in zip(records, history, strict=True):
        assert scored.deal == record.deal
        if scored.live:
            want = next(expected)
            assert scored.payments == want.payments and scored.pot_after == want.pot_after
            assert imbalance(changes_from(scored.payments)) == 0
        else:
            assert scored.payments == () and scored.pot_after is None
    last = replay(rules, live, opening)[-1].pot_after if live else opening
    assert final_pot(history, opening) == last

    # What `stats` reads: the stored pots (honest here), each deal scored only on demand.
    honest = [
        r._replace(pot_after=s.pot_after if s.live else 0)
        for r, s in zip(records, history, strict=True)
    ]
    lazy = score_history(rules, honest, opening, stored_pots=True)
    assert [d.payments for d in lazy] == [d.payments for d in history]
    assert all(d.live or not d.payments for d in lazy)
