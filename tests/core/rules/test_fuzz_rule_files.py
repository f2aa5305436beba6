"""Fuzz: whatever a rule file says, it loads as valid Rules or fails with a RuleError."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from napledger.core.errors import RuleError
from napledger.core.rules import Rules, list_presets, load_preset
from napledger.core.rules.load import parse_rules, rules_from_dict, rules_to_dict, with_overrides

KEYS = ["name", "tricks", "win", "lose", "misere", "aliases", "names", "ru", "pl", "toggle",
        "pot_bid", "fail_pot",
        "min_players", "max_players", "hand_size", "pack", "settings", "bids", "pool",
        "peep_fee", "dealer_sits_out_from", "two", "title", "x"]  # fmt: skip
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=8)
    | st.sampled_from(["", "pot", "nap", "3", "misère", "two", "on", "пас", "три", "bez"])
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3),
    max_leaves=8,
)  # fmt: skip


def loads_or_refuses(load, *args) -> None:
    try:
        rules = load(*args)
    except RuleError:
        return
    assert isinstance(rules, Rules)
    assert rules_from_dict(rules_to_dict(rules)) == rules  # what loads also freezes and thaws


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=200))
def test_any_text(text):
    loads_or_refuses(parse_rules, text)


@settings(max_examples=150, deadline=None)
@given(
    preset=st.sampled_from(list_presets()),
    edits=st.lists(
        st.tuples(st.sampled_from(["top", "settings", "bid"]), st.sampled_from(KEYS), values),
        min_size=1,
        max_size=3,
    ),
    which=st.integers(0, 20),
)
def test_a_preset_with_a_few_things_changed(preset, edits, which):
    data = copy.deepcopy(rules_to_dict(load_preset(preset)))
    for where, key, value in edits:
        bids = data.get("bids")
        target = {
            "top": data,
            "settings": data.get("settings"),
            "bid": bids[which % len(bids)] if isinstance(bids, list) and bids else None,
        }[where]
        if isinstance(target, dict):
            target[key] = value
    loads_or_refuses(rules_from_dict, data)


@settings(max_examples=100, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(
            st.sampled_from([*KEYS, "pool_ante", "purchase_fee", ""]), st.text(max_size=6)
        ).map("=".join)
        | st.text(max_size=12),
        max_size=3,
    )
)
def test_rule_overrides(pairs):
    loads_or_refuses(with_overrides, load_preset("classic"), pairs)
