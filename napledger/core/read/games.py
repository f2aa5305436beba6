"""The games a new session may be played under, as the organiser chooses one: the presets
and the house-rule files `serve --rules` was given, each with the settings it has, and
the rules a choice of game and settings makes.

The setting sentences keep the `%(name)s` placeholders they had in the page's template,
so their translations in the catalogs still find them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from napledger.core.errors import NapError
from napledger.core.rules import Rules, list_presets, load_preset, load_rules
from napledger.core.rules.fields import SettingField, setting_fields
from napledger.core.rules.load import with_overrides
from napledger.core.rules.texts import rule_text
from napledger.core.words import _


@dataclass(frozen=True)
class Game:
    """A preset or a house-rule file, with the settings it has (those it lacks are not
    offered)."""

    name: str
    title: str
    settings: tuple[SettingField, ...]  # each with its kind, range and the game's value
    house: bool = False  # from a rule file, not a preset

    @property
    def settings_heading(self) -> str:
        return _("%(game)s: settings") % {"game": self.title}

    @staticmethod
    def default_said(setting: SettingField) -> str:
        """The game's own value of a setting, as its form shows it beside the control."""
        if setting.kind == "switch":
            value = _("on") if setting.value == "on" else _("off")
        elif setting.kind == "choice":
            value = dict(setting.choices)[setting.value]
        else:
            value = setting.value
        return _("default: %(value)s") % {"value": value}


def house_rules(paths: Sequence[str]) -> dict[str, Rules]:
    """The rule files `serve --rules` names, read once at start, by the game's own name:
    the page chooses among them by name and never names a file for the server to read."""
    found: dict[str, Rules] = {}
    for path in paths:
        rules = load_rules(path if path.endswith(".toml") or "/" in path else f"./{path}")
        if rules.name in list_presets() or rules.name in found:
            said = (
                _(
                    "rule file {path} names its game '{name}', which is a preset's name; "
                    "give it a name of its own (name = ...)"
                )
                if rules.name in list_presets()
                else _(
                    "rule file {path} names its game '{name}', which is another file's "
                    "name; give it a name of its own (name = ...)"
                )
            )
            raise NapError(said.format(path=path, name=rules.name))
        found[rules.name] = rules
    return found


def games(house: Mapping[str, Rules] | None = None) -> list[Game]:
    every = [(load_preset(name), False) for name in list_presets()]
    every += [(rules, True) for rules in (house or {}).values()]
    return [
        Game(rules.name, rule_text(rules.title), setting_fields(rules), from_file)
        for rules, from_file in every
    ]


def chosen_rules(
    game: str, settings: Mapping[str, str], house: Mapping[str, Rules] | None = None
) -> Rules:
    """The rules of `game` (a preset, or a rule file serve read at start, by name: a page
    must never make the server read a file it names) with the `settings` that differ
    from the game's own, as `--variant GAME --rule K=V …` gives them."""
    house = house or {}
    if game in house:
        rules = house[game]
    elif game in list_presets():
        rules = load_preset(game)
    else:
        known = ", ".join([*list_presets(), *house])
        raise NapError(_("no game '{game}': choose one of {known}").format(game=game, known=known))
    offered = {s.key: s.value for g in games(house) if g.name == game for s in g.settings}
    changed = [
        f"{key}={value.strip()}"
        for key, value in settings.items()
        if key in offered and value.strip() != offered[key]
    ]
    return with_overrides(rules, changed)
