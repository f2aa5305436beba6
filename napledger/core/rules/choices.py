"""Who may do what in one deal, decided once from the rules' data (never from a game's
name): the page offers these, `play` completes these, and `check_deal` refuses what is
not among them."""

from __future__ import annotations

from dataclasses import dataclass

from napledger.core.rules.model import Rules


@dataclass(frozen=True)
class Choices:
    """What one deal allows, and to whom."""

    dealer: str | None
    dealt_in: tuple[str, ...]  # who takes cards, so may bid or revoke: a dealer may sit out
    sits_out: tuple[str, ...]  # seated but dealt no cards: the dealer, at a big table
    bids: tuple[str, ...]  # the bids switched on, lowest first
    tricks: tuple[int, ...]  # the tricks a bidder may be said to have taken
    peepers: tuple[str, ...]  # who may look at the spare card (none: nobody peeps)
    buyers: tuple[str, ...]  # where anyone dealt in may buy cards: each of them
    bidder_buys: bool  # only the bidder may buy
    most_bought: int  # the most cards one player may buy


def choices(rules: Rules, seated: tuple[str, ...], dealer: str | None) -> Choices:
    dealt_in = rules.dealt_in(seated, dealer) if dealer else seated
    settings = rules.settings
    peepers = (
        tuple(p for p in dealt_in if not (p == dealer and settings.dealer_peeps == "never"))
        if rules.can_peep
        else ()
    )
    # Buying may be only at a small table (purchase_max_dealt): past it, nobody buys.
    small_enough = (
        settings.purchase_max_dealt is None or len(dealt_in) <= settings.purchase_max_dealt
    )
    may_buy = rules.can_buy and small_enough
    return Choices(
        dealer=dealer,
        dealt_in=dealt_in,
        sits_out=tuple(p for p in seated if p not in dealt_in),
        bids=tuple(b.name for b in rules.enabled_bids),
        tricks=tuple(range(rules.hand_size + 1)),
        peepers=peepers,
        buyers=dealt_in if may_buy and rules.buying != "bidder" else (),
        bidder_buys=may_buy and rules.buying == "bidder",
        most_bought=rules.most_bought,
    )
