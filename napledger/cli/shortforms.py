"""What a player types between deals, turned into the command line it stands for.

A line is either a command without `napledger` (`hand nap --by Ann --tricks 5`, `undo`,
`amend 3 --made`) or a deal in short form:

    BID PLAYER RESULT [OPTIONS]      nap ann 5    3 ben made    mis cat 0    4 dan revoke eve
    PLAYER BID RESULT [OPTIONS]      ann nap 5    ben 3 failed

RESULT is the tricks the bidder took (a number), `made`/`won`, `failed`/`lost`/`down`,
or `revoke PLAYER`. OPTIONS are the `hand` options, e.g. `--peep ann --buy ben=2`.
Bids, results and `pass` may be said in Russian or Polish too (`борис три взял`,
`гена наполеон без`, `пас`, `ania trzy ugrała`): the rules name their bids, and
napledger/core/vocabulary.py holds the game's own words.

Precedence, so that a line never means two things:
1. A line whose first word is a command (or `quit`, `exit`, `help`) is that command,
   even when a player has that name: `nap pass 5` records Pass's nap.
2. Otherwise it is a deal. When both orders read as a deal (a player named like a bid,
   `three nap 5` at a table with Three and Nap) and they mean different deals, the
   line is refused as ambiguous rather than guessed; spell it `hand BID --by PLAYER`.
"""

from __future__ import annotations

import difflib
import shlex
from collections.abc import Collection, Sequence

from napledger.core import vocabulary
from napledger.core.errors import NapError
from napledger.core.numbers import is_whole
from napledger.core.rules.choices import choices
from napledger.core.rules.model import Bid, Rules
from napledger.core.vocabulary import FAILED, MADE, PASS, REVOKE, word_key
from napledger.core.words import _, language

RESULTS = (MADE, FAILED, REVOKE)
# What a short form says itself: typed again as an option, the two could disagree
# (`nap ann 5 --tricks 2`), and the command line would quietly keep the last one.
BIDDER_OPTIONS = ("--by", "-b")
RESULT_OPTIONS = ("--tricks", "-t", "--made", "--failed", "--short", "--revoke")


class ShortFormError(NapError):
    """A line that is neither a command nor a deal in short form."""


def bid_words(rules: Rules) -> list[str]:
    """Every word that names a bid in these rules, in every language, switched off or not."""
    return [word for bid in rules.bids for word in bid.spellings]


def called(name: str, rules: Rules) -> str:
    """A bid as the table speaking now calls it (`три`, `trzy`)."""
    return rules.bid(name).called(language())


def is_bid(word: str, rules: Rules) -> bool:
    # Bids that are switched off still count, so that the command explains why it is refused.
    return rules.find(word) is not None


def player_for(word: str, players: Sequence[str]) -> str | None:
    """The player `word` names, exactly or by a unique prefix, as the commands match them.

    A word that is two players' names (Paweł and Pawel for `pawel`) is still a player:
    the command names both in its refusal.
    """
    key = word_key(word)
    exact = [p for p in players if word_key(p) == key]
    if exact:
        return exact[0] if len(exact) == 1 else word
    starts = [p for p in players if word_key(p).startswith(key)]
    return starts[0] if len(starts) == 1 else None


def bid_of(word: str, rules: Rules) -> str:
    found = rules.find(word)
    assert found is not None, word  # asked only of a word is_bid took
    return found.name


def parse(
    line: str, players: Sequence[str], rules: Rules | None, commands: Collection[str]
) -> list[str]:
    """The argv (without `napledger`) a line stands for; [] for a blank line or a comment."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError:  # a quotation mark left open, or a backslash at the end
        raise ShortFormError(_("cannot read the line: a quotation mark is not closed")) from None
    if not words:
        return []
    if words[0].casefold() in commands:
        return [words[0].casefold(), *words[1:]]
    if vocabulary.is_pass(words[0]) and "pass" in commands:  # `пас`, `pas`: the pass command
        return ["pass", *words[1:]]
    first, second = words[0], words[1] if len(words) > 1 else ""
    if rules is None or not (is_bid(first, rules) or player_for(first, players)):
        near = difflib.get_close_matches(first.casefold(), list(commands), n=1, cutoff=0.75)
        if near:
            raise ShortFormError(not_a_word(first, near[0]))
    if rules is None:  # the store's own words: a deal needs a session to be recorded in
        raise ShortFormError(
            _("no current session; start one with `napledger new` or pick one with `use`")
        )
    bid_first = is_bid(first, rules) and player_for(second, players) is not None
    player_first = player_for(first, players) is not None and is_bid(second, rules)
    if bid_first and player_first:
        one = (bid_of(first, rules), player_for(second, players))
        other = (bid_of(second, rules), player_for(first, players))
        if one != other:
            raise ShortFormError(
                _(
                    "`{typed}` could be {bid} by {player} or {other_bid} by {other_player}; "
                    "write it as `hand BID --by PLAYER ...`"
                ).format(
                    typed=f"{first} {second}",
                    bid=called(one[0], rules),
                    player=one[1],
                    other_bid=called(other[0], rules),
                    other_player=other[1],
                )
            )
    if bid_first or (is_bid(first, rules) and not player_first and second):
        bid, bidder = first, second
    elif player_first or (len(words) > 1 and is_bid(second, rules)):
        bid, bidder = second, first
    elif player_for(first, players) is not None or is_bid(first, rules):
        # A player and no bid after it (another player, a word that is no bid), or a bid
        # and no bidder: the shape of a deal, with the bids.
        raise ShortFormError(not_a_deal(words, rules))
    else:
        raise ShortFormError(not_a_word(first))
    restated = said_again(words[2:])
    if restated:
        raise ShortFormError(
            _(
                "a short form names the bidder and the result itself, so {option} after "
                "`{typed}` would say it twice: type either `BID PLAYER RESULT` "
                "(e.g. `nap ann 5`) or `hand BID --by PLAYER --tricks N`"
            ).format(option=restated, typed=f"{first} {second}")
        )
    told = result(words[2:])
    if len(words) < 3 or told is None:  # no result after BID PLAYER, or a word that is none
        raise ShortFormError(not_a_deal(words, rules))
    return ["hand", bid, "--by", bidder, *told]


def not_a_deal(words: Sequence[str], rules: Rules) -> str:
    """A line that starts like a deal and is not one: the shape of a deal, with the bids."""
    bids = ", ".join(b.called(language()) for b in rules.enabled_bids)
    return _(
        "a deal in short form is `BID PLAYER RESULT` (bids: {bids}; RESULT: the tricks "
        "taken, made, failed or revoke PLAYER), not `{typed}`"
    ).format(bids=bids, typed=" ".join(words[:3]))


def not_a_word(word: str, near: str | None = None) -> str:
    """A first word that is no command, bid or player, with the command it is close to."""
    said = _("'{word}' is not a command, a bid or a player; type `help` for what a line can be")
    said = said.format(word=word)
    if near is None:
        return said
    from napledger.locale_frame import DID_YOU_MEAN

    return f"{said}. " + _(DID_YOU_MEAN).format(suggestions=near)


def said_again(words: Sequence[str]) -> str | None:
    """The first option among what follows BID PLAYER that repeats what the short form says.

    The short form always names the bidder; it names the result unless the result is
    given as an option (`nap ann --revoke eve`).
    """
    said = BIDDER_OPTIONS + (RESULT_OPTIONS if words and not words[0].startswith("-") else ())
    return next((w for w in words if w.split("=", 1)[0] in said), None)


def hand_line(words: Sequence[str], bid_words: Collection[str]) -> list[str] | None:
    """The `hand` command a short form typed outside `play` stands for, or None.

    Without a session to ask, a bid is a number or one of `bid_words` (folded) and the
    other word is taken for the player, so this is only a hint for an error message.
    """
    if len(words) < 2:
        return None

    def bidlike(word: str) -> bool:
        key = word_key(word)
        return (key.isascii() and key.isdigit()) or key in bid_words

    first, second = words[0], words[1]
    if bidlike(first) == bidlike(second) or said_again(words[2:]):
        return None
    bid, player = (first, second) if bidlike(first) else (second, first)
    try:
        told = result(list(words[2:]))
    except ShortFormError:
        return None
    return None if told is None else ["hand", bid, "--by", player, *told]


def result(words: list[str]) -> list[str] | None:
    """The `hand` options a short form's result stands for: `4`, `made`, `не взял`...;
    None when the first word is none of these."""
    if not words or words[0].startswith("-"):
        return words
    head = words[0]
    if is_whole(head):
        return ["--tricks", head, *words[1:]]
    short = vocabulary.tricks_short(words[:2])
    if short is not None:  # `без двух`: two tricks short
        return ["--short", str(short), *words[2:]]
    said, length = vocabulary.phrase_at(words)
    rest = words[length:]
    if said == MADE:
        return ["--made", *rest]
    if said == FAILED:
        return ["--failed", *rest]
    if said == REVOKE:
        if not rest or rest[0].startswith("-"):
            raise ShortFormError(_("say who revoked: `revoke PLAYER`"))
        return ["--revoke", rest[0], *rest[1:]]
    return None  # not a result: the caller says what comes after BID PLAYER


# Options whose value is a player, so that Tab after them offers the table and nothing else
# (and after a revoke word: `revoke`, `ренонс`, `renons`).
PLAYER_OPTIONS = ("--by", "-b", "--revoke", "--dealer", "--peep", "--buy", "--after")
# Commands whose first argument is a bid, or a seated player.
BID_COMMANDS = ("hand",)
PLAYER_COMMANDS = ("leave",)


def completions(
    text: str,
    before: Sequence[str],
    players: Sequence[str],
    rules: Rules | None,
    commands: Collection[str],
    dealer: str | None = None,
) -> list[str]:
    """Words that complete `text`, given the words typed before it on the line.

    Only what fits the place is offered: the second word of `3 b` is a player, a bid
    switched off is never offered, and every offer begins with exactly what was typed
    (`mise` offers `misere`, not also `misère`), because readline replaces the typed
    word with what the offers have in common and would otherwise cut it short.

    Every language's words are offered, but not another language's word for what a word
    of English or of the language napledger speaks already offers: `pa` at an English
    table offers `pass`, not also Polish `pas`, while `па` offers `пас`.
    """
    key = word_key(text)
    spoken = tuple(dict.fromkeys(("en", language())))
    near = {
        w
        for w in _candidates(before, players, rules, commands, spoken, dealer)
        if word_key(w).startswith(key)
    }
    every = [
        w
        for w in _candidates(before, players, rules, commands, None, dealer)
        if word_key(w).startswith(key)
    ]
    offered = {_sense(w, rules, players) for w in near} - {None}
    found = [w for w in every if w in near or _sense(w, rules, players) not in offered]
    # Accents count when the typed word has them, or when spellings without them fit.
    found = [w for w in found if w.casefold().startswith(text.casefold())] or found
    # One word of the game's for one meaning: `пас`, not also `пасс`; `взял` (`взяла` is
    # typed on from there).
    found = [w for w in found if not any(_longer_said(w, shorter) for shorter in found)]
    if len(found) > 1 and not all(w.startswith(text) for w in found):
        # The typed spelling, then the rest of each word (`Ann` and `Anna` for `an`).
        found = [text + w[len(text) :] if word_key(w[: len(text)]) == key else w for w in found]
    seen: dict[str, None] = {}
    for word in found:
        # A name with a space must stay one word; shlex.quote would also quote `blücher`.
        plain = not any(c.isspace() or c in "'\"\\#" for c in word)
        seen.setdefault(word if plain else shlex.quote(word))
    return list(seen)


def _sense(word: str, rules: Rules | None, players: Sequence[str]) -> object:
    """What a word offered means (a bid, or a meaning of the game's), None for a player."""
    if word in players:
        return None
    said = vocabulary.meanings(word)
    if said:
        return said
    bid = rules.find(word) if rules else None
    return bid.name if bid else None


def _longer_said(word: str, shorter: str) -> bool:
    """Whether `word` is `shorter` typed on, and the game means the same by both."""
    said = vocabulary.meanings(word)
    return (
        word != shorter
        and word.startswith(shorter)
        and bool(said)
        and said == vocabulary.meanings(shorter)
    )


def _spoken(bid: Bid, languages: tuple[str, ...] | None) -> tuple[str, ...]:
    return bid.spellings if languages is None else bid.spoken(languages)


def _said(meanings: Sequence[str], languages: tuple[str, ...] | None) -> list[str]:
    """The game's one-word words for these meanings (`не взял` is typed, never offered)."""
    return [w for m in meanings for w in vocabulary.spoken(m, languages) if " " not in w]


def _candidates(
    before: Sequence[str],
    players: Sequence[str],
    rules: Rules | None,
    commands: Collection[str],
    languages: tuple[str, ...] | None,
    dealer: str | None = None,
) -> list[str]:
    bids = [w for b in rules.enabled_bids for w in _spoken(b, languages)] if rules else []
    if not before:
        passes = _said([PASS], languages) if "pass" in commands else []
        return [*sorted(commands), *passes, *players, *bids]
    # Who may take each part in the next deal: the rules' one answer (core/rules/choices.py).
    allowed = choices(rules, tuple(players), dealer) if rules and players else None
    option = before[-1].casefold()
    if allowed and option == "--peep":
        return list(allowed.peepers)
    if allowed and option == "--buy":
        return list(allowed.dealt_in if allowed.bidder_buys else allowed.buyers)
    if allowed and (option in ("--by", "-b", "--revoke") or REVOKE in vocabulary.meanings(option)):
        return list(allowed.dealt_in)
    if option in PLAYER_OPTIONS or REVOKE in vocabulary.meanings(before[-1]):
        return list(players)
    head = before[0].casefold()
    if head in commands or PASS in vocabulary.meanings(head):
        if len(before) == 1 and head in BID_COMMANDS:
            return bids
        if len(before) == 1 and head in PLAYER_COMMANDS:
            return list(players)
        return []
    if rules is None:
        return []
    if len(before) == 1:  # the second word of a short form: whichever the first is not
        first_is_bid = is_bid(head, rules)
        first_is_player = player_for(head, players) is not None
        bidders = allowed.dealt_in if allowed else players
        return [*(bidders if first_is_bid else ()), *(bids if first_is_player else ())]
    if len(before) == 2:
        return _said(RESULTS, languages)
    return []
