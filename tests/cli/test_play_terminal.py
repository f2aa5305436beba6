"""Table mode in a real pseudo-terminal: the keys a player presses (Tab, Ctrl-C, Ctrl-D)."""

import os
import sys

import pytest

pexpect = pytest.importorskip("pexpect", reason="pexpect drives the terminal")

TIMEOUT = 60  # seconds: a loaded machine starts Python slowly; a pass takes well under one


@pytest.fixture
def term(nap):
    """A `napledger play` at Ann, Ben, Cat, Dan, Eve's table, waiting at its first prompt."""
    nap("new fri --players Ann,Ben,Cat,Dan,Eve")
    env = {
        **os.environ,  # NAPLEDGER_DB: the test's own database, SQLite or PostgreSQL
        "TERM": "xterm",
        "INPUTRC": os.devnull,  # the user's readline settings stay out of the test
        "COLUMNS": "120",
    }
    child = pexpect.spawn(
        sys.executable,
        ["-m", "napledger", "play"],
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(40, 120),
    )
    child.expect_exact("fri · deal 1 · Ann deals> ")
    yield child
    child.close(force=True)


def leaves_cleanly(child):
    child.expect_exact("deals> ")  # a key pressed while a command runs is not for readline
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_tab_keeps_what_was_typed_where_a_bid_has_accented_spellings(term, nap):
    term.send("blu\t\t")  # two offers: both begin with `blu`, so nothing typed is lost
    term.expect_exact("bluecher")
    term.send("cher ann 5\r")
    term.expect_exact("Ann bid blücher: made (5 tricks)")
    term.send("mise\t")  # one offer for `misere` and `misère`: completed, not cut
    term.send("cat 0\r")
    term.expect_exact("Cat bid misère")
    leaves_cleanly(term)
    assert [d["bid"] for d in nap.json("hands --json")] == ["blücher", "misère"]


def test_tab_after_a_bid_offers_only_the_players(term, nap):
    term.send("3 b\t")
    term.send("made\r")
    term.expect_exact("Ben bid three: made")
    leaves_cleanly(term)
    assert nap.chips()["Ben"] == 12


def test_ctrl_c_abandons_the_half_typed_line_and_ctrl_d_leaves(term, nap):
    term.send("nap ann")
    term.expect_exact("nap ann")  # echoed: readline has the line
    # CPython's readline loop only sees a signal that interrupts its select(): one that
    # lands while it is still drawing the echo waits for the next signal or key. A person
    # whose Ctrl-C seems unheard presses it again; so does the test (one more on an empty
    # line only draws the prompt again) until the fresh prompt comes, not after a pause.
    for _ in range(TIMEOUT // 2):
        term.sendintr()
        if term.expect_exact(["fri · deal 1 · Ann deals> ", pexpect.TIMEOUT], timeout=2) == 0:
            break  # a fresh prompt: still playing
    else:
        pytest.fail("Ctrl-C never gave a fresh prompt")
    term.send("3 ben made\r")
    term.expect_exact("Ben bid three: made")
    leaves_cleanly(term)
    assert [d["bidder"] for d in nap.json("hands --json")] == ["Ben"]


def test_close_asks_first_in_a_terminal_and_reopen_takes_it_back(term, nap):
    term.send("close\r")
    term.expect_exact("Close fri? No more deals can be recorded; the pot is empty [y/N]: ")
    term.send("n\r")
    term.expect_exact("fri stays open.")
    term.expect_exact("fri · deal 1 · Ann deals> ")
    term.send("close\r")
    term.expect_exact("[y/N]: ")
    term.send("y\r")
    term.expect_exact("fri (closed)> ")
    term.send("reopen\r")
    term.expect_exact("Session fri reopened")
    term.expect_exact("fri · deal 1 · Ann deals> ")
    term.send("close --yes\r")  # no question
    term.expect_exact("fri (closed)> ")
    term.sendcontrol("d")
    term.expect(pexpect.EOF)
    assert nap.json("table --json")["session"]["closed"]


def test_a_deal_typed_at_the_prompt_is_the_deal_it_showed_and_never_added_twice(term, nap):
    # The prompt says deal 1; meanwhile the keeper's page records that very deal.
    nap("hand nap --by ann --tricks 5")
    term.send("nap ann 5\r")
    term.expect_exact("Ann bid nap: made")
    term.expect_exact("fri · deal 2 · Ben deals> ")
    nap("hand 3 --by cat --made")  # deal 2, another deal, from elsewhere
    term.send("3 ben made\r")
    term.expect_exact("Error: deal 2 was recorded meanwhile (Ben dealt · Cat bid three: made)")
    term.expect_exact("fri · deal 3 · Cat deals> ")  # the prompt has caught up
    term.sendcontrol("d")
    term.expect(pexpect.EOF)
    assert [(d["number"], d["bidder"]) for d in nap.json("hands --json")] == [
        (1, "Ann"),
        (2, "Cat"),
    ]
