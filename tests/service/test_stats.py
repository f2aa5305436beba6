"""Lifetime figures through the session service: what counts as a nap and as treasure
comes from the rules. How `stats` lays the figures out (its tables and JSON) is
tests/cli/test_stats.py's."""

from __future__ import annotations


def figures(table):
    with table.database.read() as tx:
        return tx.stats()


def test_naps_come_from_the_rules_not_the_names(table):
    table.new("seven", "A,B,C", variant="seven-card")
    table.hand("six", "A", made=True)  # a pot bid above nap: counts
    table.hand("4", "B", made=True)
    table.close()
    table.new("ru", "A,B,C", variant="russian")
    table.hand("five", "C", made=True)  # five tricks, but not the pot bid
    table.hand("napoleon", "B", made=True)  # takes the box: C's and B's antes
    stats = figures(table)
    assert [stats.player(p).naps_made for p in "ABC"] == [1, 1, 0]
    assert stats.player("B").treasure == 2 and stats.player("A").treasure == 0


def test_pool_payout_is_treasure_taken(table):
    table.new("pool", "A,B,C,D", rules=["pool=on"], dealer="D")
    table.hand("three", "A", made=True)
    table.hand("nap", "B", tricks=5)  # the pool of 4 and this deal's 4 antes
    table.close("split")  # sharing out the pot at the close is not treasure
    b = figures(table).player("B")
    assert (b.treasure, b.chips, b.naps_made) == (8, 33, 1)
