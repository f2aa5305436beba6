"""Who deals: after joins and leaves, undo, void and --dealer (docs/rules.md, "Who deals")."""

from __future__ import annotations

import itertools
import json
import sqlite3

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st


def dealers(nap) -> list[str]:
    return [h["dealer"] for h in nap.json("hands --json") if h["status"] == "live"]


def last_dealer(nap) -> str:
    return dealers(nap)[-1]


def test_after_a_join_after_the_dealer_and_the_dealers_leave_the_joiner_deals_next(nap):
    nap("new s --players A,B,C,D")
    nap("pass")  # A deals
    nap("join E --after A")
    nap("leave A")
    nap("pass")
    assert last_dealer(nap) == "E"


def test_in_russian_the_joiner_after_a_departed_dealer_pays_the_dealers_ante(nap):
    # docs/rules.md, example 10.
    nap("new s --players A,B,C,D --variant russian")
    nap("pass")  # A deals and antes
    nap("join E --after A")
    nap("leave A")
    nap("pass")
    chips = nap.chips()
    assert (chips["E"], chips["B"]) == (-1, 0)


def test_in_classic_with_six_seated_the_joiner_after_a_departed_dealer_sits_out(nap):
    nap("new s --players A,B,C,D,F,G")
    nap("pass")  # A deals
    nap("join E --after A")
    nap("leave A")
    # E deals and so sits out: E cannot bid; B can.
    assert "E sits out this deal as dealer" in nap.fails("hand three --by E --made")
    nap("hand three --by B --made")


def test_the_dealer_after_an_undo_is_the_one_who_dealt_the_undone_deal(nap):
    # docs/rules.md, example 11.
    nap("new s --players A,B,C,D")
    nap("pass")  # A
    nap("pass")  # B
    nap("undo")
    nap("pass")
    assert dealers(nap) == ["A", "B"]
    nap("pass --dealer D")
    nap("pass")
    assert dealers(nap) == ["A", "B", "D", "A"]


def test_the_dealer_after_a_void_counts_from_the_last_live_deal(nap):
    nap("new s --players A,B,C,D")
    for _ in range(3):
        nap("pass")  # A, B, C
    nap("void 2")
    nap("pass")
    assert dealers(nap) == ["A", "C", "D"]
    nap("void 4")
    nap("void 3")
    nap("pass")
    assert dealers(nap) == ["A", "B"]
    assert "check out" in nap("verify").stdout


def test_a_named_dealer_moves_the_rotation(nap):
    nap("new s --players A,B,C,D")
    nap("pass")  # A
    nap("pass --dealer D")
    nap("pass")
    assert dealers(nap) == ["A", "D", "A"]
    assert "check out" in nap("verify").stdout


def test_amending_the_dealer_moves_the_rotation_from_then_on(nap):
    nap("new s --players A,B,C,D")
    nap("pass")
    nap("pass")
    nap("amend 2 --dealer D")
    nap("pass")
    assert dealers(nap) == ["A", "D", "A"]
    assert "check out" in nap("verify").stdout


def test_a_player_who_sat_down_elsewhere_does_not_deal_from_their_old_chair(nap):
    nap("new s --players A,B,C,D,E")
    nap("pass")  # A deals
    nap("leave A")
    nap("leave B")
    nap("join B --after E")
    nap("pass")
    assert dealers(nap) == ["A", "C"]
    assert "check out" in nap("verify").stdout


def test_a_first_dealer_who_leaves_before_dealing_hands_the_deal_to_the_next_seat(nap):
    nap("new s --players A,B,C,D --dealer C")
    nap("leave C")
    nap("pass")
    assert dealers(nap) == ["D"]


def rewrite_record(db_path, number, **fields):
    with sqlite3.connect(db_path) as db:
        (text,) = db.execute("SELECT record_json FROM deals WHERE number = ?", (number,)).fetchone()
        record = json.loads(text)
        for key, value in fields.items():
            if value is None:
                record.pop(key, None)
            else:
                record[key] = value
        db.execute(
            "UPDATE deals SET record_json = ? WHERE number = ?", (json.dumps(record), number)
        )


def test_verify_reports_a_deal_dealt_by_the_wrong_player(nap, db_path):
    nap("new s --players A,B,C,D")
    nap("pass")
    nap("pass")
    rewrite_record(db_path, 2, dealer="C")
    result = nap("verify", ok=False)
    assert result.exit_code == 1
    assert "deal 2: C dealt it, but the deal had passed to B" in result.stdout


def test_verify_reports_an_old_record_dealt_after_a_join_and_a_leave_by_the_skipped_seat(
    nap, db_path
):
    # What napledger recorded before it counted from the departed dealer's seat: B dealt.
    nap("new s --players A,B,C,D")
    nap("pass")
    nap("join E --after A")
    nap("leave A")
    nap("pass")
    nap("pass")
    for number in (1, 2, 3):
        rewrite_record(db_path, number, dealer_named=None)
    rewrite_record(db_path, 2, dealer="B")
    rewrite_record(db_path, 3, dealer="C")
    result = nap("verify", ok=False)
    assert "deal 2: B dealt it, but the deal had passed to E" in result.stdout
    assert "deal 3" not in result.stdout  # the deal passed on from B, as it did


def test_verify_takes_an_old_records_dealer_off_the_rotation_as_named(nap, db_path):
    nap("new s --players A,B,C,D")
    nap("pass")
    nap("pass --dealer D")
    for number in (1, 2):
        rewrite_record(db_path, number, dealer_named=None)
    assert "check out" in nap("verify").stdout


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
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(opening=st.integers(3, 6), first=st.integers(0, 5), steps=st.lists(step, max_size=14))
@example(4, 0, [("deal", None), ("join", 4, 0), ("leave", 0), ("deal", None)])  # the old fault
# A deals, A and B leave, B sits down again after E: C's chair is the next after A's.
@example(5, 0, [("deal", None), ("leave", 0), ("leave", 0), ("join", 1, 2), ("deal", None)])
def test_every_deal_is_dealt_by_whom_the_rotation_names(nap, opening, first, steps):
    """Checked against chairs: a player's chair stays where it was when they stood up, a
    newcomer's chair is put right after the chair of the one they sit after, and the deal
    goes to the first seated player clockwise after the chair of the last live deal's
    dealer (the first dealer's chair before any deal)."""
    name = f"s{next(sessions)}"
    chairs = [[p, True] for p in NAMES[:opening]]  # [player, seated]
    first_dealer = NAMES[first % opening]
    deals: list[list] = []  # [number, dealer, live]
    nap(f"new {name} --players {','.join(NAMES[:opening])} --dealer {first_dealer}")

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
            nap(f"pass --session {name}" + (f" --dealer {dealer}" if dealer else ""))
            deals.append([len(deals) + 1, dealer or rotation(), True])
        elif kind == "join" and len(sitting) < 7:
            newcomer = next(p for p in NAMES[args[0] :] + NAMES if p not in sitting)
            after = sitting[args[1] % len(sitting)] if args[1] is not None else sitting[-1]
            where = f" --after {after}" if args[1] is not None else ""  # default: the last seat
            nap(f"join {newcomer}{where} --session {name}")
            chairs[:] = [c for c in chairs if c[0] != newcomer]
            chairs.insert(chair(after) + 1, [newcomer, True])
        elif kind == "leave" and len(sitting) > 3:
            player = sitting[args[0] % len(sitting)]
            nap(f"leave {player} --session {name}")
            chairs[chair(player)][1] = False
        elif kind == "undo" and any(d[2] for d in deals):
            nap(f"undo --session {name}")
            next(d for d in reversed(deals) if d[2])[2] = False
        elif kind == "void" and any(d[2] for d in deals):
            live = [d for d in deals if d[2]]
            target = live[args[0] % len(live)]
            nap(f"void {target[0]} --session {name}")
            target[2] = False
    recorded = {h["number"]: h["dealer"] for h in nap.json(f"hands --json --session {name}")}
    assert recorded == {number: dealer for number, dealer, _ in deals}
    nap(f"pass --session {name}")
    assert nap.json(f"hands --json --session {name}")[-1]["dealer"] == rotation()
    assert "check out" in nap("verify").stdout
