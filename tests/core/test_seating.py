from hypothesis import given, settings
from hypothesis import strategies as st

from napledger.core.seating import RosterChange, changes_between, next_dealer, seated_at


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


def test_a_player_who_left_and_sat_down_elsewhere_does_not_take_the_deal_from_their_old_chair():
    # A deals; A and B leave; B sits down again after E: count from A's chair, C's is next.
    changes = [
        *seat("A", "B", "C", "D", "E"),
        RosterChange(2, "leave", "A", 0),
        RosterChange(2, "leave", "B", 0),
        RosterChange(2, "join", "B", 3),
    ]
    assert seated_at(changes, 2) == ("C", "D", "E", "B")
    assert next_dealer(changes, "A", "A") == "C"
    assert next_dealer(changes, "E", "A") == "B"  # B's new chair is after E's


def test_a_first_dealer_who_sits_down_elsewhere_before_dealing_still_deals_first():
    changes = [
        *seat("A", "B", "C"),
        RosterChange(1, "leave", "A", 0),
        RosterChange(1, "join", "A", 2),
    ]
    assert next_dealer(changes, None, "A") == "A"


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


@st.composite
def evenings(draw):
    """A seating, then joins (after anyone), leaves (anyone), rejoins (someone who left sits
    down again, anywhere) and deals, in any order."""
    players = [f"P{i}" for i in range(draw(st.integers(2, 6)))]
    first = draw(st.sampled_from(players))
    changes = seat(*players)
    seated = list(players)
    gone: list[str] = []
    history = []  # each deal's dealer, and the changes made before it
    steps = st.sampled_from(["deal", "join", "leave", "rejoin"])
    for kind in draw(st.lists(steps, max_size=20)):
        if kind == "join" or (kind == "rejoin" and gone):
            newcomer = f"N{len(changes)}" if kind == "join" else draw(st.sampled_from(gone))
            if newcomer in gone:
                gone.remove(newcomer)
            at = draw(st.integers(1, len(seated)))
            seated.insert(at, newcomer)
            changes.append(RosterChange(len(history) + 1, "join", newcomer, at))
        elif kind == "leave" and len(seated) > 2:
            leaving = draw(st.sampled_from(seated))
            changes.append(RosterChange(len(history) + 1, "leave", leaving, seated.index(leaving)))
            seated.remove(leaving)
            gone.append(leaving)
        elif kind == "deal":
            history.append(list(changes))
    return first, history


def chairs_rule(changes, last_dealer, first_dealer):
    """The rotation stated plainly: chairs stay where they were when their player stood up;
    a newcomer's chair goes right after the chair of the player before them (one who sits
    down again leaves their old chair); the deal goes to the first seated player clockwise
    after the last dealer's chair."""
    chairs = []  # [player, seated]
    for change in changes:
        if change.kind == "leave":
            next(c for c in chairs if c[0] == change.player)[1] = False
            continue
        chairs = [c for c in chairs if c[0] != change.player]
        sitting = [c for c in chairs if c[1]]
        at = chairs.index(sitting[change.seat - 1]) + 1 if change.seat else 0
        chairs.insert(at, [change.player, True])
    start = (
        next(i for i, c in enumerate(chairs) if c[0] == last_dealer) + 1
        if last_dealer
        else next(i for i, c in enumerate(chairs) if c[0] == first_dealer)
    )
    return next(p for p, sits in chairs[start:] + chairs[:start] if sits)


@settings(max_examples=200)  # each example a whole evening of seatings
@given(evenings())
def test_the_next_dealer_is_the_first_seated_after_the_last_dealers_chair(evening):
    first, history = evening
    dealer = None
    for before in history:
        expected = chairs_rule(before, dealer, first)
        assert next_dealer(before, dealer, first) == expected
        dealer = expected
