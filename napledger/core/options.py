"""What a person types to record or correct a deal, and the deal it makes: pure code.

`hand`, `pass` and `amend` (and any other front end) fill one `DealOptions`; `make_deal`
turns it into a `Deal` record on top of the deal it changes (a fresh one when recording).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from napledger.core.errors import DealError, NapError
from napledger.core.names import clean_note, match_player
from napledger.core.rules import Deal, Rules
from napledger.core.vocabulary import PASS, SAID, meaning
from napledger.core.words import N_, _, ngettext


@dataclass(frozen=True)
class DealOptions:
    """Each field left as None (or False) keeps what the deal already says."""

    bid: str | None = None  # a bid as typed, or `pass` (`пас`, `pas`: napledger/core/vocabulary.py)
    by: str | None = None
    tricks: int | None = None
    made: bool = False
    failed: bool = False
    short: int | None = None  # failed by this many tricks (`без двух`): tricks = target - short
    revoke: str | None = None
    dealer: str | None = None
    peeps: tuple[str, ...] | None = None
    buys: tuple[tuple[str, int], ...] | None = None  # (player as typed, cards bought)
    note: str | None = None  # "" clears
    no_peeps: bool = False  # amend: nobody peeped after all
    no_buys: bool = False


def make_deal(
    options: DealOptions,
    rules: Rules,
    base: Deal,
    everyone: tuple[str, ...],
    amending: bool = False,
) -> Deal:
    """The deal `options` make of `base`: a fresh deal when recording, the old one when amending.

    `everyone` is whoever has sat this session, so that naming someone who left gets a
    better answer than "no such player".
    """
    o = options
    # Each refusal names the part of the deal it is about (`DealError.field`), never how a
    # front end spells it: the terminal says --made, the page its Result buttons.
    if o.made and (o.failed or o.short is not None):  # short: it failed by so many tricks
        raise DealError(_("a deal is made or failed, not both"), "result")
    if o.tricks is not None and (o.made or o.failed):
        raise DealError(_("give the tricks taken or made/failed, not both"), "result")
    if o.short is not None and o.tricks is not None:
        raise DealError(_("give the tricks taken or how many short, not both"), "result")
    if o.no_peeps and o.peeps:
        raise DealError(_("say who peeped or that nobody did, not both"), "peep")
    if o.no_buys and o.buys:
        raise DealError(_("say who bought cards or that nobody did, not both"), "buy")
    peeps = () if o.no_peeps else o.peeps
    buys = () if o.no_buys else o.buys
    seated = base.seated

    def who(typed: str, field: str) -> str:
        try:
            return match_player(typed, seated, N_("at the table"))
        except NapError as unknown:
            gone = [p for p in everyone if p not in seated]
            try:
                player = match_player(typed, gone)
            except NapError:
                raise DealError(str(unknown), field) from None
            if amending:
                raise DealError(
                    _("{player} is not at the table in that deal").format(player=player), field
                ) from None
            raise DealError(
                _("{player} is not at the table (`join {player}` seats them again)").format(
                    player=player
                ),
                field,
            ) from None

    changes: dict[str, Any] = {}
    if o.bid is not None:
        said = meaning(o.bid)
        if said == PASS:
            changes |= {"bid": None, "bidder": None, "tricks": None, "made": None, "revoker": None}
        elif said is not None and rules.find(o.bid) is None:  # `amend 3 без`: how it went
            message = _("'{word}' says how the deal went ({said}), not what was bid")
            raise DealError(message.format(word=o.bid, said=_(SAID[said])), "bid")
        else:
            changes["bid"] = rules.bid(o.bid).name
    if o.by is not None:
        changes["bidder"] = who(o.by, "by")
    tricks = o.tricks if o.short is None else taken_when_short(o.short, rules, base, changes)
    if tricks is not None or o.made or o.failed or o.revoke is not None:
        changes |= {
            "tricks": tricks,
            "made": True if o.made else False if o.failed and tricks is None else None,
            "revoker": who(o.revoke, "revoke") if o.revoke is not None else None,
        }
    if o.dealer is not None and who(o.dealer, "dealer") != base.dealer:
        changes |= {"dealer": who(o.dealer, "dealer"), "dealer_named": True}
    if peeps is not None:
        changes["peeps"] = tuple(who(p, "peep") for p in peeps)
    if buys is not None:
        changes["buys"] = tuple((who(p, "buy"), cards) for p, cards in buys)
    if o.note is not None:
        changes["note"] = clean_note(o.note)
    return replace(base, **changes)


def taken_when_short(short: int, rules: Rules, base: Deal, changes: dict[str, Any]) -> int:
    """The tricks a bid `short` tricks short took (`без двух` on three: one): the table
    says how many short, the record keeps the tricks taken, as `--tricks` does."""
    name = changes.get("bid", base.bid)
    bid = rules.find(name) if name else None
    if bid is None or bid.misere or not 0 < short <= bid.tricks:
        limit = bid.tricks if bid is not None and not bid.misere else 0
        raise DealError(
            ngettext(
                "a bid of {tricks} trick can be 1 to {tricks} short, not {short}",
                "a bid of {tricks} tricks can be 1 to {tricks} short, not {short}",
                limit,
            ).format(tricks=limit, short=short)
            if limit
            else _("only a bid of tricks can be short: say the tricks taken"),
            "result",
        )
    return bid.tricks - short
