"""Who sits and who deals: the roster's changes, and the deal passing clockwise."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


def next_dealer(seating: tuple[str, ...], last_dealer: str, last_seated: tuple[str, ...]) -> str:
    if last_dealer in seating:
        return seating[(seating.index(last_dealer) + 1) % len(seating)]
    # The last dealer has left: the deal goes to whoever sat next after them and still sits.
    start = last_seated.index(last_dealer) if last_dealer in last_seated else -1
    for step in range(1, len(last_seated) + 1):
        player = last_seated[(start + step) % len(last_seated)]
        if player in seating:
            return player
    return seating[0]


@dataclass(frozen=True)
class RosterChange:
    """One change to who sits, in force from deal `from_deal` on."""

    from_deal: int
    kind: str  # "seat" (the opening seating), "join" or "leave"
    player: str
    seat: int  # the place in the clockwise order the player takes (join, seat) or left (leave)


def seated_at(changes: Iterable[RosterChange], number: int) -> tuple[str, ...]:
    """Who sits for deal `number`: the changes in force by then, replayed in order."""
    seated: list[str] = []
    for change in changes:
        if change.from_deal > number:
            continue
        if change.kind == "leave":
            seated.remove(change.player)
        else:
            seated.insert(change.seat, change.player)
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
