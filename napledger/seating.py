"""Who deals next: the deal passes clockwise among whoever is seated now."""

from __future__ import annotations


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
