"""How the evening reads: the rules every front end draws it by, decided once.

The terminal, `--json`, the page and the workbook show the same evening (the read
model: `napledger.store.views`). How its players are ordered, how a deal is labelled and
how a step of the running balances is named are decided here, and each front end only
renders the result; signs are `napledger.core.numbers.signed`, money
`napledger.core.money`, a deal's payments in order `napledger.core.ledger.in_seat_order`.
Pure: the front ends call it, it calls none of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

CLOSE_STEP = "close"  # the running balances' step after a session's close


def revision_suffix(revision: int) -> str:
    """What a deal's label adds to its number: nothing for its first version, `.2` for its
    second (docs/glossary.md: revision)."""
    return f".{revision}" if revision > 1 else ""


def deal_label(number: int, revision: int) -> str:
    """A deal's version as every front end names it: N, or N.2 for deal N's second version."""
    return f"{number}{revision_suffix(revision)}"


def step_number(label: str) -> str:
    """A step of the running balances as a chart's axis names it: the deal's number (3,
    not 3.2 once amended: the axis counts deals), or `close`."""
    return label.partition(".")[0]


def by_chips(players: Sequence[str], chips: Mapping[str, int]) -> list[str]:
    """The scoreboard's order: most chips first; a tie in the order the players sat down."""
    seat = {p: i for i, p in enumerate(players)}
    return sorted(players, key=lambda p: (-chips.get(p, 0), seat[p]))
