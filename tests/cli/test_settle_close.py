"""Settling up and closing as typed and shown: `settle`'s list and JSON, `-s` naming
sessions, `close --pot`, `--carry-from`, `reopen` and the closes in `hands`. The rules of
settling and closing are tested on the session service: tests/service/test_settle_close.py."""

from decimal import Decimal


def russian_evening(nap, name="moscow"):
    nap(f"new {name} --players A,B,C,D --variant russian --chip 5 --currency RUB")
    nap("hand three --by B --made")
    nap("hand 4 --by C --tricks 2")
    nap("hand napoleon --by D --failed")
    nap("hand napoleon --by A --made")


def apply(plan, net):
    left = dict(net)
    for t in plan:
        left[t["from"]] += Decimal(t["money"])  # a debtor pays off what they owe
        left[t["to"]] -= Decimal(t["money"])
    return left


def test_settle_example_8_in_three_payments(nap):
    russian_evening(nap)
    plan = nap.json("settle --json")["transfers"]
    assert len(plan) == 3
    net = {"A": Decimal(175), "B": Decimal(60), "C": Decimal(-100), "D": Decimal(-135)}
    assert set(apply(plan, net).values()) == {0}
    assert all(Decimal(t["money"]) == t["chips"] * 5 for t in plan)
    out = nap("settle").stdout
    assert "3 payments" in out and "→ A:" in out and "+175" in out


def test_a_carried_pot_keeps_its_chip_value(nap):
    nap("new first --players A,B,C --variant russian --chip 0.05 --currency GBP")
    nap("pass")
    nap("close --pot carry")
    assert nap.fails(
        "new second --players A,B,C --variant russian --chip 1 --carry-from first"
    ).endswith(
        "in chips of 0.05 GBP: start this session with that chip value and currency (--chip/--currency)"
    )
    nap("new second --players A,B,C --variant russian --carry-from first")  # its chip, its money
    assert nap.json("table --json")["session"] | {"id": 0} == {
        "id": 0, "name": "second", "variant": "russian", "chip_value": "0.05",
        "currency": "GBP", "closed": False,
    }  # fmt: skip
    assert nap.json("table --json")["pot"] == 1


def test_a_session_named_twice_is_settled_once(nap):
    nap("new one --players A,B,C")
    nap("hand 3 --by A --made")
    once = nap.json("settle --json")
    assert nap.json("settle -s one -s 1 -s ONE --json") == once
    assert [t["chips"] for t in once["transfers"]] == [3, 3]


def test_reopen_takes_back_a_close_and_keeps_it_voided_in_the_record(nap, db_path):
    import sqlite3

    nap("new x --players A,B,C --rule pool=on")
    nap("pass")
    open_chips = nap.chips()
    nap("close --pot b")
    assert "`reopen` takes the close back" in nap.fails("hand 3 --by A --made")
    out = nap("reopen").stdout
    assert "Session x reopened" in out and "Next to deal: B" in out
    assert nap.chips() == open_chips and nap.json("table --json")["pot"] == 3
    assert not nap.json("table --json")["session"]["closed"]
    nap("hand 3 --by A --made")  # the evening goes on: all ante again (pot 6), A wins 3 each
    nap("close --yes")  # --yes is accepted where nothing would ask anyway
    assert nap.chips() == {"A": -2 + 6 + 2, "B": -2 - 3 + 2, "C": -2 - 3 + 2}
    with sqlite3.connect(db_path) as db:
        closes = db.execute("SELECT pot_to, pot, shares_json, status FROM closes").fetchall()
    assert closes == [
        ("B", 3, '{"B": 3, "pot": -3}', "voided"),
        ("split", 6, '{"A": 2, "B": 2, "C": 2, "pot": -6}', "live"),
    ]
    assert "check out" in nap("verify").stdout
    rows = [line for line in nap("hands").stdout.splitlines() if not line.startswith("├")]
    listed = " ".join("\n".join(rows).replace("│", " ").split())
    # A close is a row of its own, named as the workbook's Deals sheet names it.
    assert "passed out A -1 B -1 C -1 pot +3 3 close reopened: pot of 3 to B B +3 pot -3" in listed
    assert "close pot of 6 split A +2 B +2 C +2 pot -6 0" in listed


def test_a_mistyped_pot_choice_names_the_choices(nap):
    nap("new x --players Ann,Ben,Cat")
    assert nap.fails("close --pot splt") == (
        "Error: the pot is split, carried or given to a player at the table (Ann, Ben, Cat), "
        "not 'splt'; did you mean split? (--pot)"
    )
    assert nap.fails("close --pot banana").endswith("not 'banana' (--pot)")


def test_every_json_document_writes_money_with_the_currency_places(nap):
    nap("new x --players A,B,C --chip 0.1 --currency GBP")
    nap("hand 3 --by A --made")  # A +6 chips = 0.60, B and C -3 = -0.30
    table = nap.json("table --json")
    assert [p["money"] for p in table["players"]] == ["0.60", "-0.30", "-0.30"]
    hands = nap.json("hands --json")
    assert {t["money"] for t in hands[0]["transfers"]} == {"0.30"}
    settle = nap.json("settle --json")
    assert sorted(t["money"] for t in settle["transfers"]) == ["0.30", "0.30"]
    assert nap.json("stats --json")["players"][0]["money"] == "0.60"
    assert "+0.60" in nap("table").stdout and "→ A: 0.30" in nap("settle").stdout
    nap("new y --players A,B,C --chip 5 --currency JPY")
    nap("hand 3 --by A --made")
    assert nap.json("table --json")["players"][0]["money"] == "30"
