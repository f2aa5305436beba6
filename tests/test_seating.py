from hypothesis import given
from hypothesis import strategies as st

from napledger.seating import RosterChange, changes_between, next_dealer, seated_at


def seat(*players: str) -> list[RosterChange]:
    return [RosterChange(1, "seat", p, i) for i, p in enumerate(players)]


def test_the_deal_passes_clockwise_and_wraps():
    table = seat("A", "B", "C")
    assert next_dealer(table, "A", "A") == "B"
    assert next_dealer(table, "C", "A") == "A"


def test_the_first_dealer_deals_first_and_from_their_old_seat_if_they_left():
    table = seat("A", "B", "C", "D")
    assert next_dealer(table, None, "C") == "C"
    assert next_dealer([*table, RosterChange(1, "leave", "C", 2)], None, "C") == "D"


def test_a_player_who_joined_after_the_dealer_deals_next():
    assert next_dealer([*seat("A", "B", "C"), RosterChange(2, "join", "D", 1)], "A", "A") == "D"


def test_a_departed_dealer_is_counted_from_their_seat_as_it_was_when_they_left():
    # docs/rules.md, "Who deals": A deals, E joins after A, A leaves: E deals next.
    changes = [
        *seat("A", "B", "C", "D"),
        RosterChange(2, "join", "E", 1),
        RosterChange(2, "leave", "A", 0),
    ]
    assert next_dealer(changes, "A", "A") == "E"


def test_when_the_next_seat_has_left_too_the_one_after_it_deals():
    changes = [
        *seat("A", "B", "C", "D"),
        RosterChange(2, "leave", "B", 1),
        RosterChange(2, "leave", "C", 1),
    ]
    assert next_dealer(changes, "B", "A") == "D"
    assert (
        next_dealer([*seat("A", "B", "C", "D"), RosterChange(2, "leave", "D", 3)], "D", "A") == "A"
    )


def test_a_player_who_sits_where_the_dealer_sat_does_not_take_the_deal():
    # D dealt and left; F sits down after C, in D's empty chair: the deal still goes on to A.
    changes = [
        *seat("A", "B", "C", "D"),
        RosterChange(2, "leave", "D", 3),
        RosterChange(2, "join", "F", 3),
    ]
    assert next_dealer(changes, "D", "A") == "A"


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
