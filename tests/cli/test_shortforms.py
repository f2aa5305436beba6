"""The short forms typed in `play`, read without a terminal or a database."""

import pytest

from napledger.cli.shortforms import completions, hand_line, parse
from napledger.core.errors import NapError
from napledger.core.rules import load_preset

CLASSIC = load_preset("classic")
COMMANDS = {"hand", "pass", "undo", "amend", "table", "join", "quit", "help"}
TABLE = ("Ann", "Ben", "Cat", "Dan", "Eve")


def read(line, players=TABLE, rules=CLASSIC):
    return parse(line, players, rules, COMMANDS)


@pytest.mark.parametrize(
    ("line", "argv"),
    [
        ("nap ann 5", ["hand", "nap", "--by", "ann", "--tricks", "5"]),
        ("3 ben made", ["hand", "3", "--by", "ben", "--made"]),
        ("mis cat 0", ["hand", "mis", "--by", "cat", "--tricks", "0"]),
        ("4 dan revoke eve", ["hand", "4", "--by", "dan", "--revoke", "eve"]),
        ("four dan won", ["hand", "four", "--by", "dan", "--made"]),
        ("Misère cat lost", ["hand", "Misère", "--by", "cat", "--failed"]),
        ("wellington a down", ["hand", "wellington", "--by", "a", "--failed"]),
        ("ann nap 5", ["hand", "nap", "--by", "ann", "--tricks", "5"]),
        ("ben 3 failed", ["hand", "3", "--by", "ben", "--failed"]),
        (
            "nap ann 5 --peep ben --buy cat=2",
            ["hand", "nap", "--by", "ann", "--tricks", "5", "--peep", "ben", "--buy", "cat=2"],
        ),
        ("nap ann --revoke eve", ["hand", "nap", "--by", "ann", "--revoke", "eve"]),
    ],
)
def test_deal_short_forms(line, argv):
    assert read(line) == argv


def test_commands_pass_through_and_blank_lines_are_nothing():
    assert read("hand nap --by Ann --tricks 5") == ["hand", "nap", "--by", "Ann", "--tricks", "5"]
    assert read("PASS") == ["pass"]
    assert read("amend 3 'pass'") == ["amend", "3", "pass"]
    assert read("   ") == []
    assert read("# deal 12 was a misdeal") == []


def test_a_command_word_wins_over_a_player_of_that_name():
    table = ("Pass", "Ben", "Cat")
    assert read("pass", table) == ["pass"]
    assert read("nap pass 5", table) == ["hand", "nap", "--by", "pass", "--tricks", "5"]


def test_a_player_named_like_a_bid_is_read_by_position():
    table = ("Nap", "Ann", "Ben")
    assert read("nap ann 5", table) == ["hand", "nap", "--by", "ann", "--tricks", "5"]
    assert read("nap three made", ("Nap", "Ann", "Ben")) == [
        "hand", "three", "--by", "nap", "--made",
    ]  # fmt: skip
    # Both orders say the same deal: not ambiguous.
    assert read("nap nap 5", table) == ["hand", "nap", "--by", "nap", "--tricks", "5"]


def test_two_different_readings_are_refused_not_guessed():
    with pytest.raises(NapError, match="could be three by Nap or nap by Three"):
        read("three nap 5", ("Three", "Nap", "Ann"))
    with pytest.raises(NapError, match="could be"):
        read("3 four made", ("3", "Four", "Ann"))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("bogus", "'bogus' is not a command, a bid or a player"),
        ("nap", r"a deal in short form is `BID PLAYER RESULT` \(bids: three, .*\), not `nap`"),
        ("ben cat 3", "short form is `BID PLAYER RESULT` .*, not `ben cat 3`"),
        ("ben bogus 3", r"\(bids: three, misère, four, nap, wellington.*\), not `ben bogus 3`"),
        ("3 ben", r"RESULT: the tricks taken, made, failed or revoke PLAYER\), not `3 ben`"),
        ("nap ann twice", "not `nap ann twice`"),
        ("nap ann revoke", "say who revoked"),
        ('nap "ann', "cannot read the line"),
    ],
)
def test_lines_that_mean_nothing_get_one_line_errors(line, message):
    with pytest.raises(NapError, match=message) as caught:
        read(line)
    assert "\n" not in str(caught.value)


def test_without_a_session_only_commands_work():
    assert parse("table", (), None, COMMANDS) == ["table"]
    with pytest.raises(NapError, match="no current session"):
        parse("nap ann 5", (), None, COMMANDS)


def test_a_bid_that_is_switched_off_still_reads_as_a_bid():
    # `two` is off in classic: the line becomes a command, which explains why it is refused.
    assert read("two ann made") == ["hand", "two", "--by", "ann", "--made"]


def test_completions_offer_what_fits_the_place():
    assert completions("b", [], TABLE, CLASSIC, COMMANDS) == [
        "ben",
        "bonaparte",
        "blücher",
        "blucher",
        "bluecher",
    ]
    assert completions("ha", [], TABLE, CLASSIC, COMMANDS) == ["hand"]
    assert completions("ma", ["nap", "ann"], TABLE, CLASSIC, COMMANDS) == ["made"]
    # After a bid comes a player, after a player a bid; `two` is off in classic.
    assert completions("b", ["3"], TABLE, CLASSIC, COMMANDS) == ["Ben"]
    assert completions("", ["ann"], TABLE, CLASSIC, COMMANDS) == [
        "three", "misère", "misere", "mis", "four", "nap", "napoleon", "bonaparte",
        "sir-garnet", "garnet", "wellington", "well", "welly", "blücher", "blucher", "bluecher",
    ]  # fmt: skip
    assert completions("t", ["hand"], TABLE, CLASSIC, COMMANDS) == ["three"]
    assert completions("e", ["4", "dan", "revoke"], TABLE, CLASSIC, COMMANDS) == ["Eve"]
    assert completions("a", ["hand", "nap", "--peep"], TABLE, CLASSIC, COMMANDS) == ["Ann"]
    assert completions("", ["undo"], TABLE, CLASSIC, COMMANDS) == []
    assert "Mary Ann" not in completions("m", ["nap"], ("Mary Ann",), CLASSIC, COMMANDS)
    assert completions("m", ["nap"], ("Mary Ann",), CLASSIC, COMMANDS) == ["'Mary Ann'"]


@pytest.mark.parametrize(
    ("typed", "offers"),
    [
        ("blu", ["blucher", "bluecher"]),  # not `blücher`: readline would cut `blu` to `bl`
        ("mise", ["misere"]),
        ("BLÜ", ["blücher"]),
        ("an", ["Ann"]),
    ],
)
def test_every_offer_keeps_what_was_typed(typed, offers):
    got = completions(typed, [], TABLE, CLASSIC, COMMANDS)
    assert got == offers
    assert len(got) == 1 or all(word.startswith(typed) for word in got)


def test_a_short_form_typed_outside_play_reads_as_a_hand_command():
    bids = {"nap", "three", "misere"}
    assert hand_line(["nap", "ann", "5"], bids) == ["hand", "nap", "--by", "ann", "--tricks", "5"]
    assert hand_line(["ann", "3", "won", "--peep", "ben"], bids) == [
        "hand", "3", "--by", "ann", "--made", "--peep", "ben",
    ]  # fmt: skip
    assert hand_line(["tabel"], bids) is None
    assert hand_line(["nap", "three", "5"], bids) is None  # which is the player?
    assert hand_line(["nap", "ann", "twice"], bids) is None


@pytest.mark.parametrize(
    ("line", "restated"),
    [
        ("nap four --by Cat --tricks 4", "--by"),  # two bids: the option would pick the bidder
        ("nap 3 --by cat --made", "--by"),
        ("nap ann 5 --tricks 2", "--tricks"),  # 5 tricks or 2?
        ("nap ann made --failed", "--failed"),
        ("three ann 1 --short 2", "--short"),  # one trick taken, or two short (one taken)?
        ("ann four --by Cat --tricks 4", "--by"),  # Ann or Cat?
        ("four zzz -b cat -t 4", "-b"),
        ("4 dan revoke eve --revoke=ann", "--revoke=ann"),
    ],
)
def test_a_short_form_with_an_option_that_says_it_again_is_refused(line, restated):
    """The command line keeps the last of two --by or --tricks: the deal would be a guess."""
    with pytest.raises(NapError, match=f"so {restated} after .* would say it twice"):
        read(line)


def test_a_misspelt_command_is_named_not_taken_for_a_bidder():
    with pytest.raises(
        NapError, match=r"'hnad' is not a command, a bid or a player; .*. Did you mean hand[?]"
    ):
        read("hnad four --by Ben --tricks 4")
    with pytest.raises(NapError, match="Did you mean table"):
        read("tabel")
    with pytest.raises(NapError, match="Did you mean amend"):
        read("ammend 1 --tricks 3")


def test_a_short_form_hint_outside_play_needs_a_line_that_is_only_a_short_form():
    bids = {"nap", "three", "four"}
    assert hand_line(["hnad", "four", "--by", "Ann", "--tricks", "4"], bids) is None
    assert hand_line(["four", "ann", "--by", "Cat", "--tricks", "4"], bids) is None


# --- Russian and Polish words (docs/words.md) -----------------------------------------

RUSSIAN = load_preset("russian")
KITCHEN = ("Борис", "Гена", "Лена", "Оля")
POLISH_TABLE = ("Ania", "Paweł", "Kasia", "Tomek")


@pytest.mark.parametrize(
    ("line", "argv"),
    [
        ("борис три 3", ["hand", "три", "--by", "борис", "--tricks", "3"]),
        ("гена два 2", ["hand", "два", "--by", "гена", "--tricks", "2"]),
        ("борис 1 провалил", ["hand", "1", "--by", "борис", "--failed"]),
        ("гена наполеон без", ["hand", "наполеон", "--by", "гена", "--failed"]),
        ("НАПОЛЕОН Лена взяла", ["hand", "НАПОЛЕОН", "--by", "Лена", "--made"]),
        ("оля четыре не взяла --buy оля=1", ["hand", "четыре", "--by", "оля", "--failed", "--buy", "оля=1"]),
        ("пять борис сыграл", ["hand", "пять", "--by", "борис", "--made"]),
        ("лена один ренонс гена", ["hand", "один", "--by", "лена", "--revoke", "гена"]),
        ("раз гена недобор", ["hand", "раз", "--by", "гена", "--failed"]),
    ],
)  # fmt: skip
def test_russian_short_forms(line, argv):
    assert read(line, KITCHEN, RUSSIAN) == argv


@pytest.mark.parametrize(
    ("line", "argv"),
    [
        ("ania trzy ugrała", ["hand", "trzy", "--by", "ania", "--made"]),
        ("pawel cztery przegrał", ["hand", "cztery", "--by", "pawel", "--failed"]),
        ("nap kasia wygral", ["hand", "nap", "--by", "kasia", "--made"]),
        ("mis tomek 0", ["hand", "mis", "--by", "tomek", "--tricks", "0"]),
        ("wellington ania nie ugrała", ["hand", "wellington", "--by", "ania", "--failed"]),
        ("blucher Paweł bez", ["hand", "blucher", "--by", "Paweł", "--failed"]),
        ("dwa kasia renons ania", ["hand", "dwa", "--by", "kasia", "--revoke", "ania"]),
    ],
)
def test_polish_short_forms(line, argv):
    assert read(line, POLISH_TABLE) == argv


def test_pass_is_the_pass_command_in_any_language():
    for word in ("пас", "ПАС", "pas", "Pas", "pass"):
        assert read(f"{word} --dealer ann") == ["pass", "--dealer", "ann"]
    assert read("пас", KITCHEN, RUSSIAN) == ["pass"]


def test_a_result_word_that_is_not_one_is_refused_in_the_usual_words():
    with pytest.raises(NapError, match="not `борис три взятка`"):
        read("борис три взятка", KITCHEN, RUSSIAN)
    with pytest.raises(NapError, match="say who revoked"):
        read("борис три ренонс", KITCHEN, RUSSIAN)


def test_completion_offers_the_local_words_where_it_offers_bids():
    assert completions("нап", [], KITCHEN, RUSSIAN, COMMANDS) == ["наполеон"]
    assert completions("тр", ["борис"], KITCHEN, RUSSIAN, COMMANDS) == ["три"]
    assert completions("че", ["hand"], KITCHEN, RUSSIAN, COMMANDS) == ["четыре"]
    assert completions("па", [], KITCHEN, RUSSIAN, COMMANDS) == ["пас"]
    assert completions("вз", ["борис", "три"], KITCHEN, RUSSIAN, COMMANDS) == ["взял"]
    assert completions("пров", ["борис", "три"], KITCHEN, RUSSIAN, COMMANDS) == ["провал"]
    assert completions("провали", ["борис", "три"], KITCHEN, RUSSIAN, COMMANDS) == ["провалил"]
    assert completions("г", ["лена", "один", "ренонс"], KITCHEN, RUSSIAN, COMMANDS) == ["Гена"]
    assert completions("ugr", ["ania", "trzy"], POLISH_TABLE, CLASSIC, COMMANDS) == ["ugrał"]
    assert completions("cz", ["ania"], POLISH_TABLE, CLASSIC, COMMANDS) == ["cztery"]
    assert completions("pa", [], POLISH_TABLE, CLASSIC, COMMANDS) == ["pass", "paweł"]


def test_an_english_table_is_offered_its_own_words_first():
    # `pas` (Polish) and `pass` would leave `pa<Tab>` at `pas`: English and the language
    # napledger speaks come first, another language's words only when nothing else fits.
    assert completions("pa", [], TABLE, CLASSIC, COMMANDS) == ["pass"]
    assert completions("d", ["ann", "nap"], TABLE, CLASSIC, COMMANDS) == ["down"]
    assert completions("b", ["ann", "nap"], TABLE, CLASSIC, COMMANDS) == ["bez"]
    assert completions("t", ["ann"], TABLE, CLASSIC, COMMANDS) == ["three"]  # not also trzy, три
    # Another language's word is still offered beside a player's name.
    assert completions("па", [], ("Паша", "Гена"), RUSSIAN, COMMANDS) == ["пас", "паша"]


def test_a_russian_short_form_typed_outside_play_is_pointed_at_hand():
    from napledger.cli.errors import all_bid_words

    line = hand_line(["борис", "три", "взял"], all_bid_words())
    assert line == ["hand", "три", "--by", "борис", "--made"]


def test_a_russian_line_that_reads_as_two_deals_is_refused_naming_both():
    with pytest.raises(NapError, match="could be three by Пять or five by Три"):
        read("три пять 5", ("Три", "Пять", "Гена"), RUSSIAN)


def test_a_polish_table_is_offered_polish_words_beside_english():
    from napledger.core.words import speaking

    with speaking("pl"):
        # `pass` is `pas` typed on, and means the same: the Polish word alone is offered.
        assert completions("pa", [], TABLE, CLASSIC, COMMANDS) == ["pas"]
        offered = completions("mi", ["ann"], TABLE, CLASSIC, COMMANDS)
        assert set(offered) == {"misère", "misere", "mis", "mizer", "mizerka"}


def test_play_completes_only_whom_the_rules_allow_in_the_next_deal():
    """The same answer the page offers (core/rules/choices.py): with six seated the
    dealer sits out, so is offered as neither bidder, revoker nor peeper."""
    six = ("Ann", "Ben", "Cat", "Dan", "Eve", "Flo")
    assert "Ann" not in completions("", ["nap"], six, CLASSIC, COMMANDS, dealer="Ann")
    assert "Ann" not in completions("", ["hand", "--peep"], six, CLASSIC, COMMANDS, dealer="Ann")
    assert completions("a", ["hand", "--dealer"], six, CLASSIC, COMMANDS, dealer="Ann") == ["Ann"]
    assert "Ann" in completions("", ["nap"], TABLE, CLASSIC, COMMANDS, dealer="Ann")


@pytest.mark.parametrize(
    ("line", "short"),
    [("борис три без двух", "2"), ("ania trzy bez dwóch", "2"), ("ann three down 1", "1")],
)
def test_a_result_said_as_how_many_short_is_passed_on_as_such(line, short):
    """`без двух` is failed two tricks short: the line is `hand … --short 2`, the core
    works out the tricks taken (#35: a result read as «без двух» can be typed back)."""
    players = ("Борис", "Ania", "Ann")
    rules = load_preset("russian" if "три" in line else "classic")
    words = parse(line, players, rules, COMMANDS)
    assert words[-2:] == ["--short", short] and "--failed" not in words
