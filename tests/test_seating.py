from napledger.seating import next_dealer


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
