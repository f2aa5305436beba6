"""Settle the night's balances with the fewest possible transfers.

Balances are scaled to whole minor units (plain ints) before any arithmetic and
scaled back at the end, so the plan is exact to the last unit and no float ever
appears.

The fewest transfers for n non-zero parties is n - g, where g is the largest
number of disjoint groups whose balances each sum to zero: a group of k parties
needs k - 1 transfers, and any plan's transfers split the parties into such
groups. g is found by a dynamic programme over subsets whose tables are Python
ints used as bitsets (bit m stands for the subset m), so each step works on all
2**n subsets at once instead of looping over them in Python.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from napledger.core.errors import NapError
from napledger.core.words import _

Amount = int | Decimal

# The tables take 2**n bits each and there are up to n of them, so past this many
# parties (counted after cancelling exact opposites) time and memory blow up. Such a
# crowd is settled greedily instead: still exact, but perhaps not the fewest.
EXACT_LIMIT = 22


@dataclass(frozen=True)
class Transfer:
    """``payer`` gives ``payee`` the (always positive) ``amount``."""

    payer: str
    payee: str
    amount: Amount


def settle(balances: Mapping[str, Amount]) -> list[Transfer]:
    """The fewest transfers that bring every balance (positive = is owed) to zero.

    Amounts come back as ints if every balance is an int, else as Decimals with the
    finest number of decimal places in the input. The plan does not depend on the
    order of ``balances``; transfers are sorted by payer, then payee.
    """
    units, to_amount = _to_units(balances)
    pairs, rest = _cancel_opposites(units)
    groups = _zero_sum_groups(rest) if len(rest) <= EXACT_LIMIT else [rest]
    return _transfers([t for group in pairs + groups for t in _greedy(group)], to_amount)


def greedy_settle(balances: Mapping[str, Amount]) -> list[Transfer]:
    """Largest debtor pays largest creditor until all are square: simple, not minimal."""
    units, to_amount = _to_units(balances)
    return _transfers(_greedy(units), to_amount)


def _to_units(balances: Mapping[str, Amount]) -> tuple[dict[str, int], Callable[[int], Amount]]:
    places = 0
    for name, value in balances.items():
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            raise TypeError(f"balance of {name!r} is {type(value).__name__}, not int or Decimal")
        if isinstance(value, Decimal):
            exponent = value.as_tuple().exponent
            if not isinstance(exponent, int):
                raise NapError(
                    _("balance of {name} is not a number: {value}").format(name=name, value=value)
                )
            places = max(places, -exponent)
    decimal = any(isinstance(value, Decimal) for value in balances.values())

    def to_amount(units: int) -> Amount:
        # The string constructor is exact; arithmetic would round to the context.
        return Decimal(f"{units}E-{places}") if decimal else units

    # Fraction(Decimal) is exact, so this is too, however many digits there are.
    scaled = {name: Fraction(value) * 10**places for name, value in balances.items()}
    units = {name: int(value) for name, value in scaled.items() if value}
    if total := sum(units.values()):
        raise NapError(
            _("balances do not sum to zero: they are off by {amount}").format(
                amount=to_amount(total)
            )
        )
    return units, to_amount


def _transfers(
    transfers: list[tuple[str, str, int]], to_amount: Callable[[int], Amount]
) -> list[Transfer]:
    # Each (payer, payee) pair occurs at most once, so this order is total.
    return [Transfer(payer, payee, to_amount(units)) for payer, payee, units in sorted(transfers)]


def _greedy(units: Mapping[str, int]) -> list[tuple[str, str, int]]:
    creditors = {name: value for name, value in units.items() if value > 0}
    debtors = {name: -value for name, value in units.items() if value < 0}
    transfers = []
    while creditors:
        payee = min(creditors, key=lambda name: (-creditors[name], name))
        payer = min(debtors, key=lambda name: (-debtors[name], name))
        amount = min(creditors[payee], debtors[payer])
        transfers.append((payer, payee, amount))
        for side, name in ((creditors, payee), (debtors, payer)):
            side[name] -= amount
            if not side[name]:
                del side[name]
    return transfers


def _cancel_opposites(units: Mapping[str, int]) -> tuple[list[dict[str, int]], dict[str, int]]:
    """Split off pairs (a, -a); what is left has no such pair.

    Always safe: in an optimal grouping, taking a and -a out of their groups into a
    pair of their own leaves the rest of those groups still summing to zero, so
    the number of groups does not drop. It also shrinks the exponential part.
    """
    by_size: dict[int, tuple[list[str], list[str]]] = {}
    for name in sorted(units):
        creditors, debtors = by_size.setdefault(abs(units[name]), ([], []))
        (creditors if units[name] > 0 else debtors).append(name)
    pairs: list[dict[str, int]] = []
    rest: dict[str, int] = {}
    for size, (creditors, debtors) in sorted(by_size.items()):
        matched = min(len(creditors), len(debtors))
        pairs += [{c: size, d: -size} for c, d in zip(creditors, debtors, strict=False)]
        rest |= {name: size for name in creditors[matched:]}
        rest |= {name: -size for name in debtors[matched:]}
    return pairs, rest


def _zero_sum_groups(units: Mapping[str, int]) -> list[dict[str, int]]:
    """Split the parties into as many groups as possible that each sum to zero.

    For subsets M let f(M) be the most disjoint zero-sum groups inside M. If Z sums
    to zero then f(Z) = f(Z - {a}) + 1 for any member a (the groups inside Z - {a}
    plus the rest of Z, which sums to zero too). So with

        end[j]   = {Z : Z sums to zero, f(Z) >= j}
                 = {Z : Z sums to zero, Z minus its top member is in reach[j-1]}
        reach[j] = {M : f(M) >= j} = every superset of a member of end[j]

    g is the largest j with everyone in end[j]. Each table is a few
    whole-bitset operations, and there are at most n/3 of them (no group is smaller
    than three once opposites are cancelled).
    """
    names = sorted(units)
    n = len(names)
    if n == 0:
        return []
    # Balanced and free of opposites means n >= 3, which the byte-wide tables need.
    assert n >= 3, units
    zero = _zero_sum_table([units[name] for name in names])
    everyone = (1 << n) - 1
    without = [_without_member(i, n) for i in range(n)]
    reach = (1 << (1 << n)) - 1
    tables: list[tuple[bytes, bytes]] = []
    while (end := _add_top_member(reach, n) & zero) >> everyone:
        reach = end
        for i in range(n):
            reach |= (reach & without[i]) << (1 << i)
        tables.append((_to_bytes(end, n), _to_bytes(reach, n)))

    # Walk back down a chain of zero-sum subsets, peeling off one group per level.
    groups = []
    current = everyone
    for end_bytes, reach_bytes in reversed(tables[:-1]):
        inner = current ^ 1 << (current.bit_length() - 1)
        while not _has(end_bytes, inner):
            # inner is in reach, so it holds some zero-sum Z in end; a party outside
            # Z can go without leaving reach. The lowest such keeps the plan fixed.
            inner = next(inner ^ bit for bit in _members(inner) if _has(reach_bytes, inner ^ bit))
        groups.append(current ^ inner)
        current = inner
    groups.append(current)
    return [{names[i]: units[names[i]] for i in range(n) if mask >> i & 1} for mask in groups]


def _zero_sum_table(values: list[int]) -> int:
    """Bitset of the subsets of ``values`` that sum to zero.

    Meets in the middle: subsets of the low members form one row of the table, and
    each subset of the high members picks the row of low subsets cancelling it.
    """
    low = max(3, (len(values) + 1) // 2)  # a row must be whole bytes
    rows: dict[int, int] = {}
    for mask, total in enumerate(_subset_sums(values[:low])):
        rows[total] = rows.get(total, 0) | 1 << mask
    width = (1 << low) // 8
    no_row = bytes(width)
    table = b"".join(
        rows[-total].to_bytes(width, "little") if -total in rows else no_row
        for total in _subset_sums(values[low:])
    )
    return int.from_bytes(table, "little")


def _subset_sums(values: list[int]) -> list[int]:
    sums = [0]
    for value in values:
        sums += [total + value for total in sums]
    return sums


def _add_top_member(table: int, n: int) -> int:
    """Bitset of M + {i} for every M in ``table`` and every i above all members of M."""
    out = 0
    for i in range(n):
        below = 1 << i  # subsets of the members under i are exactly the masks < 2**i
        out |= (table & ((1 << below) - 1)) << below
    return out


def _without_member(i: int, n: int) -> int:
    """Bitset of the subsets of n members that lack member i."""
    # Masks alternate between runs of 2**i without member i and 2**i with it.
    table, width = (1 << (1 << i)) - 1, 2 << i
    while width < 1 << n:
        table |= table << width
        width *= 2
    return table


def _to_bytes(table: int, n: int) -> bytes:
    # Testing one bit of a huge int copies it; indexing bytes does not.
    return table.to_bytes((1 << n) // 8, "little")


def _has(table: bytes, mask: int) -> bool:
    return bool(table[mask >> 3] >> (mask & 7) & 1)


def _members(mask: int) -> Iterator[int]:
    while mask:
        bit = mask & -mask
        yield bit
        mask ^= bit
