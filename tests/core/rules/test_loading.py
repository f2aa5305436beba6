"""Rule files and --rule settings: what loads, and how a mistake is explained."""

import pytest

from napledger.core.errors import DealError, RuleError
from napledger.core.rules import list_presets, load_preset, load_rules
from napledger.core.rules.load import parse_rules, rules_from_dict, rules_to_dict, with_overrides

HOUSE = """
name = "our-table"
min_players = 3
max_players = 5
hand_size = 5
[settings]
pool = true
[[bids]]
name = "three"
tricks = 3
win = 3
lose = 3
[[bids]]
name = "nap"
tricks = 5
win = 20
lose = 20
pot_bid = true
"""


def test_presets_are_the_three_of_the_rules():
    assert list_presets() == ["classic", "russian", "seven-card"]


def test_snapshot_round_trips_every_preset():
    for name in list_presets():
        rules = load_preset(name)
        assert rules_from_dict(rules_to_dict(rules)) == rules


def test_house_rule_file_from_a_path(tmp_path):
    path = tmp_path / "ours.toml"
    path.write_text(HOUSE)
    rules = load_rules(str(path))
    assert rules.name == "our-table" and rules.settings.pool is True
    assert rules.bid("5").win == 20 and rules.settings.peep_fee == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("win = 3\n", "win = 2.5\n"), "whole number"),
        (("[settings]", "[settings]\ncolour = 1"), "unknown key 'colour'"),
        (("tricks = 5", "tricks = 2"), "lowest to highest"),
        (("max_players = 5", "max_players = 12"), "from 3 to 10"),
        (("hand_size = 5", "hand_size = 13"), "pack"),
        (('name = "nap"', 'name = "three"'), "names both"),
        (("pool = true", 'pool = "yes"'), "true or false"),
        (('[[bids]]\nname = "three"', '[[bids]]\nname = "three"\nodds = 1'), "unknown key 'odds'"),
        (("min_players = 3", "min_players = [3"), "not valid TOML"),
    ],
)
def test_a_bad_rule_file_is_explained(change, message):
    old, new = change
    assert old in HOUSE
    with pytest.raises(RuleError, match=message):
        parse_rules(HOUSE.replace(old, new, 1))


def test_rule_overrides():
    classic = load_preset("classic")
    rules = with_overrides(
        classic, ["two=on", "pool=yes", "pool_ante=2", "dealer_sits_out_from=off"]
    )
    assert rules.bid("2").name == "two"
    assert (rules.settings.pool, rules.settings.pool_ante, rules.settings.dealer_sits_out_from) == (
        True,
        2,
        None,
    )
    with pytest.raises(DealError, match="off in this session"):
        classic.bid("two")
    for bad, message in [
        ("colour=red", "unknown rule"),
        ("pool=maybe", "on or off"),
        ("peep_fee=1.5", "whole number"),
        ("pool", "KEY=VALUE"),
        ("misere", "KEY=VALUE"),
    ]:
        with pytest.raises(RuleError, match=message):
            with_overrides(classic, [bad])


def test_bids_by_name_alias_accent_and_number():
    classic = load_preset("classic")
    assert classic.bid("Blucher").name == "blücher"
    assert classic.bid("MISÈRE").name == classic.bid("mis").name == "misère"
    assert classic.bid("5").name == "nap"
    assert classic.bid("sir-garnet").name == "nap"
    assert classic.bid("Bonaparte").name == "nap"  # "Napoleon or Bonaparte: all five tricks"
    with pytest.raises(DealError, match="unknown bid 'six' in classic"):
        classic.bid("six")
    assert load_preset("russian").bid("наполеон").name == "napoleon"


def test_unknown_preset_names_the_known_ones():
    with pytest.raises(RuleError, match="classic, russian, seven-card"):
        load_rules("clasic")


def test_a_game_has_a_pot_when_an_ante_or_a_failed_bid_pays_into_it():
    classic = load_preset("classic")
    assert not classic.has_pot  # nothing ever pays in: the scoreboard shows no pot row
    assert with_overrides(classic, ["pool=on"]).has_pot
    assert with_overrides(classic, ["dealer_ante=1"]).has_pot
    assert load_preset("russian").has_pot  # a failed bid also pays the pot


# --- a bid's words in each language (docs/words.md) ----------------------------------

NAMED = HOUSE.replace(
    'name = "three"\ntricks = 3',
    'name = "three"\nnames = { ru = "три", pl = "trzy" }\n'
    'aliases.ru = ["тройка"]\naliases.pl = ["trójka"]\ntricks = 3',
)


def test_a_bid_may_be_named_in_each_language_and_keeps_it_frozen():
    rules = parse_rules(NAMED)
    three = rules.bid("three")
    assert three.names == (("ru", "три"), ("pl", "trzy"))
    assert three.words == (("ru", "тройка"), ("pl", "trójka"))
    assert three.called("ru") == "три" and three.called("en") == "three"
    assert three.called("de") == "three"  # a language the file does not name: its own name
    for typed in ("три", "ТРИ", "trzy", "Тройка", "trojka", "TRÓJKA"):
        assert rules.bid(typed) is three
    assert rules_from_dict(rules_to_dict(rules)) == rules
    assert rules_to_dict(rules)["bids"][0]["aliases"] == {"ru": ["тройка"], "pl": ["trójka"]}


def test_old_rule_files_and_snapshots_without_names_load_as_before():
    rules = parse_rules(HOUSE)
    assert all(b.names == () and b.words == () for b in rules.bids)
    data = rules_to_dict(rules)
    assert all("names" not in b and b["aliases"] == [] for b in data["bids"])
    # A snapshot frozen before bids had names (russian's napoleon with its old aliases).
    old = rules_to_dict(load_preset("russian"))
    old["bids"][-1] = {**old["bids"][-1], "aliases": ["наполеон", "nap"]}
    del old["bids"][-1]["names"]
    thawed = rules_from_dict(old)
    assert thawed.bid("наполеон").name == "napoleon" and thawed.bid("nap").name == "napoleon"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('names = { ru = "три", pl = "trzy" }', 'names = "три"'), "names must be a table"),
        (('names = { ru = "три", pl = "trzy" }', 'names = { russian = "три" }'), "'russian' is not a language code"),
        (('names = { ru = "три", pl = "trzy" }', 'names = { ru = 3 }'), "names: ru must be some text"),
        (('names = { ru = "три", pl = "trzy" }', 'names = { ru = " " }'), "names: ru must be some text"),
        (('aliases.ru = ["тройка"]', 'aliases.ru = "тройка"'), r"aliases.ru must be a list of words"),
        (('aliases.ru = ["тройка"]', 'aliases.RU = ["тройка"]'), "'RU' is not a language code"),
        # Two bids may not share a word, whichever language each gives it in.
        (('aliases.pl = ["trójka"]', 'aliases.pl = ["nap"]'), "'nap' names both three and nap"),
        (('aliases.pl = ["trójka"]', 'aliases.pl = ["NAP"]'), "names both three and nap"),
        # A word the table says for a result or pass cannot also name a bid.
        (('aliases.ru = ["тройка"]', 'aliases.ru = ["пас"]'), "'пас' already means pass"),
        (('aliases.pl = ["trójka"]', 'aliases.pl = ["Bez"]'), "'Bez' already means failed"),
        (('names = { ru = "три", pl = "trzy" }', 'names = { en = "down" }'), "already means failed"),
        (('names = { ru = "три", pl = "trzy" }', 'names = { ru = "три\\u0007" }'), "control characters"),
        (('names = { ru = "три", pl = "trzy" }', 'names = { ru = "4" }'), "'4' cannot name a bid"),
        (('aliases.ru = ["тройка"]', 'aliases.ru = ["Pot"]'), "'Pot' cannot name a bid"),
    ],
)  # fmt: skip
def test_a_bad_name_or_alias_is_explained(change, message):
    old, new = change
    assert old in NAMED
    with pytest.raises(RuleError, match=message):
        parse_rules(NAMED.replace(old, new, 1))


def test_every_preset_and_book_names_every_bid_in_russian_and_polish():
    from pathlib import Path

    import napledger.core.rules as package

    books = sorted((Path(package.__file__).parent / "books").glob("*.toml"))
    for rules in [*map(load_preset, list_presets()), *(load_rules(str(p)) for p in books)]:
        for bid in rules.bids:
            assert {lang for lang, _ in bid.names} == {"ru", "pl"}, (rules.name, bid.name)
