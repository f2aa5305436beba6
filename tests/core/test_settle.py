from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from napledger.core.errors import NapError
from napledger.core.settle import EXACT_LIMIT, Transfer, greedy_settle, settle

NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve", "Fred", "Gwen", "Hugh", "Ivy", "pot"]


@st.composite
def balanced(draw: st.DrawFn, max_parties: int = 7, low: int = -9, high: int = 9) -> dict[str, int]:
    """Small values on purpose: they make many zero-sum subgroups to find."""
    names = draw(st.lists(st.sampled_from(NAMES), max_size=max_parties, unique=True))
    if not names:
        return {}
    amounts = draw(
        st.lists(st.integers(low, high), min_size=len(names) - 1, max_size=len(names) - 1)
    )
    return dict(zip(names, [*amounts, -sum(amounts)], strict=True))


def settled(balances: Mapping[str, int | Decimal], plan: list[Transfer]) -> bool:
    """True if the plan is well formed and leaves every party at exactly zero."""
    # Fractions, because Decimal arithmetic would round long amounts to its context.
    left = {name: Fraction(value) for name, value in balances.items()}
    for payment in plan:
        if payment.amount <= 0 or payment.payer == payment.payee:
            return False
        left[payment.payer] += Fraction(payment.amount)
        left[payment.payee] -= Fraction(payment.amount)
    return all(value == 0 for value in left.values())  # an unknown party raised KeyError


def fewest_transfers(balances: Mapping[str, int]) -> int:
    """Brute force: n minus the most zero-sum groups found by trying every partition."""
    values = [value for value in balances.values() if value]

    def most_groups(rest: list[int]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = 0
        for size in range(len(others) + 1):
            for picked in combinations(range(len(others)), size):
                if first + sum(others[i] for i in picked) == 0:
                    remaining = [v for i, v in enumerate(others) if i not in picked]
                    best = max(best, 1 + most_groups(remaining))
        return best

    return len(values) - most_groups(values)


def fewest_transfers_dp(balances: Mapping[str, int]) -> int:
    """The textbook O(2**n * n) subset DP, as an oracle for sizes brute force is too slow for."""
    values = [value for value in balances.values() if value]
    n = len(values)
    sums = [0] * (1 << n)
    groups = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + values[low]
        best = max(groups[mask ^ (1 << i)] for i in range(n) if mask >> i & 1)
        groups[mask] = best + (sums[mask] == 0)
    return n - groups[-1]


def test_worked_example() -> None:
    balances = {"A": Decimal(175), "B": Decimal(60), "C": Decimal(-100), "D": Decimal(-135)}
    plan = settle(balances)
    # No two or three of these cancel out, so four parties need three transfers.
    assert plan == [
        Transfer("C", "A", Decimal(40)),
        Transfer("C", "B", Decimal(60)),
        Transfer("D", "A", Decimal(135)),
    ]
    assert settled(balances, plan)


def test_opposites_settle_directly() -> None:
    balances = {"Alice": 7, "Bob": -7, "Carol": 5, "pot": -5}
    assert settle(balances) == [Transfer("Bob", "Alice", 7), Transfer("pot", "Carol", 5)]


@given(balanced(max_parties=8, low=-200, high=200))
def test_decimal_settles_to_the_last_minor_unit(steps: dict[str, int]) -> None:
    balances = {name: step * Decimal("0.05") for name, step in steps.items()}
    plan = settle(balances)
    assert settled(balances, plan)
    for payment in plan:
        assert isinstance(payment.amount, Decimal)
        assert payment.amount % Decimal("0.05") == 0
        assert payment.amount.as_tuple().exponent == -2


@settings(max_examples=400)
@given(balanced(max_parties=7))
def test_matches_brute_force_optimum(balances: dict[str, int]) -> None:
    plan = settle(balances)
    assert settled(balances, plan)
    assert len(plan) == fewest_transfers(balances)


@settings(max_examples=100)
@given(balanced(max_parties=10, low=-6, high=6))
def test_matches_textbook_dp_on_larger_tables(balances: dict[str, int]) -> None:
    plan = settle(balances)
    assert settled(balances, plan)
    assert len(plan) == fewest_transfers_dp(balances)


@given(st.lists(st.lists(st.integers(1, 50), min_size=1, max_size=3), min_size=1, max_size=5))
def test_finds_planted_groups(creditor_groups: list[list[int]]) -> None:
    # Each group is some creditors and one debtor owing them all, so the plan needs
    # at most one transfer per creditor however the groups get mixed up.
    balances: dict[str, int] = {}
    for g, creditors in enumerate(creditor_groups):
        balances |= {f"c{g}.{i}": amount for i, amount in enumerate(creditors)}
        balances[f"d{g}"] = -sum(creditors)
    plan = settle(balances)
    assert settled(balances, plan)
    assert len(plan) <= sum(len(creditors) for creditors in creditor_groups)


@given(balanced(max_parties=10))
def test_never_longer_than_greedy(balances: dict[str, int]) -> None:
    greedy = greedy_settle(balances)
    assert settled(balances, greedy)
    assert len(settle(balances)) <= len(greedy)


def test_beats_greedy_when_groups_hide() -> None:
    # Greedy pairs the big ones first and so misses that {A, C, D} and {B, E} cancel.
    balances = {"A": 6, "B": 5, "C": -4, "D": -2, "E": -5}
    assert len(greedy_settle(balances)) == 4
    assert len(settle(balances)) == 3


@given(st.data())
def test_same_plan_in_any_input_order(data: st.DataObject) -> None:
    balances = data.draw(balanced(max_parties=9))
    shuffled = dict(data.draw(st.permutations(list(balances.items()))))
    plan = settle(balances)
    assert settle(shuffled) == plan
    assert plan == sorted(plan, key=lambda payment: (payment.payer, payment.payee))


def test_same_plan_when_several_groupings_are_optimal() -> None:
    # {a, b, c} and {d, e, f} or {a, d, c} and {b, e, f}, ...: the choice must not
    # depend on which order the parties arrive in.
    balances = {"Alice": 1, "Bob": 1, "Carol": -2, "Dave": 1, "Eve": 1, "Fred": -2}
    plans = {tuple(settle(dict(order))) for order in permutations(balances.items())}
    assert len(plans) == 1
    assert len(plans.pop()) == 4


@given(balanced(max_parties=6), st.integers(1, 100), st.sampled_from([1, -1]))
def test_unbalanced_raises(balances: dict[str, int], error: int, sign: int) -> None:
    balances["Zed"] = sign * error
    with pytest.raises(NapError, match="do not sum to zero") as raised:
        settle(balances)
    assert "\n" not in str(raised.value)
    with pytest.raises(NapError):
        greedy_settle(balances)


def test_unbalanced_message_names_the_gap_exactly() -> None:
    with pytest.raises(NapError, match=r"off by 0\.05$"):
        settle({"Alice": Decimal("10.00"), "Bob": Decimal("-9.95")})


@pytest.mark.parametrize("balances", [{}, {"Alice": 0}, {"Alice": 0, "pot": Decimal("0.00")}])
def test_nothing_to_settle(balances: dict[str, int | Decimal]) -> None:
    assert settle(balances) == []
    assert greedy_settle(balances) == []


def test_amount_types_follow_the_input() -> None:
    ints = settle({"Alice": 3, "Bob": -3})
    assert ints == [Transfer("Bob", "Alice", 3)]
    assert type(ints[0].amount) is int
    mixed = settle({"Alice": 3, "Bob": Decimal("-3.0")})
    assert mixed == [Transfer("Bob", "Alice", Decimal("3.0"))]
    assert isinstance(mixed[0].amount, Decimal)


def test_exact_beyond_decimal_context_precision() -> None:
    # 40 significant digits: Decimal arithmetic would round at the default 28.
    big = Decimal("123456789012345678901234567890.1234567891")
    rest = Decimal("-123456789012345678901234567890.1234567890")
    balances = {"Alice": big, "Bob": Decimal("-0.0000000001"), "Carol": rest}
    plan = settle(balances)
    assert settled(balances, plan)
    assert len(plan) == 2


def test_floats_are_refused() -> None:
    with pytest.raises(TypeError, match="float"):
        settle({"Alice": 0.1, "Bob": -0.1})  # type: ignore[dict-item]


@pytest.mark.parametrize("bad", ["NaN", "Infinity", "-Infinity"])
def test_non_numbers_are_refused(bad: str) -> None:
    with pytest.raises(NapError, match="not a number"):
        settle({"Alice": Decimal(bad), "Bob": Decimal(1)})


def test_crowd_past_exact_limit_is_still_settled() -> None:
    # Powers of two never cancel in smaller groups, so this is one big group.
    names = [f"p{i:02d}" for i in range(EXACT_LIMIT + 3)]
    amounts = [2**i for i in range(len(names) - 1)]
    balances = dict(zip(names, [*amounts, -sum(amounts)], strict=True))
    plan = settle(balances)
    assert settled(balances, plan)
    assert len(plan) == len(names) - 1


def test_twenty_parties_many_groups() -> None:
    # Five groups {1, 3, 5, -9} * 1000**g: in base 1000 every digit of a zero sum
    # must itself be zero, so only whole groups cancel and the fewest is 5 * 3.
    balances = {}
    for g in range(5):
        for i, factor in enumerate((1, 3, 5, -9)):
            balances[f"g{g}.{i}"] = factor * 1000**g
    plan = settle(balances)
    assert settled(balances, plan)
    assert len(plan) == 20 - 5
