"""Each rule setting as a form asks for it: what it is, in a few words, the kind of answer
it takes (a switch, a number within its range, one of a few words) and the game's own
value. The kinds and ranges are the ones `--rule KEY=VALUE` checks (load.py), so a form
built from these offers nothing the rules would refuse."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from napledger.core.rules.load import (
    BOOL_SETTINGS,
    CHIP_SETTINGS,
    DEALER_PEEPS,
    FEWEST_TO_SIT_OUT,
    MAX_CHIPS,
    rules_to_dict,
    setting_text,
)
from napledger.core.rules.model import Rules
from napledger.core.rules.texts import bid_name
from napledger.core.words import _

MOST_SEATED = 11  # the most players a setting counting players may name

Kind = Literal["switch", "number", "choice"]


@dataclass(frozen=True)
class SettingField:
    key: str
    description: str
    kind: Kind
    value: str  # the game's own, as `--rule KEY=VALUE` takes it: on, off, a number, a word
    low: int = 0  # a number's range
    high: int = 0
    choices: tuple[tuple[str, str], ...] = ()  # (value, as said) for a choice


def descriptions() -> dict[str, str]:
    return {
        "dealer_sits_out_from": _("The dealer sits the deal out from this many players seated"),
        "pool": _("Every seated player antes into the pot each deal"),
        "pool_ante": _("Chips each player antes, when every player antes"),
        "pool_fail_doubles": _("A failed pot bid pays the pot as much as it holds"),
        "dealer_ante": _("Chips the dealer puts into the pot each deal"),
        "peep_fee": _("Chips a player pays the pot to peep"),
        "purchase_fee": _("Chips each card bought costs, paid into the pot"),
        "dealer_peeps": _("The dealer and the floater"),
        "revoke_fine": _("Chips a revoker also pays into the pot"),
        "empty_pot_ante": _("Chips each player puts in when a deal starts with the pot empty"),
        "pass_doubles": _("The deal after a passed-out one pays its stakes twice"),
        "purchase_max_dealt": _("Cards are bought only with at most this many dealt in"),
    }


def players_or_off(low: int) -> tuple[tuple[str, str], ...]:
    return (("off", _("off")), *((str(n), str(n)) for n in range(low, MOST_SEATED + 1)))


def setting_fields(rules: Rules) -> tuple[SettingField, ...]:
    """The settings this game has (those it lacks are not offered), in their key's order."""
    values = rules_to_dict(rules)["settings"]
    toggled = {b.toggle: b for b in rules.bids if b.toggle}
    said = descriptions()
    fields = []
    for key, value in sorted(values.items()):
        if rules.why_absent(key) is not None:
            continue
        text = setting_text(value)
        if key in toggled:
            bid = bid_name(toggled[key].name)
            fields.append(
                SettingField(key, _("The bid {bid} may be made").format(bid=bid), "switch", text)
            )
        elif key in BOOL_SETTINGS:
            fields.append(SettingField(key, said[key], "switch", text))
        elif key in CHIP_SETTINGS:
            fields.append(SettingField(key, said[key], "number", text, 0, MAX_CHIPS))
        elif key == "dealer_peeps":
            words = {
                "free": _("looks at it free"),
                "pays": _("pays the peep fee to look"),
                "never": _("may not look"),
            }
            choices = tuple((w, words[w]) for w in DEALER_PEEPS)
            fields.append(SettingField(key, said[key], "choice", text, choices=choices))
        else:  # a count of players, or off
            low = FEWEST_TO_SIT_OUT if key == "dealer_sits_out_from" else 1
            choices = players_or_off(low)
            if text not in dict(choices):  # an older game's own value stays offered
                choices += ((text, text),)
            fields.append(SettingField(key, said[key], "choice", text, choices=choices))
    return tuple(fields)
