"""The organiser's form asks for each rule setting with a control of its kind and range
(core/rules/fields.py): everything a control offers, the rules take; just past its range,
they refuse. So the page can offer nothing `--rule KEY=VALUE` would refuse."""

from __future__ import annotations

import pytest

from napledger.core.errors import NapError
from napledger.core.rules import list_presets, load_preset
from napledger.core.rules.fields import setting_fields
from napledger.core.rules.load import rules_to_dict, setting_text, with_overrides


@pytest.mark.parametrize("preset", list_presets())
def test_every_control_offers_only_what_the_rules_take(preset):
    rules = load_preset(preset)
    fields = setting_fields(rules)
    settings = rules_to_dict(rules)["settings"]
    # Each setting the game has, once, with the game's own value as its default.
    assert [f.key for f in fields] == sorted(k for k in settings if rules.why_absent(k) is None)
    for field in fields:
        assert field.value == setting_text(settings[field.key]) and field.description
        if field.kind == "switch":
            offered = ["on", "off"]
        elif field.kind == "number":
            offered = [str(field.low), str(field.high)]
            for past in (field.low - 1, field.high + 1):
                with pytest.raises(NapError):
                    with_overrides(rules, [f"{field.key}={past}"])
        else:
            offered = [value for value, _said in field.choices]
            assert field.value in offered
        for value in offered:
            taken = with_overrides(rules, [f"{field.key}={value}"])
            assert setting_text(rules_to_dict(taken)["settings"][field.key]) == value
