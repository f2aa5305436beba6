"""Who deals: after joins and leaves, undo, void and a named dealer (docs/rules.md, "Who
deals"), through the session service. The options that name a dealer are tested on the
command line in tests/cli/test_dealing.py."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from napledger.core.errors import NapError
from tests.tampering import rewrite_record


def test_after_a_join_after_the_dealer_and_the_dealers_leave_the_joiner_deals_next(table):
    table.new("s", "A,B,C,D")
    table.pass_()  # A deals
    table.join("E", after="A")
    table.leave("A")
    table.pass_()
    assert table.dealers()[-1] == "E"


def test_in_russian_the_joiner_after_a_departed_dealer_pays_the_dealers_ante(table):
    # docs/rules.md, example 10.
    table.new("s", "A,B,C,D", variant="russian")
    table.pass_()  # A deals and antes
    table.join("E", after="A")
    table.leave("A")
    table.pass_()
    chips = table.chips()
    assert (chips["E"], chips["B"]) == (-1, 0)


def test_in_classic_with_six_seated_the_joiner_after_a_departed_dealer_sits_out(table):
    table.new("s", "A,B,C,D,F,G")
    table.pass_()  # A deals
    table.join("E", after="A")
    table.leave("A")
    # E deals and so sits out: E cannot bid; B can.
    with pytest.raises(NapError, match="E sits out this deal as dealer"):
        table.hand("three", "E", made=True)
    table.hand("three", "B", made=True)


def test_the_dealer_after_an_undo_is_the_one_who_dealt_the_undone_deal(table):
    # docs/rules.md, example 11.
    table.new("s", "A,B,C,D")
    table.pass_()  # A
    table.pass_()  # B
    table.undo()
    table.pass_()
    assert table.dealers() == ["A", "B"]
    table.pass_(dealer="D")
    table.pass_()
    assert table.dealers() == ["A", "B", "D", "A"]


def test_the_dealer_after_a_void_counts_from_the_last_live_deal(table):
    table.new("s", "A,B,C,D")
    for _ in range(3):
        table.pass_()  # A, B, C
    table.void(2)
    table.pass_()
    assert table.dealers() == ["A", "C", "D"]
    table.void(4)
    table.void(3)
    table.pass_()
    assert table.dealers() == ["A", "B"]
    assert table.problems() == []


def test_a_named_dealer_moves_the_rotation(table):
    table.new("s", "A,B,C,D")
    table.pass_()  # A
    table.pass_(dealer="D")
    table.pass_()
    assert table.dealers() == ["A", "D", "A"]
    assert table.problems() == []


def test_amending_the_dealer_moves_the_rotation_from_then_on(table):
    table.new("s", "A,B,C,D")
    table.pass_()
    table.pass_()
    table.amend(2, dealer="D")
    table.pass_()
    assert table.dealers() == ["A", "D", "A"]
    assert table.problems() == []


def test_a_player_who_sat_down_elsewhere_does_not_deal_from_their_old_chair(table):
    table.new("s", "A,B,C,D,E")
    table.pass_()  # A deals
    table.leave("A")
    table.leave("B")
    table.join("B", after="E")
    table.pass_()
    assert table.dealers() == ["A", "C"]
    assert table.problems() == []


def test_a_first_dealer_who_leaves_before_dealing_hands_the_deal_to_the_next_seat(table):
    table.new("s", "A,B,C,D", dealer="C")
    table.leave("C")
    table.pass_()
    assert table.dealers() == ["D"]


def test_verify_reports_a_deal_dealt_by_the_wrong_player(table, db_path):
    table.new("s", "A,B,C,D")
    table.pass_()
    table.pass_()
    rewrite_record(db_path, 2, dealer="C")
    (problem,) = table.problems()
    assert "deal 2: C dealt it, but the deal had passed to B" in problem


def test_verify_reports_an_old_record_dealt_after_a_join_and_a_leave_by_the_skipped_seat(
    table, db_path
):
    # What napledger recorded before it counted from the departed dealer's seat: B dealt.
    table.new("s", "A,B,C,D")
    table.pass_()
    table.join("E", after="A")
    table.leave("A")
    table.pass_()
    table.pass_()
    for number in (1, 2, 3):
        rewrite_record(db_path, number, dealer_named=None)
    rewrite_record(db_path, 2, dealer="B")
    rewrite_record(db_path, 3, dealer="C")
    problems = table.problems()
    assert any("deal 2: B dealt it, but the deal had passed to E" in p for p in problems)
    assert not any("deal 3" in p for p in problems)  # the deal passed on from B, as it did


def test_verify_takes_an_old_records_dealer_off_the_rotation_as_named(table, db_path):
    table.new("s", "A,B,C,D")
    table.pass_()
    table.pass_(dealer="D")
    for number in (1, 2):
        rewrite_record(db_path, number, dealer_named=None)
    assert table.problems() == []


NAMES = [f"P{i}" for i in range(9)]
step = st.one_of(
    st.tuples(st.just("deal"), st.none() | st.integers(0, 8)),
    st.tuples(st.just("join"), st.integers(0, 8), st.none() | st.integers(0, 8)),
    st.tuples(st.just("leave"), st.integers(0, 8)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("void"), st.integers(0, 30)),
)
sessions = itertools.count()


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(opening=st.integers(3, 6), first=st.integers(0, 5), steps=st.lists(step, max_size=14))
@example(4, 0, [("deal", None), ("join", 4, 0), ("leave", 0), ("deal", None)])  # the old fault
# A deals, A and B leave, B sits down again after E: C's chair is the next after A's.
@example(5, 0, [("deal", None), ("leave", 0), ("leave", 0), ("join", 1, 2), ("deal", None)])
def test_every_deal_is_dealt_by_whom_the_rotation_names(table, opening, first, steps):
    """Checked against chairs: a player's chair stays where it was when they stood up, a
    newcomer's chair is put right after the chair of the one they sit after, and the deal
    goes to the first seated player clockwise after the chair of the last live deal's
    dealer (the first dealer's chair before any deal)."""
    name = f"s{next(sessions)}"
    chairs = [[p, True] for p in NAMES[:opening]]  # [player, seated]
    first_dealer = NAMES[first % opening]
    deals: list[list] = []  # [number, dealer, live]
    table.new(name, ",".join(NAMES[:opening]), dealer=first_dealer)

    def seated():
        return [p for p, sits in chairs if sits]

    def chair(player):
        return next(i for i, (p, _) in enumerate(chairs) if p == player)

    def rotation():
        live = [d for d in deals if d[2]]
        start = chair(live[-1][1]) + 1 if live else chair(first_dealer)
        for k in range(len(chairs)):
            player, sits = chairs[(start + k) % len(chairs)]
            if sits:
                return player
        raise AssertionError("nobody seated")

    for kind, *args in steps:
        sitting = seated()
        if kind == "deal":
            dealer = sitting[args[0] % len(sitting)] if args[0] is not None else None
            table.pass_(name, dealer=dealer)
            deals.append([len(deals) + 1, dealer or rotation(), True])
        elif kind == "join" and len(sitting) < 7:
            newcomer = next(p for p in NAMES[args[0] :] + NAMES if p not in sitting)
            after = sitting[args[1] % len(sitting)] if args[1] is not None else sitting[-1]
            named = after if args[1] is not None else None  # default: after the last seat
            table.join(newcomer, named, name)
            chairs[:] = [c for c in chairs if c[0] != newcomer]
            chairs.insert(chair(after) + 1, [newcomer, True])
        elif kind == "leave" and len(sitting) > 3:
            player = sitting[args[0] % len(sitting)]
            table.leave(player, name)
            chairs[chair(player)][1] = False
        elif kind == "undo" and any(d[2] for d in deals):
            table.undo(name)
            next(d for d in reversed(deals) if d[2])[2] = False
        elif kind == "void" and any(d[2] for d in deals):
            live = [d for d in deals if d[2]]
            target = live[args[0] % len(live)]
            table.void(target[0], name)
            target[2] = False
    recorded = {
        d.number: d.deal.dealer
        for d in table.read(lambda s: s.history(with_roster=False).deals, name)
        if d.status != "replaced"
    }
    assert recorded == {number: dealer for number, dealer, _ in deals}
    table.pass_(name)
    assert table.dealers(name)[-1] == rotation()
    assert table.problems() == []
