"""Lifetime figures per player, tallied from deal records, chip totals and pot payouts.

Everything a figure needs to know about a bid comes from the session's own rules: a
"nap" is any made bid that takes the pot (`pot_bid`), whatever the preset calls it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType

from napledger.core.ledger import POT, Payment
from napledger.core.money import places
from napledger.core.read.history import ScoredDeal
from napledger.core.rules.model import Bid, Rules
from napledger.core.rules.scoring import was_made


@dataclass(frozen=True)
class BidFigures:
    bids: int = 0
    made: int = 0
    failed: int = 0  # an opponent's revoke decides a bid neither way

    @property
    def made_percent(self) -> Decimal | None:
        decided = self.made + self.failed
        if not decided:
            return None
        return (Decimal(100 * self.made) / decided).quantize(Decimal("0.1"))


@dataclass(frozen=True)
class PlayerFigures:
    """One player's lifetime figures, as `stats` returns them."""

    name: str
    sessions: int = 0
    deals: int = 0  # deals the player was dealt cards in
    bids: BidFigures = BidFigures()
    by_bid: Mapping[str, BidFigures] = field(default_factory=lambda: MappingProxyType({}))
    chips: int = 0
    money: Mapping[str, Decimal] = field(default_factory=lambda: MappingProxyType({}))
    biggest_win: int = 0  # chips, in one deal
    biggest_loss: int = 0
    naps_made: int = 0
    treasure: int = 0  # chips taken out of the pot by winning deals


@dataclass(frozen=True)
class Figures:
    """Every player's figures over some sessions: what `Transaction.stats` returns."""

    players: Mapping[str, PlayerFigures]
    currencies: frozenset[str]
    chip_values: frozenset[Decimal]
    places: Mapping[str, int]  # currency -> the places its money is shown with

    def player(self, name: str) -> PlayerFigures:
        """A player's figures; all nought for one who played in none of these sessions."""
        return self.players.get(name) or PlayerFigures(name)

    @property
    def chips_add_up(self) -> bool:
        """Chips of sessions that value a chip differently mean nothing added together."""
        return len(self.chip_values) <= 1

    def ranked(self) -> list[PlayerFigures]:
        """Best first: by chips where they add up, else by money in the one currency."""
        if self.chips_add_up:
            return sorted(self.players.values(), key=lambda s: (-s.chips, s.name.casefold()))
        if len(self.currencies) == 1:
            return sorted(
                self.players.values(),
                key=lambda s: (-sum(s.money.values(), Decimal(0)), s.name.casefold()),
            )
        return sorted(self.players.values(), key=lambda s: s.name.casefold())


# What Tally counts into, then hands out frozen.
@dataclass
class _BidCount:
    bids: int = 0
    made: int = 0
    failed: int = 0

    def frozen(self) -> BidFigures:
        return BidFigures(self.bids, self.made, self.failed)


@dataclass
class _PlayerCount:
    name: str
    sessions: int = 0
    deals: int = 0
    bids: _BidCount = field(default_factory=_BidCount)
    by_bid: dict[str, _BidCount] = field(default_factory=dict)
    chips: int = 0
    money: dict[str, Decimal] = field(default_factory=dict)
    biggest_win: int = 0
    biggest_loss: int = 0
    naps_made: int = 0
    treasure: int = 0

    def frozen(self) -> PlayerFigures:
        return PlayerFigures(
            name=self.name,
            sessions=self.sessions,
            deals=self.deals,
            bids=self.bids.frozen(),
            by_bid=MappingProxyType({k: t.frozen() for k, t in self.by_bid.items()}),
            chips=self.chips,
            money=MappingProxyType(dict(self.money)),
            biggest_win=self.biggest_win,
            biggest_loss=self.biggest_loss,
            naps_made=self.naps_made,
            treasure=self.treasure,
        )


class Tally:
    """Accumulates the figures; feed it sessions, deals, chips and swings in any order,
    then take them out frozen with `figures()`."""

    def __init__(self) -> None:
        self.players: dict[str, _PlayerCount] = {}
        self.currencies: set[str] = set()
        self.chip_values: set[Decimal] = set()
        self.places: dict[str, int] = {}  # currency -> the places its money is shown with
        self._bids: dict[int, tuple[Rules, dict[str, Bid]]] = {}
        # Deals counted per group of players dealt in (an evening's deals mostly share
        # one), and spread over the players in `figures()`: a count per deal, not per
        # player in it, in the loop over a club's every deal.
        self._dealt: Counter[tuple[str, ...]] = Counter()

    def player(self, name: str) -> _PlayerCount:
        found = self.players.get(name)
        if found is None:
            found = self.players[name] = _PlayerCount(name)
        return found

    def session(self, players: Iterable[str], currency: str, chip_value: Decimal) -> None:
        self.currencies.add(currency)
        self.chip_values.add(chip_value)
        self.places[currency] = max(self.places.get(currency, 0), places(currency, chip_value))
        for name in players:
            self.player(name).sessions += 1

    def deal(self, rules: Rules, scored: ScoredDeal) -> None:
        """One live deal of a session's history; its payments are read only if it took the pot."""
        deal = scored.deal
        assert deal is not None  # a strict history has read every record
        self._dealt[rules.dealt_in(deal.seated, deal.dealer)] += 1
        if deal.bid is None or deal.bidder is None:
            return
        bid = self._bid(rules, deal.bid)
        bidder = self.player(deal.bidder)
        verdict = was_made(rules, deal, bid)
        for tally in (bidder.bids, bidder.by_bid.setdefault(bid.name, _BidCount())):
            tally.bids += 1
            tally.made += verdict is True
            tally.failed += verdict is False
        if verdict and bid.pot_bid:
            bidder.naps_made += 1
            self.payouts(scored.payments)

    def payouts(self, payments: Iterable[Payment]) -> None:
        for t in payments:
            if t.payer == POT and t.payee != POT:
                self.player(t.payee).treasure += t.chips

    def result(self, name: str, chips: int, chip_value: Decimal, currency: str) -> None:
        """A player's net chips in one session."""
        stats = self.player(name)
        stats.chips += chips
        stats.money[currency] = stats.money.get(currency, Decimal(0)) + chips * chip_value

    def swings(self, name: str, best: int, worst: int) -> None:
        stats = self.player(name)
        stats.biggest_win = max(stats.biggest_win, best)
        stats.biggest_loss = min(stats.biggest_loss, worst)

    def figures(self) -> Figures:
        for dealt_in, deals in self._dealt.items():
            for name in dealt_in:
                self.player(name).deals += deals
        self._dealt.clear()
        return Figures(
            players=MappingProxyType({n: p.frozen() for n, p in self.players.items()}),
            currencies=frozenset(self.currencies),
            chip_values=frozenset(self.chip_values),
            places=MappingProxyType(dict(self.places)),
        )

    def _bid(self, rules: Rules, name: str) -> Bid:
        # Records hold the bid's own name; looking it up per deal is the hot loop.
        known = self._bids.get(id(rules))
        if known is None:  # keeping `rules` alive keeps its id from being reused
            known = self._bids[id(rules)] = (rules, {b.name: b for b in rules.bids})
        return known[1].get(name) or rules.bid(name)
