"""Who sits and who deals: the roster's changes, and the deal passing clockwise.

The rotation rule is written out in docs/rules.md ("Who deals").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class RosterChange:
    """One change to who sits, in force from deal `from_deal` on."""

    from_deal: int
    kind: str  # "seat" (the opening seating), "join" or "leave"
    player: str
    seat: int  # the place in the clockwise order the player takes (join, seat) or left (leave)


def in_force(changes: Iterable[RosterChange], number: int) -> list[RosterChange]:
    """The changes made before deal `number` was dealt, in the order they were made."""
    return [change for change in changes if change.from_deal <= number]


def next_dealer(changes: Sequence[RosterChange], last_dealer: str | None, first_dealer: str) -> str:
    """Who deals next, given every roster change made so far.

    The first seated player clockwise after the chair of the last live deal's dealer; with
    no live deal yet, the first dealer, or the first seated player after their chair if
    they have stood up. A chair stays where it was when its player stood up, so a dealer
    who has left is counted from their old seat; one who sat down again elsewhere is
    counted from their new chair (`_chairs`).
    """
    chairs = _chairs(changes)
    dealer = first_dealer if last_dealer is None else last_dealer
    at = next((i for i, (player, _) in enumerate(chairs) if player == dealer), None)
    if at is None:  # never seated: a record napledger did not make; start at the first seat
        at, last_dealer = 0, None
    start = at if last_dealer is None else at + 1
    for step in range(len(chairs)):
        player, sits = chairs[(start + step) % len(chairs)]
        if sits:
            return player
    raise ValueError("nobody is seated")


def _chairs(changes: Iterable[RosterChange]) -> list[tuple[str, bool]]:
    """The chairs round the table, clockwise: each one's last player and whether they sit in it.

    A leave empties the player's chair, which stays where it was. A join puts a new chair
    right after the chair of the seated player the newcomer sits after (the first seat:
    the first chair); one who left and sits down again takes the new chair, and their old
    one goes. The seated players, in chair order, are the seating (`seated_at`).
    """
    chairs: list[tuple[str, bool]] = []
    for change in changes:
        if change.kind == "leave":
            at = chairs.index((change.player, True))  # ValueError: they were not seated
            chairs[at] = (change.player, False)
            continue
        chairs = [chair for chair in chairs if chair[0] != change.player]
        sitting = [i for i, (_, sits) in enumerate(chairs) if sits]
        before = sitting[: change.seat]  # the chairs of the players they sit after
        chairs.insert(before[-1] + 1 if before else 0, (change.player, True))
    return chairs


def seated_at(changes: Iterable[RosterChange], number: int) -> tuple[str, ...]:
    """Who sits for deal `number`: the changes in force by then, replayed in order."""
    return tuple(player for player, sits in _chairs(in_force(changes, number)) if sits)


def changes_between(
    before: Sequence[str], after: Sequence[str], from_deal: int
) -> list[RosterChange]:
    """The leaves and joins that turn one seating into the next (as `join`/`leave` make them)."""
    changes = []
    now = list(before)
    stay = [p for p in before if p in after]
    # Someone left and sat down again elsewhere: the ones staying changed order, so all
    # stand up and sit down again rather than guess which of them moved.
    going = (
        before
        if stay != [p for p in after if p in before]
        else [p for p in before if p not in after]
    )
    for player in going:
        changes.append(RosterChange(from_deal, "leave", player, now.index(player)))
        now.remove(player)
    for seat, player in enumerate(after):
        if player not in now:
            now.insert(seat, player)
            changes.append(RosterChange(from_deal, "join", player, seat))
    return changes


@dataclass(frozen=True)
class Dealt:
    """One recorded revision of a deal, as the rotation check needs it."""

    number: int
    live: bool
    dealer: str
    seated: tuple[str, ...]
    named: bool | None  # dealer named with --dealer; None: recorded before that was kept


def misdealt(
    changes: Sequence[RosterChange], first_dealer: str, deals: Iterable[Dealt]
) -> Iterator[tuple[Dealt, str]]:
    """Live deals dealt by someone the rotation did not name, each with whom it named.

    Deal n was dealt after whichever deal was then the last live one: the last deal still
    live before n, or any deal voided or replaced since (it may have been voided after n
    was dealt), so a deal following any of them is right. A dealer named with `--dealer`
    moves the rotation and is never wrong. A deal recorded before napledger kept that
    mark (`named` None) cannot say whether its dealer was named, so a dealer off the
    rotation is taken as named, unless it is exactly the player napledger's old
    join-and-leave fault named: that deal is reported.
    """
    since: list[Dealt] = []  # every revision from the last live deal before this number on
    live_before = False
    by_number: dict[int, list[Dealt]] = {}
    for deal in deals:
        by_number.setdefault(deal.number, []).append(deal)
    for number in sorted(by_number):
        revisions = by_number[number]
        now = in_force(changes, number)
        # The last live deal first: it is whom the rotation names when nothing was voided.
        previous = [d for d in since if d.live] + [d for d in since if not d.live]
        rightful = [next_dealer(now, d.dealer, first_dealer) for d in previous]
        if not live_before:
            rightful.append(next_dealer(now, None, first_dealer))
        for deal in revisions:
            if not deal.live or deal.named or deal.dealer in rightful:
                continue
            if deal.named is None:
                seating = seated_at(changes, number)
                faulty = {_old_next_dealer(seating, d.dealer, d.seated) for d in since}
                if deal.dealer not in faulty:
                    continue
            yield deal, rightful[0]
        if any(d.live for d in revisions):
            since, live_before = list(revisions), True
        else:
            since += revisions


def _old_next_dealer(
    seating: tuple[str, ...], last_dealer: str, last_seated: tuple[str, ...]
) -> str:
    """Who napledger named before it counted from a departed dealer's seat as it was when they left.

    It counted from the seating of the dealer's last deal, so a player who joined after
    the dealer and before the dealer left was skipped. Kept only so `misdealt` can tell
    that fault from a named dealer in records that do not say.
    """
    if last_dealer in seating:
        return seating[(seating.index(last_dealer) + 1) % len(seating)]
    start = last_seated.index(last_dealer) if last_dealer in last_seated else -1
    for step in range(1, len(last_seated) + 1):
        player = last_seated[(start + step) % len(last_seated)]
        if player in seating:
            return player
    return seating[0]
