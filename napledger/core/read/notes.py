"""The rules in words: what each bid and each setting does to the money, said once.

The terminal's `variants`, the workbook's Rules sheet and the page's settings read their
notes here, from the session's rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from napledger.core.rules import Rules
from napledger.core.rules.load import rules_to_dict, setting_said
from napledger.core.rules.texts import rule_text
from napledger.core.words import N_, _, ngettext


class Stake(NamedTuple):
    """One bid of a session's stake table; ``tricks`` is 0 for misère."""

    bid: str
    tricks: int
    win: int  # chips from each opponent when made
    lose: int  # chips to each opponent when failed
    misere: bool = False  # made by taking no tricks at all
    enabled: bool = True  # False: switched off in this session, cannot be bid
    pot_bid: bool = False  # made: takes the pot; failed (pool_fail_doubles): pays it its amount
    fail_pot: int = 0  # chips a failed bidder also pays into the pot


def stakes(rules: Rules) -> tuple[Stake, ...]:
    return tuple(
        Stake(b.name, b.tricks, b.win, b.lose, b.misere, rules.enabled(b), b.pot_bid, b.fail_pot)
        for b in rules.bids
    )


class Setting(NamedTuple):
    """One rule setting as a table of the rules lists it."""

    key: str
    value: Any  # what the game does: a number, on/off, a word
    note: str  # what it does to the money, or why the game does not have it
    absent: bool = False  # the game does not have it (shown as a dash)


def settings(rules: Rules) -> list[Setting]:
    """Each setting with what it does, in the order the rules keep them."""
    data = rules_to_dict(rules)
    values = {k: "off" if v is None else v for k, v in data["settings"].items()}
    out = []
    for key, value in values.items():
        why = rules.why_absent(key)
        if why:
            out.append(Setting(key, value, rule_text(why), absent=True))
        else:
            out.append(Setting(key, value, setting_note(key, value, values)))
    return out


def pot_at_close_rule() -> str:
    """What the rules say of the pot at a close."""
    return _(
        "At the close of a session the pot is split among those seated, "
        "given to one player, or carried to the next session, as chosen with close."
    )


def stake_note(stake: Stake, pot_fail_doubles: bool) -> str:
    """What a bid does to the pot, in a few words."""
    if not stake.enabled:
        return _("off in this session: it cannot be bid")
    parts = []
    if stake.pot_bid:
        parts.append(_("made: takes the whole pot"))
        if pot_fail_doubles:
            parts.append(_("failed: pays the pot as much as it holds (doubles it)"))
    if stake.fail_pot:
        parts.append(
            ngettext(
                "failed: also pays {n} chip into the pot",
                "failed: also pays {n} chips into the pot",
                stake.fail_pot,
            ).format(n=stake.fail_pot)
        )
    return "; ".join(parts) or _("none: paid between the players only")


def setting_shown(value: object) -> object:
    """On or off for a switch; a number stays a number, to compute with."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return setting_said(value)


# What each setting does, switched on and off: {value} is the setting's, {ante} the pool's ante.
SETTING_NOTES: dict[str, tuple[str, str]] = {
    "dealer_sits_out_from": (
        N_("with {value} or more seated, the dealer sits the deal out"),
        N_("the dealer always plays"),
    ),
    "pool": (
        N_("every seated player antes {ante} into the pot each deal, passed-out ones too"),
        N_("no ante from every player"),
    ),
    "pool_ante": (
        N_("chips each player antes when pool is on"),
        N_("chips each player antes when pool is on"),
    ),
    "pool_fail_doubles": (
        N_("a failed pot bid pays the pot as much as it holds"),
        N_("a failed pot bid pays the pot nothing"),
    ),
    "dealer_ante": (
        N_("the dealer puts {value} into the pot each deal"),
        N_("the dealer antes nothing"),
    ),
    "peep_fee": (
        N_("each player who peeps pays {value} into the pot"),
        N_("peeping is free"),
    ),
    "purchase_fee": (
        N_("each card bought costs {value}, paid into the pot"),
        N_("buying cards is free"),
    ),
    "revoke_fine": (
        N_("a revoker also pays {value} into the pot"),
        N_("a revoke pays no fine"),
    ),
    "empty_pot_ante": (
        N_("a deal that starts with the pot empty: every seated player first puts in {value}"),
        N_("an empty pot is not refilled"),
    ),
    "pass_doubles": (
        N_("the deal after a passed-out one pays its stakes twice (never antes, fees or the pot)"),
        N_("stakes stay the same after a pass"),
    ),
    "purchase_max_dealt": (
        N_("cards are bought only with at most {value} dealt in"),
        N_("cards may be bought at any table"),
    ),
}


def setting_note(key: str, value: object, settings: Mapping[str, object]) -> str:
    """What a setting does to the money, in a few words."""
    if key == "dealer_peeps":
        return {
            "free": _("the dealer looks at the floater free"),
            "pays": _("the dealer pays the peep fee to look, like anyone"),
            "never": _("the dealer may not look at the floater"),
        }.get(str(value), "")
    if key in SETTING_NOTES:
        on = value not in (False, "off", 0, None)
        note = SETTING_NOTES[key][0 if on else 1]
        return _(note).format(value=value, ante=settings.get("pool_ante", 1))
    if isinstance(value, bool):
        if value:
            return _("the bid {key} is on").format(key=key)
        return _("the bid {key} is off").format(key=key)
    return ""


def buying_note(rules: Rules) -> str | None:
    """Who may buy cards before the bid, where not everyone may."""
    if rules.buying == "anyone":
        return None
    if rules.buying == "nobody":
        return _("Buying cards before the bid: nobody.")
    return ngettext(
        "Buying cards before the bid: only the bidder, at most {n} card.",
        "Buying cards before the bid: only the bidder, at most {n} cards.",
        rules.most_bought,
    ).format(n=rules.most_bought)
