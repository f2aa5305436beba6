"""Who deals, as typed: `--dealer` on a deal and on an amend, and `verify` naming a deal
dealt by the wrong player. The rotation itself (joins, leaves, undo, void, the random
evenings) is tested on the session service: tests/service/test_dealing.py."""

from __future__ import annotations

from tests.tampering import rewrite_record


def dealers(nap) -> list[str]:
    return [h["dealer"] for h in nap.json("hands --json") if h["status"] == "live"]


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


def test_verify_reports_a_deal_dealt_by_the_wrong_player(nap, db_path):
    nap("new s --players A,B,C,D")
    nap("pass")
    nap("pass")
    rewrite_record(db_path, 2, dealer="C")
    result = nap("verify", ok=False)
    assert result.exit_code == 1
    assert "deal 2: C dealt it, but the deal had passed to B" in result.stdout
