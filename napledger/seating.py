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

    The next seated player after the dealer of the last live deal; with no live deal yet,
    the session's first dealer. A dealer who has since left is counted from their old
    seat: the player who sat next after them when they stood up (if that one has left
    too, the one after *their* seat, and so on).
    """
    seating, after_leaving = _replay(changes)
    if last_dealer is None:
        player = first_dealer
    elif last_dealer in seating:
        return seating[(seating.index(last_dealer) + 1) % len(seating)]
    else:
        player = after_leaving.get(last_dealer, seating[0])
    # Each step follows a later leave than the one before, so this ends.
    while player not in seating:
        player = after_leaving.get(player, seating[0])
    return player


def _replay(changes: Iterable[RosterChange]) -> tuple[tuple[str, ...], dict[str, str]]:
    """The seating the changes lead to, and who sat next after each player when they last left."""
    seated: list[str] = []
    after_leaving: dict[str, str] = {}
    for seated_now, change in _steps(changes, seated):
        if change.kind == "leave":
            at = seated_now.index(change.player)
            after_leaving[change.player] = seated_now[(at + 1) % len(seated_now)]
    return tuple(seated), after_leaving


def _steps(
    changes: Iterable[RosterChange], seated: list[str]
) -> Iterator[tuple[tuple[str, ...], RosterChange]]:
    """Apply each change to `seated` in turn, yielding the seating just before it."""
    for change in changes:
        yield tuple(seated), change
        if change.kind == "leave":
            seated.remove(change.player)
        else:
            seated.insert(change.seat, change.player)


def seated_at(changes: Iterable[RosterChange], number: int) -> tuple[str, ...]:
    """Who sits for deal `number`: the changes in force by then, replayed in order."""
    seated: list[str] = []
    for _ in _steps(in_force(changes, number), seated):
        pass
    return tuple(seated)


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
