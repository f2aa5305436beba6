from hypothesis import given
from hypothesis import strategies as st

from napledger.seating import RosterChange, changes_between, next_dealer, seated_at


def test_the_deal_passes_clockwise_and_wraps():
    seats = ("A", "B", "C")
    assert next_dealer(seats, "A", seats) == "B"
    assert next_dealer(seats, "C", seats) == "A"


def test_a_player_who_joined_after_the_dealer_deals_next():
    assert next_dealer(("A", "D", "B", "C"), "A", ("A", "B", "C")) == "D"


def test_when_the_dealer_has_left_the_next_seat_still_taken_deals():
    assert next_dealer(("A", "C", "D"), "B", ("A", "B", "C", "D")) == "C"
    assert next_dealer(("A", "B"), "D", ("A", "B", "C", "D")) == "A"
    assert next_dealer(("B", "D"), "A", ("A", "B", "C", "D")) == "B"


def test_the_roster_replays_to_each_deals_seating():
    changes = [
        RosterChange(1, "seat", "A", 0),
        RosterChange(1, "seat", "B", 1),
        RosterChange(1, "seat", "C", 2),
        RosterChange(3, "join", "D", 1),
        RosterChange(5, "leave", "A", 0),
    ]
    assert seated_at(changes, 1) == seated_at(changes, 2) == ("A", "B", "C")
    assert seated_at(changes, 3) == ("A", "D", "B", "C")
    assert seated_at(changes, 5) == ("D", "B", "C")


@st.composite
def seatings(draw):
    """A seating and a later one: some leave, some join, some stand up and sit elsewhere."""
    before = draw(st.lists(st.sampled_from("ABCDEFG"), unique=True, max_size=7))
    after = [p for p in before if draw(st.booleans())]
    if draw(st.booleans()):
        after = draw(st.permutations(after))  # someone left and sat down elsewhere
    for newcomer in draw(st.lists(st.sampled_from("HIJK"), unique=True, max_size=4)):
        after.insert(draw(st.integers(0, len(after))), newcomer)
    return before, after


@given(seatings())
def test_changes_between_two_seatings_lead_from_one_to_the_other(pair):
    before, after = pair
    opening = [RosterChange(1, "seat", p, i) for i, p in enumerate(before)]
    changes = changes_between(before, after, 2)
    assert seated_at(opening + changes, 1) == tuple(before)
    assert seated_at(opening + changes, 2) == tuple(after)
