"""Reading rule files (TOML) into `Rules`, validating everything on the way in.

A session stores `rules_to_dict(rules)` as its frozen snapshot and rebuilds it with
`rules_from_dict`, so editing a rule file later never changes an old session's money.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import asdict, replace
from functools import cache
from typing import Any

from napledger.core.errors import RuleError
from napledger.core.files import NotRegular, read_small
from napledger.core.numbers import is_whole
from napledger.core.reasons import os_reason
from napledger.core.rules.model import Bid, Rules, Settings, fold
from napledger.core.rules.texts import game_name, rule_text
from napledger.core.vocabulary import SAID, meanings, word_key
from napledger.core.words import LANGUAGES, NC_, _, catalog, pgettext

# Settings every variant has, with the defaults a house rule file gets when it is silent.
BOOL_SETTINGS = ("pool", "pool_fail_doubles", "pass_doubles")
CHIP_SETTINGS = (
    "pool_ante", "dealer_ante", "peep_fee", "purchase_fee", "revoke_fine", "empty_pot_ante",
)  # fmt: skip
DEALER_PEEPS = ("free", "pays", "never")
SETTING_DEFAULTS: dict[str, Any] = {
    "dealer_sits_out_from": None,
    "pool": False,
    "pool_ante": 1,
    "pool_fail_doubles": False,
    "dealer_ante": 0,
    "peep_fee": 1,
    "purchase_fee": 1,
    "dealer_peeps": "pays",
    "revoke_fine": 0,
    "empty_pot_ante": 0,
    "pass_doubles": False,
    "purchase_max_dealt": None,
}
TOP_KEYS = {
    "name",
    "title",
    "description",
    "min_players",
    "max_players",
    "hand_size",
    "pack",
    "buying",
    "buy_limit",
}
BUYING = ("anyone", "bidder", "nobody")
FEWEST_TO_SIT_OUT = 4  # with fewer seated, a dealer who sits out would leave too few to play
BID_KEYS = {
    "name", "tricks", "win", "lose", "misere", "aliases", "names", "toggle", "pot_bid", "fail_pot",
}  # fmt: skip
LANGUAGE_RE = re.compile(r"^[a-z]{2,3}$")  # ISO 639 codes: en, ru, pl
TRUE_WORDS = {"on", "true", "yes", "1"}
FALSE_WORDS = {"off", "false", "no", "0"}
MAX_CHIPS = 1_000_000  # a stake beyond this is a typo, and keeps sums far from overflow
MAX_RULE_FILE = 256 * 1024  # bytes; a preset is about 2 KB
MAX_WORD, MAX_TITLE, MAX_DESCRIPTION = 40, 200, 2000  # characters
TOGGLE_RE = re.compile(r"^[a-z][a-z0-9_]*$")


def list_presets() -> list[str]:
    return list(_preset_names())


# Presets are package data: read and checked once a process, not on every deal form, every
# `new` and every rule drawn by a property test. Rules are frozen values, safe to share.
@cache
def _preset_names() -> tuple[str, ...]:
    from importlib import resources  # only where presets are read: it costs every start

    folder = resources.files("napledger.core.rules") / "presets"
    return tuple(
        sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))
    )


def load_preset(name: str) -> Rules:
    if name not in list_presets():
        known = ", ".join(list_presets())
        raise RuleError(
            _("unknown variant '{name}'; the presets are {known}, or give a .toml file").format(
                name=name, known=known
            )
        )
    return _preset(name)


@cache
def _preset(name: str) -> Rules:
    from importlib import resources

    text = (resources.files("napledger.core.rules") / "presets" / f"{name}.toml").read_text("utf-8")
    return parse_rules(text, source=f"preset {name}")


def load_rules(variant: str) -> Rules:
    """A preset by name, or a table's own rule file by path."""
    if variant.endswith(".toml") or "/" in variant or "\\" in variant:
        source = _("rule file {path}").format(path=variant)
        return parse_rules(read_rule_file(variant), source=source)
    return load_preset(variant)


def read_rule_file(path: str) -> str:
    """The text of a rule file: a regular file of a rule file's size, or a clear refusal.

    Read as napledger.core.files reads a small file: a FIFO never hangs, /dev/zero is
    never read into memory.
    """
    try:
        data = read_small(path, MAX_RULE_FILE)
    except OSError as exc:
        raise RuleError(
            _("cannot read rule file {path}: {why}").format(path=path, why=os_reason(exc))
        ) from None
    except NotRegular:
        raise RuleError(_("rule file {path} is not a regular file").format(path=path)) from None
    if len(data) > MAX_RULE_FILE:
        raise RuleError(
            _("rule file {path} is over {kb} KB; a rule file is a page").format(
                path=path, kb=MAX_RULE_FILE // 1024
            )
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RuleError(
            _("cannot read rule file {path}: {why}").format(path=path, why=exc)
        ) from None


def parse_rules(text: str, source: str = "rule file") -> Rules:
    import tomllib  # here, not at the top: a session's stored rules are JSON

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # tomllib says what it expected in English; where it was is said in the table's
        # language, and a Russian or Polish table reads the place alone.
        at = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", str(exc), re.DOTALL)
        if at is None:
            end = re.fullmatch(r"(.*) \(at end of document\)", str(exc), re.DOTALL)
            said = (
                _("{source} is not valid TOML at its end: {why}").format(source=source, why=end[1])
                if end
                else _("{source} is not valid TOML: {why}").format(source=source, why=exc)
            )
            raise RuleError(said) from None
        raise RuleError(
            _("{source} is not valid TOML at line {line}, column {column}: {why}").format(
                source=source, line=at[2], column=at[3], why=at[1]
            )
        ) from None
    except RecursionError:
        raise RuleError(
            _("{source} is nested too deeply to be a rule file").format(source=source)
        ) from None
    rules = _for_new_sessions(rules_from_dict(data, source), source)
    _check_words(rules, source)
    return rules


def _check_words(rules: Rules, source: str) -> None:
    """Words a person will read after every deal and type again: printable, of sane length.

    Checked on the way in from a file only; a session's stored snapshot is taken as it is.
    """
    words = [("name", rules.name, MAX_WORD), ("title", rules.title, MAX_TITLE)]
    words.append(("description", rules.description, MAX_DESCRIPTION))
    for i, bid in enumerate(rules.bids):
        words += [(f"bids[{i + 1}] name", bid.name, MAX_WORD)]
        words += [(f"bids[{i + 1}] alias", alias, MAX_WORD) for alias in bid.aliases]
        words += [(f"bids[{i + 1}] names.{lang}", w, MAX_WORD) for lang, w in bid.names]
        words += [(f"bids[{i + 1}] aliases.{lang}", w, MAX_WORD) for lang, w in bid.words]
        for word in bid.spellings:
            # `пас` or `без` typed for a bid would be read as pass or failed: never guessed.
            said = _(" or ").join(sorted(_(SAID[m]) for m in meanings(word)))
            if said:
                message = _("{source}: bids[{n}] {bid}: '{word}' already means {said} at the "
                            "table, so it cannot name a bid")  # fmt: skip
                raise RuleError(
                    message.format(source=source, n=i + 1, bid=bid.name, word=word, said=said)
                )
    for what, text, limit in words:
        allowed = "\n\t" if what == "description" else ""  # a description may run to lines
        if any(unicodedata.category(c).startswith("C") and c not in allowed for c in text):
            said = _("the {what} {name!r} has control characters in it")
            raise RuleError(f"{source}: " + said.format(what=what, name=text[:40]))
        if text and not fold(text):
            said = _("the {what} '{name}' has only accent marks, no letters")
            raise RuleError(f"{source}: " + said.format(what=what, name=text))
        if len(text) > limit:
            said = _("the {what} '{name}'… is longer than {limit} characters")
            raise RuleError(f"{source}: " + said.format(what=what, name=text[:20], limit=limit))


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    data = {k: getattr(rules, k) for k in sorted(TOP_KEYS)}
    settings = asdict(rules.settings)
    toggles = dict(settings.pop("toggles"))
    data["settings"] = {**settings, **toggles}
    data["absent"] = dict(rules.absent)
    data["bids"] = [_bid_to_dict(b) for b in rules.bids]
    return data


def _bid_to_dict(bid: Bid) -> dict[str, Any]:
    """A bid as a rule file writes it: `names` and a language's aliases as tables."""
    data = {
        k: (list(v) if isinstance(v, tuple) else v)
        for k, v in asdict(bid).items()
        if v is not None and k not in ("names", "words")
    }
    if bid.names:
        data["names"] = dict(bid.names)
    if bid.words:
        # A rule file gives its aliases one way: a list, or a table by language.
        assert not bid.aliases, f"{bid.name}: aliases both of no language and of one"
        by_language: dict[str, list[str]] = {}
        for lang, word in bid.words:
            by_language.setdefault(lang, []).append(word)
        data["aliases"] = by_language
    return data


def setting_text(value: Any) -> str:
    """A setting's value as `--rule KEY=VALUE` takes it in English (and --json gives it)."""
    if value is None or value is False:
        return "off"
    return "on" if value is True else str(value)


# A setting's worded values, shown in the table's language (`вкл`, `wył.`); each language's
# word is taken back when typed (`--rule pool=вкл`), as the English one is.
VALUE_WORDS = (
    NC_("rule value", "on"),
    NC_("rule value", "off"),
    NC_("rule value", "free"),
    NC_("rule value", "pays"),
    NC_("rule value", "never"),
)


def setting_said(value: Any) -> str:
    """A setting's value as `variants` and the workbook show it, in the language spoken."""
    text = setting_text(value)
    return pgettext("rule value", text) if text in VALUE_WORDS else text


def _value_key(word: str) -> str:
    return word_key(word).rstrip(".")


@cache
def _typed_values() -> dict[str, str]:
    """Every language's word for a worded value, to the English one `_parse_value` reads."""
    return {
        _value_key(catalog(lang).pgettext("rule value", english)): english
        for lang in LANGUAGES
        for english in VALUE_WORDS
    }


def rules_from_dict(data: Mapping[str, Any], source: str = "rules") -> Rules:
    if not isinstance(data, Mapping):
        raise RuleError(_("{source}: expected a table of rules").format(source=source))
    _no_unknown(data, TOP_KEYS | {"settings", "bids", "absent"}, source)
    name = _text(data, "name", source)
    hand_size = _whole(data, "hand_size", source, low=1, high=13)
    min_players = _whole(data, "min_players", source, low=2, high=10)
    max_players = _whole(data, "max_players", source, low=min_players, high=10)
    pack = _whole(data, "pack", source, low=1, high=104, default=52)
    if max_players * hand_size > pack:
        raise RuleError(
            _(
                "{source}: {players} players of {cards} cards need more than a {pack}-card pack"
            ).format(source=source, players=max_players, cards=hand_size, pack=pack)
        )
    raw_bids = data.get("bids")
    if not isinstance(raw_bids, list) or not raw_bids:
        raise RuleError(_("{source}: needs at least one [[bids]] entry").format(source=source))
    bids = tuple(_bid(b, f"{source}: bids[{i + 1}]", hand_size) for i, b in enumerate(raw_bids))
    _check_ladder(bids, source)
    settings = _settings(data.get("settings", {}), bids, source)
    buying = _text(data, "buying", source, default="anyone")
    if buying not in BUYING:
        raise RuleError(
            _("{source}: buying is one of {choices}, not '{value}'").format(
                source=source, choices=", ".join(BUYING), value=buying
            )
        )
    return Rules(
        name=name,
        title=_text(data, "title", source, default=name),
        description=_text(data, "description", source, default=""),
        min_players=min_players,
        max_players=max_players,
        hand_size=hand_size,
        pack=pack,
        bids=bids,
        settings=settings,
        absent=_absent(data.get("absent", {}), source),
        buying=buying,
        buy_limit=_whole(data, "buy_limit", source, low=0, high=hand_size, default=0),
    )


def _absent(raw: Any, source: str) -> tuple[tuple[str, str], ...]:
    """The settings a game does not have, each with the one line that says why."""
    where = f"{source}: [absent]"
    if not isinstance(raw, Mapping):
        raise RuleError(
            _('{where} must be a table of setting = "why the game has none"').format(where=where)
        )
    _no_unknown(raw, set(SETTING_DEFAULTS), where)
    return tuple((key, _text(raw, key, where)) for key in sorted(raw))


def _for_new_sessions(rules: Rules, source: str) -> Rules:
    """Checks that bind rules a session starts with, not the snapshots older sessions froze.

    A stored session keeps the rules it was played under, even one a newer napledger would
    refuse (its money must re-derive exactly as recorded), so these run only on rule files,
    presets and `--rule`, never in `rules_from_dict`.
    """
    sits_out = rules.settings.dealer_sits_out_from
    if sits_out is not None and sits_out < FEWEST_TO_SIT_OUT:
        raise RuleError(
            _("{where}: {key} is off or from {low} to 11 players, not '{value}'").format(
                where=source, key="dealer_sits_out_from", low=FEWEST_TO_SIT_OUT, value=sits_out
            )
        )
    return rules


def with_overrides(rules: Rules, pairs: Iterable[str]) -> Rules:
    """Apply `--rule KEY=VALUE` settings; unknown keys and bad values are errors."""
    values = rules_to_dict(rules)["settings"]
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise RuleError(_("--rule wants KEY=VALUE, not '{pair}'").format(pair=pair))
        why = rules.why_absent(key)
        if why is not None:
            raise RuleError(
                _("{game} has no rule {key}: {why}").format(
                    game=game_name(rules), key=key, why=rule_text(why)
                )
            )
        if key not in values:
            known = ", ".join(sorted(k for k in values if rules.why_absent(k) is None))
            raise RuleError(
                _("unknown rule '{key}'; the rules are: {known}").format(key=key, known=known)
            )
        values[key] = _parse_value(key, value.strip())
    return _for_new_sessions(
        replace(rules, settings=_settings(values, rules.bids, "--rule")), "--rule"
    )


def _parse_value(key: str, value: str) -> Any:
    word = _typed_values().get(_value_key(value), value.casefold())
    if key == "dealer_sits_out_from" and word in FALSE_WORDS - {"0"} | {"never"}:
        return None
    if key == "purchase_max_dealt" and word in FALSE_WORDS - {"0"}:
        return None
    if key == "dealer_peeps":
        if word not in DEALER_PEEPS:
            raise RuleError(
                _("rule dealer_peeps is free, pays or never, not '{value}'").format(value=value)
            )
        return word
    if key in CHIP_SETTINGS or key in ("dealer_sits_out_from", "purchase_max_dealt"):
        if not is_whole(value):
            raise RuleError(
                _("rule {key} wants a whole number of chips, not '{value}'").format(
                    key=key, value=value
                )
            )
        return int(value)
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise RuleError(_("rule {key} is on or off, not '{value}'").format(key=key, value=value))


def _settings(raw: Any, bids: tuple[Bid, ...], source: str) -> Settings:
    if not isinstance(raw, Mapping):
        raise RuleError(_("{source}: [settings] must be a table").format(source=source))
    toggles = sorted({b.toggle for b in bids if b.toggle})
    _no_unknown(raw, set(SETTING_DEFAULTS) | set(toggles), f"{source}: [settings]")
    values = {**SETTING_DEFAULTS, **{t: True for t in toggles}, **raw}
    where = f"{source}: setting"
    for key in BOOL_SETTINGS + tuple(toggles):
        _boolean(values, key, where)
    for key in CHIP_SETTINGS:
        _whole(values, key, where, low=0, high=MAX_CHIPS)
    # 2 and 3 pass here only for the snapshots of sessions started before they were refused.
    sits_out = _players_or_off(values, "dealer_sits_out_from", 2, FEWEST_TO_SIT_OUT, where)
    max_dealt = _players_or_off(values, "purchase_max_dealt", 1, 1, where)
    if values["dealer_peeps"] not in DEALER_PEEPS:
        raise RuleError(
            _("{where}: dealer_peeps is free, pays or never, not '{value}'").format(
                where=where, value=values["dealer_peeps"]
            )
        )
    return Settings(
        dealer_sits_out_from=sits_out,
        pool=values["pool"],
        pool_ante=values["pool_ante"],
        pool_fail_doubles=values["pool_fail_doubles"],
        dealer_ante=values["dealer_ante"],
        peep_fee=values["peep_fee"],
        purchase_fee=values["purchase_fee"],
        toggles=tuple((t, values[t]) for t in toggles),
        dealer_peeps=values["dealer_peeps"],
        revoke_fine=values["revoke_fine"],
        empty_pot_ante=values["empty_pot_ante"],
        pass_doubles=values["pass_doubles"],
        purchase_max_dealt=max_dealt,
    )


def _players_or_off(
    values: Mapping[str, Any], key: str, low: int, shown_low: int, where: str
) -> int | None:
    """A count of players from `low` to 11, or None for off (false in a rule file)."""
    value = values[key]
    if value is False:
        return None
    if value is not None and (type(value) is not int or not low <= value <= 11):
        raise RuleError(
            _("{where}: {key} is off or from {low} to 11 players, not '{value}'").format(
                where=where, key=key, low=shown_low, value=value
            )
        )
    return value


def _bid(raw: Any, where: str, hand_size: int) -> Bid:
    if not isinstance(raw, Mapping):
        raise RuleError(_("{where} must be a table").format(where=where))
    _no_unknown(raw, BID_KEYS, where)
    name = _text(raw, "name", where)
    if name.isdigit() or fold(name) == "pot":
        raise RuleError(
            _("{where}: '{name}' cannot be a bid's name").format(where=where, name=name)
        )
    misere = _boolean(raw, "misere", where, default=False)
    tricks = _whole(raw, "tricks", where, low=0 if misere else 1, high=hand_size, default=0)
    if misere and tricks:
        raise RuleError(
            _("{where}: a misère bid takes no tricks, so it has no tricks value").format(
                where=where
            )
        )
    aliases, words = _aliases(raw.get("aliases", []), where)
    names = _names(raw.get("names", {}), where)
    # A number is tricks and `pot` an account. (Only the new forms: a session's rules,
    # frozen with its old aliases, must load as they were.)
    for word in (w for _lang, w in (*names, *words)):
        if word.isdigit() or fold(word) == "pot":
            raise RuleError(_("{where}: '{word}' cannot name a bid").format(where=where, word=word))
    toggle = raw.get("toggle")
    if toggle is not None and (
        not isinstance(toggle, str) or not TOGGLE_RE.match(toggle) or toggle in SETTING_DEFAULTS
    ):
        raise RuleError(
            _("{where}: toggle must be a new lower-case rule key, not '{toggle}'").format(
                where=where, toggle=toggle
            )
        )
    return Bid(
        name=name,
        tricks=tricks,
        win=_whole(raw, "win", where, low=0, high=MAX_CHIPS),
        lose=_whole(raw, "lose", where, low=0, high=MAX_CHIPS),
        misere=misere,
        aliases=aliases,
        names=names,
        words=words,
        toggle=toggle,
        pot_bid=_boolean(raw, "pot_bid", where, default=False),
        fail_pot=_whole(raw, "fail_pot", where, low=0, high=MAX_CHIPS, default=0),
    )


def _aliases(raw: Any, where: str) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """A bid's other words: a list (of no language in particular), or a table of
    language -> list (`aliases.ru = ["бонапарт"]`), which gives them as (language, word)."""
    if isinstance(raw, Mapping):
        return (), tuple(
            (lang, word)
            for lang, words in ((_language(k, f"{where}: aliases"), v) for k, v in raw.items())
            for word in _word_list(words, f"{where}: aliases.{lang}")
        )
    return _word_list(raw, f"{where}: aliases"), ()


def _word_list(raw: Any, where: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(a, str) and a.strip() for a in raw):
        raise RuleError(_("{where} must be a list of words").format(where=where))
    return tuple(a.strip() for a in raw)


def _names(raw: Any, where: str) -> tuple[tuple[str, str], ...]:
    """What a table calls the bid in each language: `names = { ru = "три", pl = "trzy" }`."""
    if not isinstance(raw, Mapping):
        raise RuleError(
            _('{where}: names must be a table of language = "name", e.g. ru = "три"').format(
                where=where
            )
        )
    return tuple(
        (_language(lang, f"{where}: names"), _text(raw, lang, f"{where}: names")) for lang in raw
    )


def _language(code: Any, where: str) -> str:
    if not isinstance(code, str) or not LANGUAGE_RE.match(code):
        message = _("{where}: '{code}' is not a language code such as en, ru or pl")
        raise RuleError(message.format(where=where, code=code))
    return code


def _check_ladder(bids: tuple[Bid, ...], source: str) -> None:
    seen: dict[str, Bid] = {}
    for bid in bids:
        for word in dict.fromkeys(word_key(w) for w in bid.spellings):
            if word in seen:
                raise RuleError(
                    _("{source}: '{word}' names both {bid} and {other}").format(
                        source=source, word=word, bid=seen[word].name, other=bid.name
                    )
                )
            seen[word] = bid
    trick_bids = [b for b in bids if not b.misere]
    for lower, higher in itertools.pairwise(trick_bids):
        if higher.tricks < lower.tricks:
            raise RuleError(
                _(
                    "{source}: bids go lowest to highest, but {higher} ({higher_tricks} tricks) "
                    "comes after {lower} ({lower_tricks} tricks)"
                ).format(
                    source=source,
                    higher=higher.name,
                    higher_tricks=higher.tricks,
                    lower=lower.name,
                    lower_tricks=lower.tricks,
                )
            )


def _no_unknown(raw: Mapping[str, Any], known: set[str], where: str) -> None:
    unknown = sorted(set(raw) - known)
    if unknown:
        raise RuleError(
            _("{where}: unknown key '{key}'; known keys: {known}").format(
                where=where, key=unknown[0], known=", ".join(sorted(known))
            )
        )


def _text(raw: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = raw.get(key, default)
    if not isinstance(value, str) or (default is None and not value.strip()):
        raise RuleError(_("{where}: {key} must be some text").format(where=where, key=key))
    return value.strip()


def _whole(
    raw: Mapping[str, Any], key: str, where: str, low: int, high: int, default: int | None = None
) -> int:
    value = raw.get(key, default)
    if value is None:
        raise RuleError(_("{where}: {key} is missing").format(where=where, key=key))
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(
            _("{where}: {key} must be a whole number, not '{value}'").format(
                where=where, key=key, value=value
            )
        )
    if not low <= value <= high:
        raise RuleError(
            _("{where}: {key} must be from {low} to {high}, not {value}").format(
                where=where, key=key, low=low, high=high, value=value
            )
        )
    return value


def _boolean(raw: Mapping[str, Any], key: str, where: str, default: bool | None = None) -> bool:
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise RuleError(
            _("{where}: {key} must be true or false, not '{value}'").format(
                where=where, key=key, value=value
            )
        )
    return value
