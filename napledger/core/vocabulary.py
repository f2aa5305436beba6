"""The game's own words, as players type them in English, Russian and Polish.

How a deal went (made, failed, a revoke) and `pass` belong to the game, not to a preset:
every table says them, whatever its stake table. Bids are the rules' words, each rule file
naming its own (`names`, `aliases` in napledger/core/rules/); both are matched by
`word_key`, so any case, and accents or none, find the same word. docs/words.md says why
these words were chosen.

A word is understood in every language at once (a Russian table whose terminal speaks
English still types `пас`), so the lists must never give one word two meanings: `meaning`
refuses such a word, naming both, rather than guess, and the tests check that none exists.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

from napledger.core.errors import NapError
from napledger.core.words import N_, _

MADE, FAILED, REVOKE, PASS = "made", "failed", "revoke", "pass"

# Letters that carry their accent in the letter itself, so that Unicode cannot take it
# off: a Polish player without a Polish keyboard types `wygral` for `wygrał`.
PLAIN_LETTERS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ŀ": "l"})

# language -> meaning -> the words a table says for it, the plainest first. Feminine forms
# too: `взяла` is what a table says when Lena made her bid.
# fmt: off
WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        MADE: ("made", "won"),
        FAILED: ("failed", "lost", "down"),
        REVOKE: ("revoke", "revoked"),
        PASS: ("pass", "passed"),
    },
    "ru": {
        MADE: ("взял", "взяла", "сыграл", "сыграла", "сделал", "сделала"),
        FAILED: ("не взял", "не взяла", "не сыграл", "не сыграла", "не сделал", "не сделала",
                 "без", "провал", "провалил", "провалила", "недобор", "сел", "села"),
        REVOKE: ("ренонс",),
        PASS: ("пас", "пасс"),
    },
    "pl": {
        MADE: ("ugrał", "ugrała", "wygrał", "wygrała", "zrobił", "zrobiła"),
        FAILED: ("nie ugrał", "nie ugrała", "przegrał", "przegrała", "bez", "wpadł", "wpadła",
                 "wpadka"),
        REVOKE: ("renons",),
        PASS: ("pas",),
    },
}
# The words a result is shown with (the catalogs' "made", "failed"), where a table does
# not say them itself: taken when typed, so what is read on the screen can be typed back,
# but not offered by Tab, which offers the table's own words.
SHOWN: dict[str, dict[str, tuple[str, ...]]] = {
    "ru": {MADE: ("сыграно",)},
    "pl": {MADE: ("ugrana",), FAILED: ("przegrana",)},
}
# How many tricks short a failed bid went, said after the word for "short of" (`без двух`:
# two short; `bez trzech`; `down 2`), in words or digits.
SHORT_OF = frozenset({"без", "bez", "down"})
SHORT_BY: dict[str, int] = {
    "одной": 1, "одну": 1, "двух": 2, "трёх": 3, "четырёх": 4, "пяти": 5, "шести": 6,
    "семи": 7, "восьми": 8,
    "jednej": 1, "dwóch": 2, "trzech": 3, "czterech": 4, "pięciu": 5, "sześciu": 6,
    "siedmiu": 7, "ośmiu": 8,
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
}
# fmt: on
# How each meaning is said back in an error, in the message's own language.
SAID = {MADE: N_("made"), FAILED: N_("failed"), REVOKE: N_("a revoke"), PASS: N_("pass")}


def word_key(text: str) -> str:
    """A typed word as it is matched: lower case, no accents, single spaces.

    `Blücher`, `blucher` and `BLUCHER` are one word; so are `ugrał`, `ugral` and `UGRAŁ`,
    and `ещё`/`еще`. (Player names are stored under `fold`, which keeps `ł`: these keys
    are only ever compared, never stored.)
    """
    decomposed = unicodedata.normalize("NFKD", " ".join(text.split()).casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return plain.translate(PLAIN_LETTERS)


def _index(*tables: dict[str, dict[str, tuple[str, ...]]]) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for words in tables:
        for meanings in words.values():
            for meaning, said in meanings.items():
                for word in said:
                    found.setdefault(word_key(word), set()).add(meaning)
    return {key: frozenset(meanings) for key, meanings in found.items()}


INDEX = _index(WORDS, SHOWN)
LONGEST = max(key.count(" ") + 1 for key in INDEX)  # words in the longest phrase


def meanings(text: str) -> frozenset[str]:
    """Every meaning `text` has in any language (more than one only by a mistake in WORDS)."""
    return INDEX.get(word_key(text), frozenset())


def meaning(text: str) -> str | None:
    """What `text` means to the game (MADE, FAILED, REVOKE or PASS), or None.

    A word with two meanings is refused with both, never guessed.
    """
    found = meanings(text)
    if len(found) > 1:
        both = _(" or ").join(sorted(_(SAID[m]) for m in found))
        message = _("'{word}' could mean {both}; say it another way")
        raise NapError(message.format(word=text, both=both))
    return next(iter(found), None)


SHORT_KEYS = {word_key(word): count for word, count in SHORT_BY.items()}


def tricks_short(words: Sequence[str]) -> int | None:
    """`без двух`, `bez 2`, `down two`: how many tricks short, or None when the words say
    no such thing (a failed bid's word alone, `без`, says failed and no more)."""
    if len(words) != 2 or word_key(words[0]) not in SHORT_OF:
        return None
    count = words[1]
    if count.isascii() and count.isdigit() and len(count) <= 2:
        return int(count) or None
    return SHORT_KEYS.get(word_key(count))


def is_pass(text: str) -> bool:
    return meaning(text) == PASS


def phrase_at(words: Sequence[str]) -> tuple[str | None, int]:
    """The meaning of the phrase the words begin with, and how many words it takes.

    The longest phrase wins, so `не взял 2` is failed, though `взял` alone is made.
    """
    for length in range(min(LONGEST, len(words)), 0, -1):
        found = meaning(" ".join(words[:length]))
        if found is not None:
            return found, length
    return None, 0


def spoken(meaning: str, languages: Iterable[str] | None = None) -> list[str]:
    """Every word for `meaning` in these languages (all of them when None), each once."""
    chosen = WORDS if languages is None else {k: WORDS[k] for k in languages if k in WORDS}
    return list(dict.fromkeys(w for said in chosen.values() for w in said.get(meaning, ())))
