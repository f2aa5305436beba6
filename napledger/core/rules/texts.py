"""The words of the rule files napledger ships, for the catalogs: a rule file is data,
so its titles, descriptions, bid names and the reasons a setting is absent are marked
here (tests/test_catalogs.py fails when a preset or book says something not listed) and
translated where they are shown. A table's own rule file is shown as it is written.
"""

from __future__ import annotations

from typing import Protocol

from napledger.core.words import N_, NC_, _, pgettext


class Game(Protocol):
    """What a sentence says of a game (`Rules` has it): so the rules' model can use these
    words without the words importing the model back."""

    @property
    def name(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...


TITLES = (
    N_("English Nap"),
    N_("Наполеон (Russian Napoleon)"),
    N_("Seven-card Nap"),
    N_("Nap, doubling stakes"),
    N_("Nap, half-stakes when failed"),
    N_("Pool Nap (Bicycle)"),
)
DESCRIPTIONS = (
    N_("3-7 players, 5 cards each; the dealer sits out from 6 seated."),
    N_("2-6 players, 36-card pack, 5 cards each; the dealer always plays."),
    N_("3-7 players, 7 cards each, no exchange."),
    N_("Nap 10/10, wellington 20/20, blücher 40/40; stakes double after a pass."),
    N_("Nap 10/5, wellington 20/10, blücher 30/15, with a pool a failed nap doubles."),
    N_("Classic stakes with a pool opened by every player; a revoke fines 5 into it."),
)
ABSENT = (
    N_("in Наполеон the dealer always plays"),
    N_("the box is fed by the dealer's ante and failed bids, not by a pool"),
    N_("there is no pool; the dealer's ante is dealer_ante"),
    N_("a failed napoleon always doubles the box, by the game's own rule"),
    N_("the game has no peeping"),
    N_("only the bidder buys, one card, free of charge"),
    N_("the box is opened by the dealer's ante alone"),
    N_("a passed-out deal changes no stakes in Наполеон"),
    N_("only the bidder buys, one card, whoever is dealt in"),
    N_("the game has no exchange, so no cards are bought"),
)
BIDS = (
    NC_("bid", "two"),
    NC_("bid", "three"),
    NC_("bid", "misère"),
    NC_("bid", "four"),
    NC_("bid", "nap"),
    NC_("bid", "wellington"),
    NC_("bid", "blücher"),
    NC_("bid", "one"),
    NC_("bid", "five"),
    NC_("bid", "napoleon"),
    NC_("bid", "six"),
    NC_("bid", "seven"),
)


# The presets' names, as a sentence names the game ("unknown bid 'x' in russian").
GAMES = (
    NC_("game", "classic"),
    NC_("game", "seven-card"),
    NC_("game", "russian"),
)


def game_name(rules: Game) -> str:
    """The game as an error names it: its rule file's name, in the language spoken where
    the catalog has it (`russian` is «Наполеон» in Russian)."""
    return pgettext("game", rules.name)


def player_count(rules: Game, count: int) -> str:
    """Why `count` players cannot play this game: for a new session and a deal alike."""
    return _("{game} is for {least}-{most} players, not {count}").format(
        game=game_name(rules), least=rules.min_players, most=rules.max_players, count=count
    )


def bid_name(name: str) -> str:
    """A bid's name as the table says it (`три` for three in Russian)."""
    return pgettext("bid", name)


def rule_text(text: str) -> str:
    """A title, description or reason from a rule file, in the language spoken where the
    catalog has it (a house rule file's own words are shown as written)."""
    return _(text) if text else text
