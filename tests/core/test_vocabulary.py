"""The words players type, resolved on the core directly: results, pass and bids in
English, Russian and Polish (docs/words.md)."""

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from napledger.core import vocabulary
from napledger.core.errors import DealError, NapError
from napledger.core.names import match_player
from napledger.core.options import DealOptions, make_deal
from napledger.core.rules import Deal, list_presets, load_preset
from napledger.core.vocabulary import FAILED, MADE, PASS, REVOKE, meaning, phrase_at, word_key
from napledger.core.words import speaking

RUSSIAN = load_preset("russian")
CLASSIC = load_preset("classic")
EVERY_WORD = [w for said in vocabulary.WORDS.values() for ws in said.values() for w in ws]


def strip_accents(text: str) -> str:
    """What a player without the right keyboard types: the letters, no marks."""
    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain if not unicodedata.combining(c)).replace("ł", "l")


def typed_as(word: str, cases: list[bool], plain: bool) -> str:
    """`word` with each letter's case flipped where `cases` says, its accents dropped or not."""
    text = strip_accents(word) if plain else word
    return "".join(
        c.upper() if up else c for c, up in zip(text, cases + [False] * len(text), strict=False)
    )


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("взял", MADE), ("Сыграла", MADE), ("сделал", MADE), ("made", MADE), ("WON", MADE),
        ("ugrał", MADE), ("ugral", MADE), ("Wygrał", MADE), ("zrobiła", MADE),
        ("без", FAILED), ("провал", FAILED), ("провалил", FAILED), ("недобор", FAILED),
        ("не взял", FAILED), ("не  взяла", FAILED), ("przegrał", FAILED), ("bez", FAILED),
        ("nie ugrał", FAILED), ("wpadł", FAILED), ("down", FAILED),
        ("ренонс", REVOKE), ("renons", REVOKE), ("revoke", REVOKE),
        ("пас", PASS), ("ПАС", PASS), ("pas", PASS), ("Pass", PASS),
        ("взятка", None), ("nap", None), ("", None),
    ],
)  # fmt: skip
def test_the_game_words_in_three_languages(typed, meant):
    assert meaning(typed) == meant


def test_no_game_word_has_two_meanings():
    """Every language's words are understood at once, so no two may fold to one key
    with different meanings (the lists in vocabulary.py are checked here, not trusted)."""
    assert all(len(meanings) == 1 for meanings in vocabulary.INDEX.values())
    for language, said in vocabulary.WORDS.items():
        for meant, words in said.items():
            for word in words:
                assert meaning(word) == meant, (language, word)


def test_a_word_with_two_meanings_is_refused_naming_both(monkeypatch):
    clash = {"en": {MADE: ("yes",)}, "xx": {FAILED: ("YES",)}}
    monkeypatch.setattr(vocabulary, "INDEX", vocabulary._index(clash))
    with pytest.raises(NapError, match="'Yes' could mean failed or made"):
        meaning("Yes")


def test_the_longest_phrase_wins():
    assert phrase_at(["не", "взял", "--peep", "гена"]) == (FAILED, 2)
    assert phrase_at(["взял", "не"]) == (MADE, 1)
    assert phrase_at(["nie", "ugrała"]) == (FAILED, 2)
    assert phrase_at(["не"]) == (None, 0)
    assert phrase_at([]) == (None, 0)


@settings(max_examples=300, deadline=None)
@given(word=st.sampled_from(EVERY_WORD), cases=st.lists(st.booleans()), plain=st.booleans())
def test_any_case_with_accents_or_none_means_the_same(word, cases, plain):
    assert meaning(typed_as(word, cases, plain)) == meaning(word)


def test_word_key_drops_marks_even_those_unicode_keeps():
    assert word_key("Blücher") == word_key("BLUCHER") == "blucher"
    assert word_key("Wygrał") == "wygral"
    assert word_key("ещё") == word_key("еще")
    assert word_key("  не   взял ") == "не взял"


# --- bids: the rules' own words -------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "typed", "bid"),
    [
        (RUSSIAN, "один", "one"), (RUSSIAN, "раз", "one"), (RUSSIAN, "два", "two"),
        (RUSSIAN, "две", "two"), (RUSSIAN, "Три", "three"), (RUSSIAN, "четыре", "four"),
        (RUSSIAN, "пять", "five"), (RUSSIAN, "наполеон", "napoleon"), (RUSSIAN, "NAP", "napoleon"),
        (RUSSIAN, "pięć", "five"), (RUSSIAN, "piec", "five"),
        (CLASSIC, "trzy", "three"), (CLASSIC, "cztery", "four"), (CLASSIC, "nap", "nap"),
        (CLASSIC, "mis", "misère"), (CLASSIC, "mizer", "misère"), (CLASSIC, "Wellington", "wellington"),
        (CLASSIC, "blücher", "blücher"), (CLASSIC, "Blucher", "blücher"), (CLASSIC, "наполеон", "nap"),
        (CLASSIC, "мизер", "misère"), (CLASSIC, "блюхер", "blücher"), (CLASSIC, "три", "three"),
    ],
)  # fmt: skip
def test_bids_in_russian_and_polish(rules, typed, bid):
    assert rules.bid(typed).name == bid


def spellings():
    return [
        (name, word)
        for name in list_presets()
        for b in load_preset(name).bids
        for word in b.spellings
    ]


@settings(max_examples=300, deadline=None)
@given(known=st.sampled_from(spellings()), cases=st.lists(st.booleans()), plain=st.booleans())
def test_any_case_or_accents_of_a_bid_word_finds_that_bid(known, cases, plain):
    name, word = known
    rules = load_preset(name)
    meant = next(b for b in rules.bids if word in b.spellings)
    assert rules.find(typed_as(word, cases, plain)) is meant


def test_no_word_names_two_bids_or_a_bid_and_a_result():
    for name in list_presets():
        seen: dict[str, str] = {}
        for bid in load_preset(name).bids:
            for word in bid.spellings:
                key = word_key(word)
                assert seen.setdefault(key, bid.name) == bid.name, (name, word)
                assert not vocabulary.meanings(word), (name, word)


def test_an_unknown_bid_lists_the_bids_as_the_table_calls_them():
    with pytest.raises(DealError, match="the bids are: one, two, three, four, five, napoleon"):
        RUSSIAN.bid("дуб")
    with speaking("ru"), pytest.raises(DealError, match="один, два, три, четыре, пять, наполеон"):
        RUSSIAN.bid("дуб")


def test_pass_in_any_language_makes_a_passed_deal():
    base = Deal(dealer="Борис", seated=("Борис", "Гена"), bid="three", bidder="Гена", tricks=3)
    for typed in ("pass", "пас", "Pas", "PASSED"):
        deal = make_deal(DealOptions(bid=typed), RUSSIAN, base, base.seated, amending=True)
        assert deal.bid is None and deal.bidder is None


def test_a_name_found_without_its_polish_letters_and_never_guessed():
    assert match_player("pawel", ("Paweł", "Ania")) == "Paweł"
    assert match_player("ПАВЕЛ", ("Павел",)) == "Павел"
    # The letters as written (any case) pick one; only a word both fit is refused.
    assert match_player("PAWEL", ("Paweł", "Pawel")) == "Pawel"
    assert match_player("paweł", ("Paweł", "Pawel")) == "Paweł"
    with pytest.raises(NapError, match="'lukal' could be Łukał, Lukał"):
        match_player("lukal", ("Łukał", "Lukał", "Ania"))


# Words from a few letters, so that random rule files often give two bids one word.
LETTERS = "aąbłlóoпасе"
words = st.text(alphabet=LETTERS, min_size=1, max_size=3)


@settings(max_examples=200, deadline=None)
@given(
    names=st.lists(st.dictionaries(st.sampled_from(["ru", "pl"]), words, max_size=2), min_size=2, max_size=2),
    aliases=st.lists(st.dictionaries(st.sampled_from(["en", "ru", "pl"]), st.lists(words, max_size=2), max_size=2), min_size=2, max_size=2),
)  # fmt: skip
def test_a_rule_file_never_gives_one_word_two_bids_silently(names, aliases):
    """Whatever names and aliases a rule file gives, either it is refused, or every word
    it gives (in any case, accents or none) finds its own bid and no other."""
    from napledger.core.errors import RuleError
    from napledger.core.rules.load import rules_from_dict, rules_to_dict

    data = rules_to_dict(CLASSIC)
    data["bids"] = [b for b in data["bids"] if b["name"] in ("three", "four")]
    data["settings"] = {k: v for k, v in data["settings"].items() if k not in ("two", "misere")}
    for bid, named, local in zip(data["bids"], names, aliases, strict=True):
        bid["names"], bid["aliases"] = named, local
    try:
        rules = rules_from_dict(data)
    except RuleError as refused:
        assert "names both" in str(refused) or "must be" in str(refused)
        return
    for bid in rules.bids:
        for word in bid.spellings:
            assert rules.find(word) is bid
            assert rules.find(strip_accents(word).upper()) is bid


def test_a_result_typed_for_the_bid_is_told_where_it_goes():
    base = Deal(dealer="Борис", seated=("Борис", "Гена"), bid="three", bidder="Гена", tricks=3)
    with pytest.raises(
        NapError, match=r"'без' says how the deal went \(failed\), not what was bid"
    ):
        make_deal(DealOptions(bid="без"), RUSSIAN, base, base.seated, amending=True)


def deal_of(argv, rules, base):
    """The deal a `hand` command line makes, as the CLI would give its options."""
    assert argv[0] == "hand" and argv[2] == "--by"
    given = {"bid": argv[1], "by": argv[3]}
    rest = argv[4:]
    if rest[0] == "--tricks":
        given["tricks"] = int(rest[1])
    elif rest[0] == "--revoke":
        given["revoke"] = rest[1]
    else:
        given[rest[0].removeprefix("--")] = True
    return make_deal(DealOptions(**given), rules, base, base.seated)


@settings(max_examples=300, deadline=None)
@given(
    preset=st.sampled_from(["russian", "classic"]),
    pick=st.integers(0, 100),
    how=st.sampled_from([MADE, FAILED, REVOKE, "tricks"]),
    tricks=st.integers(0, 5),
    language=st.sampled_from(["ru", "pl"]),
    bid_first=st.booleans(),
    cases=st.lists(st.booleans()),
    plain=st.booleans(),
)
def test_a_short_form_in_russian_or_polish_makes_the_deal_english_makes(
    preset, pick, how, tricks, language, bid_first, cases, plain
):
    from napledger.cli.shortforms import parse

    rules = load_preset(preset)
    bids = rules.enabled_bids
    bid = bids[pick % len(bids)]
    seated = ("Борис", "Paweł", "Оля", "Zosia")
    base = Deal(dealer="Оля", seated=seated)
    local_words = [w for lang, w in (*bid.names, *bid.words) if lang == language]
    local_bid = typed_as(local_words[pick % len(local_words)], cases, plain)
    if how == "tricks":
        english_result = local_result = [str(tricks)]
    elif how == REVOKE:
        english_result, local_result = (
            ["revoke", "zosia"],
            [vocabulary.WORDS[language][REVOKE][0], "ZOSIA"],
        )
    else:
        said = vocabulary.WORDS[language][how]
        english_result = [vocabulary.WORDS["en"][how][0]]
        local_result = typed_as(said[pick % len(said)], cases, plain).split()

    def line(bid_word, result, bidder):
        return (
            " ".join([bid_word, bidder] if bid_first else [bidder, bid_word])
            + " "
            + " ".join(result)
        )

    commands = {"hand", "pass"}
    english = parse(line(bid.name, english_result, "paweł"), seated, rules, commands)
    local = parse(line(local_bid, local_result, "pawel"), seated, rules, commands)
    assert deal_of(local, rules, base) == deal_of(english, rules, base)


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_each_result_is_typed_back_as_it_is_shown(lang):
    """A deal's result read on the screen (`сыграно`, `ugrana`, `przegrana`) is a word
    `hand` and `play` take for it (#35: every result shown is accepted when typed)."""
    from napledger.core.words import _

    with speaking(lang):
        shown = {MADE: _("made"), FAILED: _("failed")}
    assert {meaning(word): said for said, word in shown.items()} == {MADE: MADE, FAILED: FAILED}


@pytest.mark.parametrize(
    ("words", "short"),
    [
        (["без", "двух"], 2), (["Без", "трех"], 3), (["bez", "dwoch"], 2), (["bez", "3"], 3),
        (["down", "two"], 2), (["без"], None), (["не", "взял"], None), (["без", "ста"], None),
        (["без", "0"], None),
    ],
)  # fmt: skip
def test_how_many_short_is_read_after_the_word_for_short(words, short):
    assert vocabulary.tricks_short(words) == short


def test_a_bid_said_short_keeps_the_tricks_taken_and_a_short_past_reach_is_refused():
    base = Deal(dealer="Ann", seated=("Ann", "Ben", "Cat", "Dan"))
    three = make_deal(DealOptions(bid="три", by="Ben", short=2), RUSSIAN, base, base.seated)
    assert (three.tricks, three.made) == (1, None)
    with pytest.raises(DealError, match="1 to 3 short, not 4") as refused:
        make_deal(DealOptions(bid="три", by="Ben", short=4), RUSSIAN, base, base.seated)
    assert refused.value.field == "result"
    with pytest.raises(DealError, match="only a bid of tricks"):
        make_deal(DealOptions(bid="misere", by="Ben", short=1), CLASSIC, base, base.seated)
    with pytest.raises(DealError, match="not both"):
        make_deal(DealOptions(bid="три", by="Ben", short=1, tricks=2), RUSSIAN, base, base.seated)
