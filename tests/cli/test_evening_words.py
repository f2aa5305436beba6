"""A whole evening typed in the table's own words equals it typed in English, to the chip.

A Russian kitchen table plays «Наполеон» (the russian preset) saying only Russian words,
in `play` and as one-shot commands; a Polish table plays English Nap (classic) in Polish.
The words are napledger/core/vocabulary.py's and the presets' (docs/words.md).
"""

import shlex

import pytest

KITCHEN = "Борис,Гена,Лена,Оля"

# The same evening three times: each line in English, in Russian in `play`, and in Russian
# as the one-shot command a script would run.
RUSSIAN_EVENING = [
    ("борис three 3", "борис три 3", "hand три --by борис --tricks 3"),
    ("pass", "пас", "пас"),
    ("гена two 2", "гена два 2", "hand два --by гена --tricks 2"),
    ("борис 1 failed", "борис 1 провалил", "hand 1 --by борис --failed"),
    ("гена napoleon failed", "гена наполеон без", "hand наполеон --by гена --failed"),
    ("лена five made", "лена пять взяла", "hand пять --by лена --made"),
    ("napoleon оля 5", "наполеон оля 5", "hand НАПОЛЕОН --by оля --tricks 5"),
    ("оля four revoke гена", "оля четыре ренонс гена", "hand четыре --by оля --revoke гена"),
    ("one лена failed", "одну лена не взяла", "hand одну --by лена --failed"),
    ("two борис made --buy борис=1", "две борис сыграл --buy борис=1", "hand две --by борис --made --buy борис=1"),
    ("amend 4 pass", "amend 4 пас", "amend 4 пас"),
    ("three гена won", "Три Гена Сделал", "hand Три --by Гена --made"),
    ("undo", "undo", "undo"),
    ("pass --dealer гена", "ПАС --dealer гена", "Пас --dealer гена"),
    ("гена napoleon made", "гена Наполеон взял", "hand наполеон --by гена --made"),
    ("five лена down", "пять лена недобор", "hand пять --by лена --failed"),
]  # fmt: skip

POLISH_TABLE = "Ania,Paweł,Kasia,Tomek,Zosia"
POLISH_EVENING = [
    ("ania three 3", "ania trzy 3", "hand trzy --by ania --tricks 3"),
    ("pass", "pas", "pas"),
    ("pawel four made", "pawel cztery ugrał", "hand cztery --by pawel --made"),
    ("kasia nap failed", "kasia nap przegrała", "hand nap --by kasia --failed"),
    ("mis tomek 0", "mis tomek 0", "hand mis --by tomek --tricks 0"),
    ("misère zosia 1", "mizer zosia 1", "hand mizer --by zosia --tricks 1"),
    ("wellington ania made", "wellington ania wygrała", "hand WELLINGTON --by ania --made"),
    ("blücher paweł down", "blücher paweł bez", "hand blucher --by pawel --failed"),
    ("three kasia revoke tomek", "trzy kasia renons tomek", "hand trzy --by kasia --revoke tomek"),
    ("four zosia failed --peep ania", "cztery zosia nie ugrała --peep ania", "hand cztery --by zosia --failed --peep ania"),
    ("amend 3 --failed", "amend 3 --failed", "amend 3 --failed"),
    ("nap tomek won", "napoleon tomek wygral", "hand napoleon --by tomek --made"),
]  # fmt: skip


def played(nap, players, variant, lines, as_play, path, monkeypatch):
    """The evening's `table --json` and `hands --json`, in a database of its own."""
    monkeypatch.setenv("NAPLEDGER_DB", str(path))
    nap(f"new evening --players {players} --variant {variant}")
    if as_play:
        result = nap("play", input="\n".join(lines) + "\n")
        assert result.stderr == "", result.stderr
    else:
        for line in lines:
            nap(line)
    hands = [{k: v for k, v in d.items() if k != "recorded_at"} for d in nap.json("hands --json")]
    return nap.json("table --json"), hands


@pytest.mark.parametrize(
    ("players", "variant", "evening"),
    [(KITCHEN, "russian", RUSSIAN_EVENING), (POLISH_TABLE, "classic", POLISH_EVENING)],
    ids=["russian", "polish"],
)
def test_an_evening_in_the_tables_words_equals_it_in_english(
    nap, db_path, monkeypatch, players, variant, evening
):
    english, local, one_shot = zip(*evening, strict=True)
    here = db_path.parent
    want = played(nap, players, variant, english, True, here / "english.db", monkeypatch)
    table, hands = want
    # Every line is an entry of `hands` (a deal, or a correction's new version) but undo,
    # which marks the last one voided.
    assert len(hands) == len(evening) - english.count("undo")
    assert [d["status"] for d in hands].count("voided") == (1 if "undo" in english else 0)
    assert any(p["chips"] for p in table["players"])  # money moved: the comparison means something
    assert played(nap, players, variant, local, True, here / "play.db", monkeypatch) == want
    assert played(nap, players, variant, one_shot, False, here / "cmd.db", monkeypatch) == want


def test_the_russian_evening_in_english_is_what_the_rules_pay(nap, db_path, monkeypatch):
    """The reference evening itself, checked to the chip against docs/rules.md's russian
    stakes: a made bid of n takes n from each, a failed one pays n each and n into the box,
    the dealer antes 1, a made napoleon takes the box and a failed one doubles it."""
    english = [line for line, _, _ in RUSSIAN_EVENING]
    table, hands = played(nap, KITCHEN, "russian", english, True, db_path, monkeypatch)
    assert sum(p["chips"] for p in table["players"]) + table["pot"] == 0
    first = hands[0]["changes"]
    assert first == {"Борис": 3 * 3 - 1, "Гена": -3, "Лена": -3, "Оля": -3, "pot": 1}


def test_a_player_named_like_a_game_word_is_read_by_where_the_word_stands(nap):
    nap("new evening --players Ania,Bez,Kasia --variant classic")
    # `bez` is a player here and also "failed": where the bidder goes it is the player,
    # where the result goes it is the result, and it is never taken for a bid.
    nap("hand trzy --by bez --made")
    assert nap.chips()["Bez"] == 6
    assert nap("play", input="trzy bez bez\n").stderr == ""
    assert nap.chips()["Bez"] == 6 - 3 * 2
    line = nap.fails("hand bez --by ania --made")
    assert "'bez' says how the deal went (failed), not what was bid" in line


def test_one_shot_pass_in_russian_keeps_its_options_and_english_names_stay(nap):
    nap(f"new evening --players {KITCHEN} --variant russian")
    result = nap("пас --dealer гена --note " + shlex.quote("все пас"))
    assert "passed out" in result.stdout
    deal = nap.json("hands --json")[0]
    assert (deal["dealer"], deal["note"], deal["bid"]) == ("Гена", "все пас", None)
    assert "Error: No such command 'пасьянс'" in nap("пасьянс", ok=False).stderr
    assert "пас" not in nap("--help").stdout  # the commands keep their English names


def test_a_russian_short_form_typed_as_a_command_is_pointed_at_hand_unquoted(nap):
    nap(f"new evening --players {KITCHEN} --variant russian")
    line = nap.fails("борис три взял", code=2)
    assert "a deal is recorded with `napledger hand три --by борис --made`" in line
    assert "(or typed as `борис три взял` in `napledger play`)" in line
