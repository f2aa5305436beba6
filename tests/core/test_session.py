"""The session as a pure value: each action's rules and refusals, on the core directly.

The rules cited are docs/rules.md's. `test_any_evening_keeps_every_chip` plays random
evenings through the actions as the store would (keeping only what each action says to
write) and checks that no chip is created or lost and that the state always stands where
a fresh scoring of the live deals puts it.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from napledger.core import session as core
from napledger.core.errors import NapError
from napledger.core.ledger import POT, Payment, balances, changes_from
from napledger.core.options import DealOptions
from napledger.core.rules import Rules, load_preset
from napledger.core.rules.scoring import replay
from napledger.core.session import LiveDeal, SessionState

spec = importlib.util.spec_from_file_location(
    "zero_sum", Path(__file__).parent / "rules" / "test_zero_sum.py"
)
assert spec and spec.loader
zero_sum = importlib.util.module_from_spec(spec)
spec.loader.exec_module(zero_sum)

CLASSIC = load_preset("classic")
PEOPLE = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")


@dataclass
class Table:
    """The store in miniature: what the actions say to write, kept in memory."""

    state: SessionState
    live: list[LiveDeal] = field(default_factory=list)  # the live deals, by number
    shares: dict[str, int] = field(default_factory=dict)  # the live close's postings
    next_id: int = 1

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def around(self, number: int) -> tuple[LiveDeal | None, list[LiveDeal]]:
        before = [d for d in self.live if d.number < number]
        return (before[-1] if before else None), [d for d in self.live if d.number >= number]

    def rescored(self, found: tuple[core.Rescored, ...]) -> None:
        by_id = {r.id: r for r in found}
        self.live = [
            replace(d, changes=by_id[d.id].changes, pot_after=by_id[d.id].pot_after)
            if d.id in by_id
            else d
            for d in self.live
        ]

    def record(self, options: DealOptions, passed: bool = False) -> core.Recorded:
        done = (core.pass_out if passed else core.record)(self.state, options)
        deal_id = self.new_id()
        entries = {a: c for a, c in done.changes.items() if c}
        self.live.append(LiveDeal(deal_id, done.number, 1, done.deal, done.pot_after, entries))
        self.state = core.identified(done.state, done.number, deal_id)
        return done

    def amend(self, number: int, options: DealOptions) -> core.Amended:
        before, later = self.around(number)
        done = core.amend(self.state, number, options, before, later)
        deal_id = self.new_id()
        new = LiveDeal(deal_id, number, done.revision, done.deal, done.pot_after, done.new_changes)
        self.live = [new if d.number == number else d for d in self.live]
        self.rescored(done.rescored)
        self.state = core.identified(done.state, number, deal_id)
        return done

    def void(self, number: int | None = None) -> core.Voided:
        last = self.state.last_live
        before, later = self.around(last.number if number is None and last else number or 0)
        if number is None:
            done = core.undo(self.state, before, later)
        else:
            done = core.void(self.state, number, before, later)
        self.live = [d for d in self.live if d.id != done.voided]
        self.rescored(done.rescored)
        self.state = done.state
        return done

    def close(self, pot_to: str) -> core.Closed:
        done = core.close(self.state, pot_to)
        self.shares = dict(done.changes)
        self.state = done.state
        return done

    def reopen(self) -> core.Reopened:
        done = core.reopen(self.state, self.shares, None)
        self.shares = {}
        self.state = done.state
        return done


def table(rules: Rules = CLASSIC, players: tuple[str, ...] = PEOPLE[:4], **kw: object) -> Table:
    opening = core.start("fri", rules, list(players), None, None, None, **kw)  # type: ignore[arg-type]
    return Table(core.opened(opening, rules))


def nap(by: str, tricks: int = 5) -> DealOptions:
    return DealOptions(bid="nap", by=by, tricks=tricks)


# --- a new session (docs/rules.md, "The end of a session": a pot is carried once) ---------


def test_a_new_session_checks_its_name_players_and_dealer():
    with pytest.raises(NapError, match="cannot be only digits"):
        core.session_terms("42", None, None)
    with pytest.raises(NapError, match="ANN is named twice"):
        core.seating_of(["Ann", "ben", "ANN"])
    with pytest.raises(NapError, match=r"classic is for 3-7 players, not 1"):
        core.start("fri", CLASSIC, ["Ann"], None, None, None)
    opening = core.start("fri", CLASSIC, ["Ann", "Ben", "Cat"], "ca", None, None)
    assert (opening.first_dealer, opening.chip_value, opening.currency) == ("Cat", 1, "")
    assert [c.kind for c in opening.changes] == ["seat"] * 3


def carry_source(**changes: object) -> core.CarrySource:
    source = core.CarrySource(1, "thu", "carry", Decimal("0.05"), "GBP", 7, None)
    return source._replace(**changes)


def test_a_carried_pot_keeps_its_chips_and_goes_on_once():
    opening = core.start("fri", CLASSIC, ["Ann", "Ben", "Cat"], None, None, None, carry_source())
    assert (opening.opening_pot, opening.chip_value, opening.currency) == (
        7,
        Decimal("0.05"),
        "GBP",
    )
    assert core.opened(opening, CLASSIC).pot == 7
    with pytest.raises(NapError, match=r"'thu' did not carry its pot: its close shared it out"):
        core.start(
            "fri", CLASSIC, ["Ann", "Ben", "Cat"], None, None, None, carry_source(pot_to="split")
        )
    with pytest.raises(NapError, match="was already carried into 'sat'"):
        core.start(
            "fri",
            CLASSIC,
            ["Ann", "Ben", "Cat"],
            None,
            None,
            None,
            carry_source(carried_into="sat"),
        )
    with pytest.raises(
        NapError, match=r"in chips of 0\.05 GBP: start this session with that chip value"
    ):
        core.start("fri", CLASSIC, ["Ann", "Ben", "Cat"], None, Decimal(1), None, carry_source())


# --- deals (docs/rules.md, "Who deals") ----------------------------------------------------


def test_the_deal_passes_clockwise_and_undo_gives_it_back():
    t = table()
    assert t.state.dealer == "Ann"
    t.record(nap("Ben"))
    assert t.state.dealer == "Ben" and t.state.next_number == 2
    t.record(DealOptions(bid="three", by="Cat", made=True))
    assert t.state.dealer == "Cat"
    t.void()  # undo: the one who dealt the undone deal deals again
    assert t.state.dealer == "Ben" and t.state.next_number == 3 and t.state.hands == 1
    with pytest.raises(NapError, match="deal 2 of 'fri' is voided and stays so"):
        t.void(2)
    with pytest.raises(NapError, match=r"no deal 9 to change in 'fri' \(`napledger hands`"):
        t.amend(9, nap("Ann"))


def test_undo_with_nothing_live_is_refused():
    with pytest.raises(NapError, match="nothing to undo in 'fri'"):
        table().void()


def test_an_amend_scores_the_later_deals_again_and_says_only_what_changed():
    t = table()
    t.record(nap("Ben", 4))  # a failed nap: Ben pays everyone
    t.record(DealOptions(bid="three", by="Cat", made=True))
    before = dict(t.state.totals)
    done = t.amend(1, DealOptions(tricks=5))  # made after all: Ben is paid, not paying
    assert done.revision == 2 and sum(done.changes.values()) == 0
    assert done.changes["Ben"] > 0 and t.state.last_live == t.live[-1]
    fresh = replay(CLASSIC, [d.deal for d in t.live])
    assert nonzero(balances([done.changes], start=before)) == nonzero(t.state.totals)
    assert nonzero(t.state.totals) == nonzero(balances([changes_from(s.payments) for s in fresh]))
    with pytest.raises(NapError, match="that is what deal 1 already says"):
        t.amend(1, DealOptions(tricks=5))


# --- the table changes (docs/rules.md, "Who deals": joins take effect from the next deal) ---


def test_join_and_leave_keep_within_the_game_s_limits():
    t = table(players=("Ann", "Ben", "Cat"))
    with pytest.raises(NapError, match="classic needs at least 3 players"):
        core.leave(t.state, "ann")
    with pytest.raises(NapError, match="Ann is already seated"):
        core.join(t.state, "Ann")
    joined = core.join(t.state, "Eve", after="ann")
    assert joined.state.seating == ("Ann", "Eve", "Ben", "Cat") and joined.change.from_deal == 1
    left = core.leave(joined.state, "ann")
    assert left.state.seating == ("Eve", "Ben", "Cat")
    assert left.state.everyone == ("Ann", "Ben", "Cat", "Eve")
    with pytest.raises(NapError, match="Ann has already left the table"):
        core.leave(left.state, "ann")
    # The first dealer left before dealing: the first seated player after their chair.
    assert left.state.dealer == "Eve"
    full = table(players=PEOPLE)
    with pytest.raises(NapError, match="classic is for at most 7 players"):
        core.join(full.state, "Hal")


# --- closing (docs/rules.md, "The end of a session: what is left in the pot") -------------


def test_a_close_splits_gives_or_carries_the_pot_and_reopen_takes_it_back():
    t = table(players=("Ann", "Ben", "Cat"), carry=carry_source(chip_value=Decimal(1), currency=""))
    assert core.close_plan(t.state, "ben").payments == (Payment(POT, "Ben", 7),)
    assert core.close_plan(t.state, "carry").payments == ()
    split = core.close_plan(t.state, " Split ")
    assert split.pot_to == "split" and changes_from(split.payments) == {
        POT: -7,
        "Ann": 3,
        "Ben": 2,
        "Cat": 2,
    }
    with pytest.raises(
        NapError, match=r"the pot is split, carried or given to a player .*did you mean split\?"
    ):
        core.close_plan(t.state, "splt")
    with pytest.raises(NapError, match="changed while you were asked; nothing was closed"):
        core.close(t.state, "split", split._replace(pot=6).digest)
    t.close("split")
    assert t.state.pot == 0 and t.state.dealer is None
    with pytest.raises(NapError, match="session 'fri' is closed; `reopen` takes the close back"):
        t.record(nap("Ann"))
    with pytest.raises(NapError, match="so it cannot be reopened"):
        core.reopen(t.state, t.shares, "sat")
    t.reopen()
    assert t.state.pot == 7 and t.state.dealer == "Ann"
    with pytest.raises(NapError, match="session 'fri' is not closed"):
        t.reopen()


def test_an_open_session_is_settled_as_if_split_now():
    chips = core.as_if_closed({"Ann": 5, "Ben": -9, POT: 4}, 0, ("Ann", "Ben"), closed=False)
    assert chips == {"Ann": 7, "Ben": -7, POT: 0}
    net, currency, value = core.net_money([(chips, Decimal("0.5"), "EUR")])
    assert value == Decimal("0.5")
    assert net == {"Ann": Decimal("3.5"), "Ben": Decimal("-3.5"), POT: 0} and currency == "EUR"
    with pytest.raises(NapError, match=r"different currencies \(EUR, GBP\); settle them apart"):
        core.net_money([(chips, Decimal(1), "EUR"), (chips, Decimal(1), "GBP")])


# --- any evening ---------------------------------------------------------------------------


@st.composite
def deal_options(draw: st.DrawFn, rules: Rules) -> DealOptions:
    by = draw(st.sampled_from(PEOPLE))
    bid = draw(st.sampled_from(rules.enabled_bids)).name
    outcome = draw(st.sampled_from(["tricks", "made", "failed", "revoke"]))
    return DealOptions(
        bid=bid,
        by=by,
        tricks=draw(st.integers(0, rules.hand_size)) if outcome == "tricks" else None,
        made=outcome == "made",
        failed=outcome == "failed",
        revoke=draw(st.sampled_from(PEOPLE)) if outcome == "revoke" else None,
    )


ACTIONS = ("record", "record", "record", "pass", "amend", "void", "undo", "join", "leave")
ACTIONS += ("close", "reopen")


@settings(max_examples=100, deadline=None)
@given(zero_sum.rules_with_settings(), st.integers(0, 9), st.data())
def test_any_evening_keeps_every_chip(rules, opening_pot, data):
    players = PEOPLE[: max(rules.min_players, 3)]
    carry = carry_source(chip_value=Decimal(1), currency="", pot=opening_pot)
    t = table(rules, players, carry=carry)
    for _ in range(data.draw(st.integers(1, 30))):
        action = data.draw(st.sampled_from(ACTIONS))
        given = st.integers(0, t.state.number + 1)  # mostly a live deal, at times any number
        number = data.draw(st.sampled_from([d.number for d in t.live]) | given if t.live else given)
        before = t.state
        try:
            if action in ("record", "pass"):
                done = t.record(data.draw(deal_options(rules)), passed=action == "pass")
            elif action == "amend":
                small = st.builds(DealOptions, tricks=st.integers(0, rules.hand_size))
                done = t.amend(number, data.draw(small | deal_options(rules)))
            elif action == "void":
                done = t.void(number)
            elif action == "undo":
                done = t.void()
            elif action == "join":
                name = data.draw(st.sampled_from(PEOPLE))
                after = data.draw(st.none() | st.sampled_from(PEOPLE))
                done = core.join(t.state, name, after)
                t.state = done.state
            elif action == "leave":
                done = core.leave(t.state, data.draw(st.sampled_from(PEOPLE)))
                t.state = done.state
            elif action == "close":
                choice = data.draw(st.sampled_from(["split", "carry", *t.state.seating]))
                done = t.close(choice)
            else:
                done = t.reopen()
        except NapError:
            assert t.state is before  # a refusal changes nothing
            continue
        event(f"{action} done")  # --hypothesis-show-statistics: how often each one took
        # Every action's postings sum to zero across the players and the pot ...
        assert sum(done.changes.values()) == 0
        assert nonzero(balances([done.changes], start=before.totals)) == nonzero(t.state.totals)
        # ... and the state stands where a fresh scoring of the live deals puts it.
        fresh = replay(rules, [d.deal for d in t.live], opening_pot)
        scored = [changes_from(s.payments) for s in fresh]
        for kept, again in zip(t.live, fresh, strict=True):
            assert nonzero(kept.changes) == nonzero(changes_from(again.payments))
            assert kept.pot_after == again.pot_after
        assert nonzero(t.state.totals) == nonzero(balances([*scored, t.shares]))
        pot = fresh[-1].pot_after if fresh else opening_pot
        assert t.state.pot == pot + t.shares.get(POT, 0)
        assert t.state.hands == len(t.live)
        assert t.state.last_live == (t.live[-1] if t.live else None)
        assert t.state.closed or t.state.dealer in t.state.seating


def nonzero(chips: object) -> dict[str, int]:
    return {a: c for a, c in dict(chips).items() if c}  # type: ignore[call-overload]
