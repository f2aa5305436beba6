"""A whole evening through the CLI, checked against the worked examples of docs/rules.md:
what each command prints and its JSON. Examples 6, 8 and 9's money is tested on the
session service (tests/service/test_evening.py)."""


def test_classic_examples_1_to_5(nap):
    nap("new fri --players A,B,C,D,E --chip 0.05 --currency GBP")
    nap("hand nap --by A --tricks 5")
    nap("hand 3 --by B --tricks 4")
    nap("hand misère --by C --tricks 1")
    nap("hand four --by D --revoke E")
    out = nap("hand wellington --by A --revoke A").stdout
    assert "Deal 5" in out and "revoke by A" in out
    doc = nap.json("table --json")
    assert doc["session"] == {
        "id": 1, "name": "fri", "variant": "classic", "chip_value": "0.05", "currency": "GBP", "closed": False,
    }  # fmt: skip
    assert {p["name"]: (p["chips"], p["money"]) for p in doc["players"]} == {
        "A": (0, "0.00"), "B": (15, "0.75"), "C": (-15, "-0.75"), "D": (16, "0.80"), "E": (-16, "-0.80"),
    }  # fmt: skip
    assert doc["pot"] == 0 and doc["hands"] == 5


def test_a_deal_says_who_dealt_and_who_deals_next(nap):
    nap("new six --players A,B,C,D,E,F --dealer F")
    out = nap("hand four --by A --made").stdout
    assert "F dealt" in out and "Next to deal: A" in out


def test_amend_rederives_later_deals_that_depend_on_the_pot(nap):
    nap("new box --players A,B,C --variant russian")
    nap("hand 2 --by A --tricks 1")  # A antes and fails: box 1 + 2 = 3, B +2
    nap("hand napoleon --by B --made")  # B antes (box 4), wins 5 from each and the box
    assert nap.chips()["B"] == 2 - 1 + 10 + 4
    nap("amend 1 --tricks 2")  # A made it after all: the box held only A's ante
    assert nap.chips()["B"] == -2 - 1 + 10 + 2
    hands = nap.json("hands --json")
    assert [(h["number"], h["revision"], h["status"]) for h in hands] == [
        (1, 1, "replaced"), (1, 2, "live"), (2, 1, "live"),
    ]  # fmt: skip
    assert hands[0]["voided"] is False and hands[0]["transfers"] == [] and hands[0]["changes"] == {}
    # The live revision: A made two, so B and C each paid A two; A's ante went to the box.
    assert {(x["from"], x["to"], x["chips"]) for x in hands[1]["transfers"]} == {
        ("A", "pot", 1), ("B", "A", 2), ("C", "A", 2),
    }  # fmt: skip
    assert hands[1]["changes"] == {"A": 3, "B": -2, "C": -2, "pot": 1}


def test_undo_voids_the_last_deal_and_gives_the_deal_back(nap):
    nap("new u --players A,B,C")
    nap("hand 3 --by A --made")
    out = nap("undo").stdout
    assert "Deal 1 voided" in out and "Next to deal: A" in out
    assert nap.chips() == {"A": 0, "B": 0, "C": 0}
    assert nap.json("hands --json")[0]["status"] == "voided"
    nap("hand 3 --by B --failed")
    assert [h["number"] for h in nap.json("hands --json")] == [1, 2]


def test_join_and_leave_take_effect_from_the_next_deal(nap):
    nap("new j --players A,B,C")
    nap("hand 3 --by A --made")
    nap("join D --after A")
    nap("hand 3 --by D --made")
    assert nap.chips() == {"A": 6 - 3, "B": -3 - 3, "C": -3 - 3, "D": 9}
    nap("leave A")
    out = nap("hand 3 --by B --made").stdout
    assert "A" not in out.split("Deal 3")[1].split("\n")[1]
    assert nap.chips()["A"] == 3  # A's score stays after leaving
    listing = nap("hands").stdout
    assert listing.index("D sits down in seat 2") < listing.index("D three")
    assert listing.index("A leaves the table") < listing.index("B three")
    # Each stands between lines of its own, never read as the rest of the deal above it.
    lines = listing.splitlines()
    for event in ("D sits down in seat 2", "A leaves the table"):
        at = next(i for i, line in enumerate(lines) if event in line)
        assert lines[at - 1].startswith("├") and lines[at + 1].startswith("├"), listing
    assert "check out" in nap("verify").stdout
