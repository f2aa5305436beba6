"""Exactly once: a write that names the state it was made against (docs/rules.md,
"Choices napledger made where the rules are silent": Exactly once).

A page or a phone that retries after a lost answer, or a keeper who saw an older board,
sends what it expects: a new deal the number it will take, an amend or void the deal and
version seen, undo the deal it names. A repeat of a write already done is answered with
what it did (these return what it did, and the caller writes nothing); against a newer
state the write is refused, saying what changed. Pure: the store gives the versions of
the deal concerned (`Revision`s, first first).
"""

from __future__ import annotations

from collections.abc import Sequence

from napledger.core.errors import NapError
from napledger.core.options import DealOptions, make_deal
from napledger.core.read.history import Revision, deal_label
from napledger.core.rules import Deal
from napledger.core.rules.scoring import describe as describe_deal
from napledger.core.seating import RosterChange
from napledger.core.session import SessionState
from napledger.core.words import _


def recorded_already(
    state: SessionState, options: DealOptions, number: int, first: Revision | None
) -> Revision | None:
    """None when deal `number` is the next to record; its first version (`first`, None:
    no such deal) when that already records what `options` ask; else a refusal saying
    what deal `number` is."""
    upcoming = state.next_number
    if number == upcoming:
        return None
    old = first.deal if first is not None and 0 < number < upcoming else None
    if first is None or old is None:
        raise NapError(
            _("the next deal is {next}, not {n}; nothing changed").format(next=upcoming, n=number)
        )
    base = Deal(seated=old.seated, dealer=old.dealer, dealer_named=old.dealer_named)
    try:
        asked: Deal | None = make_deal(options, state.rules, base, state.everyone)
    except NapError:  # it could not even be dealt that way: not the same deal
        asked = None
    if asked == old:
        return first
    raise NapError(
        _(
            "deal {n} was recorded meanwhile ({deal}); nothing changed (the next deal is {next})"
        ).format(n=number, deal=describe_deal(state.rules, old), next=upcoming)
    )


def amended_already(
    state: SessionState,
    number: int,
    options: DealOptions,
    seen: int,
    versions: Sequence[Revision],
) -> Revision | None:
    """None when version `seen` of deal `number` is still the live one (or there is no
    such deal: amend says so); the live version when it already is the correction asked;
    else a refusal saying what changed."""
    live = next((v for v in versions if v.live), None)
    if not versions or (live is not None and live.revision == seen):
        return None
    shown = next((v for v in versions if v.revision == seen), None)
    if shown is None:
        raise NapError(
            _("deal {n} has no version {label}; nothing changed").format(
                n=number, label=deal_label(number, seen)
            )
        )
    if live is None:
        raise NapError(_("deal {n} was voided meanwhile; nothing changed").format(n=number))
    asked: Deal | None = None
    if shown.deal is not None:
        try:
            asked = make_deal(options, state.rules, shown.deal, state.everyone, True)
        except NapError:
            asked = None
    if asked is not None and live.revision > seen and asked == live.deal:
        return live
    raise NapError(
        _("deal {n} was amended to {label} meanwhile; nothing changed").format(
            n=number, label=deal_label(number, live.revision)
        )
    )


def nothing_recorded_since(state: SessionState, expect_next: int) -> None:
    """Refused unless the next deal is still `expect_next` (a keeper amending "the last
    deal" meant the newest)."""
    upcoming = state.next_number
    if upcoming == expect_next:
        return
    if expect_next < upcoming:
        if upcoming - expect_next == 1:
            since = _("deal {n} was recorded meanwhile; nothing changed")
        else:
            since = _("deals {n} to {last} were recorded meanwhile; nothing changed")
        raise NapError(since.format(n=expect_next, last=upcoming - 1))
    raise NapError(
        _("the next deal is {next}, not {n}; nothing changed").format(next=upcoming, n=expect_next)
    )


def voided_already(versions: Sequence[Revision]) -> bool:
    """Whether the deal of these versions is there and voided (a repeated void)."""
    return bool(versions) and not any(v.live for v in versions)


def undo_expected(
    state: SessionState, expected: int, expect_revision: int | None, versions: Sequence[Revision]
) -> bool:
    """Whether an undo of deal `expected` (the versions of it given) was done already;
    refused unless it is still the last live deal, at version `expect_revision` if given."""
    if voided_already(versions):
        return True
    last = state.last_live
    if last is not None and last.number != expected:
        raise NapError(
            _("deal {n} is not the last deal (deal {last} is); nothing was voided").format(
                n=expected, last=last.number
            )
        )
    if last is not None and expect_revision not in (None, last.revision):
        raise NapError(
            _("deal {n} was amended to {label} meanwhile; nothing was voided").format(
                n=expected, label=deal_label(expected, last.revision)
            )
        )
    return False


def void_expected(number: int, expect_revision: int, versions: Sequence[Revision]) -> bool:
    """Whether a void of deal `number` was done already; refused if its live version is
    no longer `expect_revision`."""
    if voided_already(versions):
        return True
    live = next((v for v in versions if v.live), None)
    if live is not None and live.revision != expect_revision:
        raise NapError(
            _("deal {n} was amended to {label} meanwhile; nothing was voided").format(
                n=number, label=deal_label(number, live.revision)
            )
        )
    return False


def seating_expected(
    changes: Sequence[RosterChange], seen: int, kind: str, player: str, seated: Sequence[str]
) -> bool:
    """Whether a join or leave of `player` drawn against `seen` changes to the seating
    (the roster's version) was done already; refused if the seating changed otherwise."""
    if len(changes) == seen:
        return False
    if len(changes) == seen + 1:
        done = changes[seen]
        if done.kind == kind and done.player.casefold() == player.strip().casefold():
            return True
    raise NapError(
        _("the seating changed meanwhile; nothing changed (seated now: {players})").format(
            players=", ".join(seated)
        )
    )


def close_expected(closed: bool, closes: Sequence[bool], seen: int) -> bool:
    """Whether a close drawn when the session had `seen` closes (`closes`: whether each
    is live, oldest first) was made already (the one close since is it);
    refused if the session was closed or reopened otherwise meanwhile."""
    if not closed and len(closes) == seen:
        return False
    if closed and len(closes) == seen + 1:
        return True
    raise NapError(_("the session was closed or reopened meanwhile; nothing changed"))


def reopen_expected(closed: bool, closes: Sequence[bool], close: int) -> bool:
    """Whether taking back close number `close` (counted from 1) was done already;
    refused if the session was reopened and closed again, or the close is another."""
    if closed and len(closes) == close:
        return False
    if not closed and len(closes) == close and close > 0 and not closes[-1]:
        return True
    raise NapError(_("the session was closed or reopened meanwhile; nothing changed"))


def still_as_recorded(number: int, versions: Sequence[Revision]) -> None:
    """A repeated new deal is answered with what it recorded only while that is still so:
    never "Deal 2 recorded." about a deal voided or amended since."""
    live = next((v for v in versions if v.live), None)
    if live is None:
        raise NapError(_("deal {n} was voided meanwhile; nothing changed").format(n=number))
    if live.revision != 1:
        raise NapError(
            _("deal {n} was amended to {label} meanwhile; nothing changed").format(
                n=number, label=deal_label(number, live.revision)
            )
        )
