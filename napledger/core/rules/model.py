"""The variant model: a stake table and the table's settings, as frozen data.

Presets and house rules are both just `Rules`; nothing here knows a preset's name.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from napledger.core.errors import DealError
from napledger.core.numbers import is_whole
from napledger.core.rules.texts import bid_name, game_name
from napledger.core.vocabulary import word_key
from napledger.core.words import _, language


def fold(text: str) -> str:
    """Lower-case without accents, so `Blücher`, `blucher` and `BLUCHER` match."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@dataclass(frozen=True)
class Bid:
    name: str
    tricks: int  # tricks the bidder needs; 0 for misère, which must take none
    win: int  # chips from each opponent when made
    lose: int  # chips to each opponent when failed
    misere: bool = False
    aliases: tuple[str, ...] = ()  # other words for it, in any language
    # What a table speaking a language calls the bid, and its other words in that
    # language: ((language, word), ...), e.g. (("ru", "наполеон"),).
    names: tuple[tuple[str, str], ...] = ()
    words: tuple[tuple[str, str], ...] = ()
    toggle: str | None = None  # the rule key that turns this bid on or off
    pot_bid: bool = False  # made: takes the pot; failed (pool_fail_doubles): doubles it
    fail_pot: int = 0  # chips a failed bidder also pays into the pot

    def made_with(self, tricks: int) -> bool:
        return tricks == 0 if self.misere else tricks >= self.tricks

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every word that names this bid, in every language, each once."""
        local = (word for lang, word in (*self.names, *self.words))
        return tuple(dict.fromkeys((self.name, *self.aliases, *local)))

    def spoken(self, languages: tuple[str, ...]) -> tuple[str, ...]:
        """The words a table speaking one of `languages` uses: its name, the aliases that
        belong to no language, and the words of those languages."""
        local = (w for lang, w in (*self.names, *self.words) if lang in languages)
        return tuple(dict.fromkeys((self.name, *self.aliases, *local)))

    def called(self, lang: str) -> str:
        """The bid's name at a table speaking `lang`: the rule file's own word for it, else
        the catalog's (`lang` being the language spoken), else its name."""
        own = dict(self.names).get(lang)
        if own:
            return own
        return bid_name(self.name) if lang == language() else self.name


@dataclass(frozen=True)
class Settings:
    dealer_sits_out_from: int | None  # None: the dealer always takes cards
    pool: bool
    pool_ante: int
    pool_fail_doubles: bool
    dealer_ante: int
    peep_fee: int
    purchase_fee: int
    toggles: tuple[tuple[str, bool], ...] = ()  # bid switches, e.g. ("two", False)
    # House rules from the books. The defaults are the behaviour before they existed, so a
    # session whose frozen rules lack them keeps the money it had; the presets set them.
    dealer_peeps: str = "pays"  # free, pays (the peep fee) or never (may not look)
    revoke_fine: int = 0  # chips a revoker also pays into the pot
    empty_pot_ante: int = 0  # chips each seated player puts into an empty pot first
    pass_doubles: bool = False  # the deal after a passed-out one pays its stakes twice
    purchase_max_dealt: int | None = None  # buying only with at most this many dealt in

    def toggle(self, key: str) -> bool:
        return dict(self.toggles)[key]


@dataclass(frozen=True)
class Rules:
    name: str
    title: str
    min_players: int
    max_players: int
    hand_size: int
    pack: int
    bids: tuple[Bid, ...]  # lowest to highest
    settings: Settings
    description: str = ""
    # Settings this game does not have ("—" in docs/rules.md), each with the reason: their
    # values are what the game does, and `--rule` cannot change them.
    absent: tuple[tuple[str, str], ...] = ()
    buying: str = "anyone"  # who may buy cards before bidding: anyone, bidder or nobody
    buy_limit: int = 0  # most cards one player may buy; 0: a whole hand
    _index: dict[str, Bid] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[str, Bid] = {}
        for bid in self.bids:
            for word in bid.spellings:
                index.setdefault(word_key(word), bid)
        self._index.update(index)

    def why_absent(self, key: str) -> str | None:
        """Why this game has no such setting; None when it has it."""
        return dict(self.absent).get(key)

    @property
    def can_peep(self) -> bool:
        """Whether anyone may peep in this game (free when the fee is 0, but still a peep)."""
        return self.why_absent("peep_fee") is None

    @property
    def can_buy(self) -> bool:
        """Whether anyone may buy cards before the bid (in some games only the bidder)."""
        return self.buying != "nobody"

    @property
    def most_bought(self) -> int:
        return self.buy_limit or self.hand_size

    def enabled(self, bid: Bid) -> bool:
        return bid.toggle is None or self.settings.toggle(bid.toggle)

    @property
    def has_pot(self) -> bool:
        """Whether anything in this game pays into a pot: an ante, or a failed bid's extra."""
        s = self.settings
        return s.pool or s.dealer_ante > 0 or any(b.fail_pot for b in self.bids)

    @property
    def enabled_bids(self) -> tuple[Bid, ...]:
        return tuple(b for b in self.bids if self.enabled(b))

    def find(self, text: str) -> Bid | None:
        """The bid `text` names (on or off), or None: a name or alias in any language, in
        any case, with accents or none, or a number of tricks."""
        # Stored records hold the bid's own name, mostly already folded: skip the folding.
        found = self._index.get(text) or self._index.get(word_key(text))
        if found is None and is_whole(text):
            # A number means the plainest bid for that many tricks (5 is nap, not blücher),
            # preferring one that is on; one that is off is found to say why it is refused.
            plain = [b for b in self.bids if not b.misere and b.tricks == int(text)]
            found = next((b for b in plain if self.enabled(b)), plain[0] if plain else None)
        return found

    def bid(self, text: str) -> Bid:
        """The bid a player typed: a name, an alias, or a number of tricks."""
        found = self.find(text)
        if found is None:
            names = ", ".join(b.called(language()) for b in self.enabled_bids)
            raise DealError(
                _("unknown bid '{bid}' in {game}; the bids are: {bids}").format(
                    bid=text, game=game_name(self), bids=names
                ),
                "bid",
            )
        if not self.enabled(found):
            raise DealError(
                _("the bid {bid} is off in this session (its setting {rule} is off)").format(
                    bid=found.called(language()), rule=found.toggle
                ),
                "bid",
            )
        return found

    def dealt_in(self, seated: tuple[str, ...], dealer: str) -> tuple[str, ...]:
        sits_out = self.settings.dealer_sits_out_from
        if sits_out is not None and len(seated) >= sits_out:
            return tuple(p for p in seated if p != dealer)
        return seated
