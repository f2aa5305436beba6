"""A session as a pure value, and each thing a person does to it.

`SessionState` is what the table stands at: its rules, who has sat and who sits, the
chips each account holds (the pot's included), whether it is closed, and where its deals
stand. Each action (`record`, `pass_out`, `amend`, `void`, `undo`, `join`, `leave`,
`close`, `reopen`, and `start` for a new session) is a function from a state and what
the person typed to a new state, the chips it moved (`changes`, per account, summing to
zero across the players and the pot) and whatever else the store must write. Every rule
and check of the table is here; the store (napledger/store/book.py) only loads a state,
calls one of these, and saves what comes back.

The rules they follow are written out in docs/rules.md ("Who deals", "The end of a
session: what is left in the pot", "Choices napledger made where the rules are silent").
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from types import MappingProxyType
from typing import NamedTuple

from napledger.core.errors import NapError
from napledger.core.ledger import POT, Payment, balances, changes_from
from napledger.core.money import chip_value as checked_chip_value
from napledger.core.money import currency_code, summed_money
from napledger.core.names import clean_player, clean_text, match_player
from napledger.core.options import DealOptions, make_deal
from napledger.core.rules import Deal, Rules, score_deal
from napledger.core.rules.model import fold
from napledger.core.rules.scoring import close_payments
from napledger.core.rules.texts import game_name, player_count
from napledger.core.seating import RosterChange, next_dealer
from napledger.core.words import N_, _

Chips = Mapping[str, int]  # an account's chips (or their change), the pot's included


@dataclass(frozen=True)
class LiveDeal:
    """One live deal as the store keeps it: its record, the pot it left, its changes."""

    id: int  # the store's id of this revision
    number: int
    revision: int
    deal: Deal
    pot_after: int
    changes: Chips = field(
        default_factory=dict
    )  # its changes as kept (where the store loaded them)


@dataclass(frozen=True)
class SessionState:
    """Where one session stands: all the actions need, none of its history but that.

    `rotation` is what the next dealer is found from: every roster change, or (where the
    last dealer, or with no deal yet the first dealer, still sits) the seating as it
    stands, which says the same (`rotation_needs_roster`); a one-deal command so saves
    reading the roster.
    """

    name: str
    rules: Rules
    everyone: tuple[str, ...]  # everyone who has sat, in the order they sat down
    seating: tuple[str, ...]  # who sits now, clockwise
    first_dealer: str
    opening_pot: int = 0  # chips carried in from another session's pot
    totals: Chips = field(
        default_factory=dict
    )  # each account's chips from its changes (the pot's without its opening)
    closed: bool = False
    number: int = 0  # the highest deal number given (voided ones too; 0: none yet)
    voided: int = 0  # how many deal numbers are voided (each number is live or voided)
    last_live: LiveDeal | None = None  # the last live deal (None: none)
    rotation: tuple[RosterChange, ...] = ()

    @property
    def pot(self) -> int:
        return self.opening_pot + self.totals.get(POT, 0)

    @property
    def chips(self) -> dict[str, int]:
        """Each player's chips (everyone who has sat; the pot left out)."""
        return {p: self.totals.get(p, 0) for p in self.everyone}

    @property
    def hands(self) -> int:
        """Live deals."""
        return self.number - self.voided

    @property
    def next_number(self) -> int:
        """The number the next deal gets: voided numbers are never given again."""
        return self.number + 1

    @property
    def dealer(self) -> str | None:
        """Who deals next (docs/rules.md, "Who deals"); None once closed."""
        if self.closed:
            return None
        last = self.last_live
        return next_dealer(self.rotation, last.deal.dealer if last else None, self.first_dealer)


def seating_rotation(seating: Sequence[str]) -> tuple[RosterChange, ...]:
    """The rotation the seating alone gives (see `SessionState.rotation`)."""
    return tuple(RosterChange(0, "seat", p, i) for i, p in enumerate(seating))


def rotation_needs_roster(
    seating: Sequence[str], last_dealer: str | None, first_dealer: str
) -> bool:
    """Whether the next dealer needs the history of who sat where: only when the dealer
    counted from (the last live deal's, else the first) has stood up."""
    return (last_dealer or first_dealer) not in seating


# --- what the actions give back ---------------------------------------------------
# Named tuples, not dataclasses: a frozen dataclass costs a millisecond to define, which
# every command starting pays for each (issue #23); these are only read and passed on.

NO_CHIPS: Chips = MappingProxyType({})


class Rescored(NamedTuple):
    """A live deal after an earlier one changed: what it pays now, and the pot it leaves."""

    id: int
    changes: Chips
    pot_after: int
    changes_differ: bool
    pot_changed: bool


class Recorded(NamedTuple):
    state: SessionState
    changes: Chips  # what the deal moved, the pot included
    number: int
    deal: Deal
    payments: tuple[Payment, ...]
    pot_after: int


class Amended(NamedTuple):
    state: SessionState
    changes: Chips  # what the session's accounts gained or lost by the correction
    number: int
    revision: int  # the new revision's
    deal: Deal
    new_changes: Chips  # the new revision's changes
    pot_after: int
    replaced: int  # the id of the revision it replaces
    rescored: tuple[Rescored, ...]  # the later deals whose changes or pot changed


class Voided(NamedTuple):
    state: SessionState
    changes: Chips
    number: int
    revision: int
    voided: int  # the id of the revision voided
    rescored: tuple[Rescored, ...]


class Seated(NamedTuple):
    """A join or a leave: the player as the session spells them, and the roster's change."""

    state: SessionState
    player: str
    change: RosterChange
    changes: Chips = NO_CHIPS  # a change of seats moves no chips


class ClosePlan(NamedTuple):
    """A close: the pot it finds, where it goes, and the shares paid out of it."""

    session: str
    pot: int
    pot_to: str  # split, carry or a player
    payments: tuple[Payment, ...]

    @property
    def digest(self) -> str:
        """The plan as a short mark, for a question asked on one page and answered on
        another: `close` with it goes ahead only if the plan still holds."""
        import hashlib

        return hashlib.sha256(repr(tuple(self)).encode()).hexdigest()[:20]


class Closed(NamedTuple):
    state: SessionState
    plan: ClosePlan
    changes: Chips  # the close's shares, the pot's included


class Reopened(NamedTuple):
    state: SessionState
    changes: Chips  # the close's shares taken back


class CarrySource(NamedTuple):
    """The session whose pot a new one carries on, as far as `start` needs it."""

    id: int
    name: str
    pot_to: str | None
    chip_value: Decimal
    currency: str
    pot: int
    carried_into: str | None  # the session its pot already went into, if any
    # An import: the carry as the ledger it comes from kept it, even where an older
    # napledger let the new session count its chips otherwise.
    as_kept: bool = False


class Opening(NamedTuple):
    """A new session, checked: what the store writes for it."""

    name: str
    seating: tuple[str, ...]
    first_dealer: str
    chip_value: Decimal
    currency: str
    opening_pot: int = 0
    carried_from: int | None = None
    changes: tuple[RosterChange, ...] = ()


# --- a new session --------------------------------------------------------------------


def session_terms(
    name: str, chip_value: Decimal | None, currency: str | None
) -> tuple[str, Decimal | None, str | None]:
    """A new session's name, chip value and currency as they are kept (None: not given).
    A name that could be taken for an id is refused."""
    name = clean_text(name, N_("session name"))
    chip_value = None if chip_value is None else checked_chip_value(chip_value)
    currency = None if currency is None else currency_code(currency)
    if name.isdigit():
        raise NapError(_("a session name cannot be only digits (numbers are session ids)"))
    return name, chip_value, currency


def name_taken(name: str) -> NapError:
    return NapError(_("there is already a session called '{name}'").format(name=name))


def seating_of(typed: Iterable[str]) -> list[str]:
    """The players as typed, cleaned; each person once."""
    seating: list[str] = []
    for raw in typed:
        name = clean_player(raw)
        if any(fold(name) == fold(s) for s in seating):
            raise NapError(_("{name} is named twice").format(name=name))
        seating.append(name)
    return seating


def start(
    name: str,
    rules: Rules,
    seating: Sequence[str],
    dealer: str | None,
    chip_value: Decimal | None,
    currency: str | None,
    carry: CarrySource | None = None,
) -> Opening:
    """A new session of `seating` (cleaned by `seating_of`, spelled as the players are
    known), its terms checked by `session_terms`. Without a chip value or currency it
    takes those of the session whose pot it carries on, else 1 and none."""
    if not rules.min_players <= len(seating) <= rules.max_players:
        raise NapError(player_count(rules, len(seating)))
    first = match_player(dealer, seating) if dealer else seating[0]
    opening, carried = 0, None
    if carry is not None:
        chip_value = carry.chip_value if chip_value is None else chip_value
        currency = carry.currency if currency is None else currency
        opening, carried = carried_pot(carry, chip_value, currency), carry.id
    return Opening(
        name=name,
        seating=tuple(seating),
        first_dealer=first,
        chip_value=Decimal(1) if chip_value is None else chip_value,
        currency="" if currency is None else currency,
        opening_pot=opening,
        carried_from=carried,
        changes=tuple(RosterChange(1, "seat", p, i) for i, p in enumerate(seating)),
    )


def carried_pot(source: CarrySource, chip_value: Decimal, currency: str) -> int:
    """The pot a new session takes on from `source` (docs/rules.md, "The end of a session")."""
    if source.pot_to != "carry":
        raise NapError(
            _("session '{name}' did not carry its pot: its close shared it out").format(
                name=source.name
            ),
            "carry",
        )
    if source.carried_into is not None:
        raise NapError(
            _("the pot of '{name}' was already carried into '{other}'").format(
                name=source.name, other=source.carried_into
            )
        )
    if not source.as_kept and (source.chip_value != chip_value or source.currency != currency):
        # The box holds money: counted in other chips it would grow or shrink on the way.
        raise NapError(
            _(
                "the pot of '{name}' is in chips of {chip}: "
                "start this session with that chip value and currency"
            ).format(name=source.name, chip=f"{source.chip_value} {source.currency}".strip()),
            "chip",
        )
    return source.pot


def opened(opening: Opening, rules: Rules) -> SessionState:
    """The state of a session just started."""
    return SessionState(
        name=opening.name,
        rules=rules,
        everyone=opening.seating,
        seating=opening.seating,
        first_dealer=opening.first_dealer,
        opening_pot=opening.opening_pot,
        rotation=opening.changes,
    )


# --- deals ---------------------------------------------------------------------------


def still_open(state: SessionState) -> SessionState:
    """The state, refused once closed: a closed session takes no deal or change of seats."""
    if state.closed:
        raise NapError(
            _(
                "session '{name}' is closed; `reopen` takes the close back "
                "(unless its pot was carried on), `new` starts another"
            ).format(name=state.name)
        )
    return state


def fresh_deal(state: SessionState) -> Deal:
    """The next deal as dealt by rotation, before anything is said about it."""
    dealer = state.dealer
    assert dealer is not None  # an open session always has a dealer
    return Deal(seated=state.seating, dealer=dealer, dealer_named=False)


def record(state: SessionState, options: DealOptions) -> Recorded:
    """A deal played (or passed out) at the end, on a fresh deal dealt by rotation."""
    still_open(state)
    deal = make_deal(options, state.rules, fresh_deal(state), state.everyone)
    return record_deal(state, deal)


def pass_out(state: SessionState, options: DealOptions | None = None) -> Recorded:
    """A passed-out deal: only antes and fees (`pass_options`)."""
    return record(state, pass_options(options))


def pass_options(options: DealOptions | None = None) -> DealOptions:
    """What a pass keeps of the options: the bid and result options are ignored."""
    options = options or DealOptions()
    return DealOptions(
        dealer=options.dealer, peeps=options.peeps, buys=options.buys, note=options.note
    )


def record_deal(state: SessionState, deal: Deal) -> Recorded:
    """`deal` scored on the pot as it stands and added as the next number."""
    still_open(state)
    last = state.last_live
    payments = tuple(score_deal(state.rules, deal, state.pot, passed_out(last)))
    changes = changes_from(payments)
    number = state.next_number
    pot_after = state.pot + changes.get(POT, 0)
    live = LiveDeal(0, number, 1, deal, pot_after, nonzero(changes))
    new = replace(
        state,
        totals=balances_after(state.totals, changes),
        number=number,
        last_live=live,
    )
    return Recorded(new, changes, number, deal, payments, pot_after)


def passed_out(deal: LiveDeal | None) -> bool:
    """Whether the deal before the next one was passed out (what `pass_doubles` reads)."""
    return deal is not None and deal.deal.bid is None


def target(state: SessionState, number: int, later: Sequence[LiveDeal]) -> LiveDeal:
    """Deal `number` to amend or void: the first of `later` (the live deals from
    `number` on), refused in the words the person needs when it is not live."""
    if later and later[0].number == number:
        return later[0]
    if 0 < number <= state.number:
        # Every version of it is voided: it is there in `hands`, and it stays voided.
        raise NapError(
            _(
                "deal {n} of '{name}' is voided and stays so (`hands` shows it); "
                "to count it after all, record it again as a new deal"
            ).format(n=number, name=state.name)
        )
    raise NapError(
        _("no deal {n} to change in '{name}' (`napledger hands` lists them)").format(
            n=number, name=state.name
        )
    )


def amend(
    state: SessionState,
    number: int,
    options: DealOptions,
    before: LiveDeal | None,
    later: Sequence[LiveDeal],
) -> Amended:
    """Deal `number` corrected: what `options` give replaces what was recorded (the old
    version stays, replaced), and the deals after it are scored again (docs/rules.md,
    "Choices napledger made where the rules are silent").

    `before` is the last live deal before `number` (None: none), `later` the live deals
    from `number` on, in order, with their changes: all a correction can change.
    """
    still_open(state)
    old = target(state, number, later)
    deal = make_deal(options, state.rules, old.deal, state.everyone, amending=True)
    if deal == old.deal:
        raise NapError(_("that is what deal {n} already says").format(n=number))
    new = LiveDeal(0, number, old.revision + 1, deal, old.pot_after)
    deals = [new, *later[1:]]
    scored = rescore(state, before, deals)
    changed = sum_changes(later, scored)
    return Amended(
        state=after_rescoring(state, changed, deals, scored, None),
        changes=changed,
        number=number,
        revision=new.revision,
        deal=deal,
        new_changes=scored[0].changes,
        pot_after=scored[0].pot_after,
        replaced=old.id,
        rescored=tuple(r for r in scored[1:] if r.changes_differ or r.pot_changed),
    )


def void(
    state: SessionState, number: int, before: LiveDeal | None, later: Sequence[LiveDeal]
) -> Voided:
    """Deal `number` voided: it pays nothing, and the deals after it are scored again
    from the pot the deals before it left (`before` and `later` as for `amend`)."""
    still_open(state)
    gone = target(state, number, later)
    rest = later[1:]
    scored = rescore(state, before, rest)
    changed = sum_changes(later, scored)
    new = after_rescoring(state, changed, rest, scored, before)
    return Voided(
        state=replace(new, voided=state.voided + 1),
        changes=changed,
        number=number,
        revision=gone.revision,
        voided=gone.id,
        rescored=tuple(r for r in scored if r.changes_differ or r.pot_changed),
    )


def undo(state: SessionState, before: LiveDeal | None, later: Sequence[LiveDeal]) -> Voided:
    """The last live deal voided; `before` is the live deal before it, `later` the last
    live deal itself with its changes (as for `void`)."""
    still_open(state)
    if state.last_live is None:
        raise NapError(_("nothing to undo in '{name}'").format(name=state.name))
    return void(state, state.last_live.number, before, later)


def rescore(
    state: SessionState, before: LiveDeal | None, deals: Sequence[LiveDeal]
) -> list[Rescored]:
    """`deals` (live, in order) scored again, the first on the pot `before` left."""
    pot = state.opening_pot if before is None else before.pot_after
    previous = before
    out = []
    for live in deals:
        changes = nonzero(
            changes_from(score_deal(state.rules, live.deal, pot, passed_out(previous)))
        )
        pot += changes.get(POT, 0)
        out.append(
            Rescored(live.id, changes, pot, dict(live.changes) != changes, live.pot_after != pot)
        )
        previous = live
    return out


def sum_changes(old: Iterable[LiveDeal], new: Iterable[Rescored]) -> dict[str, int]:
    """What each account gains when `old` deals' changes give way to `new` ones."""
    out = balances([r.changes for r in new])
    for live in old:
        for account, chips in live.changes.items():
            out[account] = out.get(account, 0) - chips
    return nonzero(out)


def after_rescoring(
    state: SessionState,
    changed: Chips,
    deals: Sequence[LiveDeal],
    scored: Sequence[Rescored],
    none_after: LiveDeal | None,
) -> SessionState:
    """The state once a correction is saved: the totals moved, and the last live deal
    the last of `deals` (every live deal from the changed one on, as they now stand) as
    it was scored again, else `none_after` (the live deal before a voided last one)."""
    last = none_after
    if deals:
        last = replace(deals[-1], pot_after=scored[-1].pot_after, changes=scored[-1].changes)
    return replace(state, totals=balances_after(state.totals, changed), last_live=last)


def identified(state: SessionState, number: int, deal_id: int) -> SessionState:
    """The state with the id the store gave the new revision of deal `number`."""
    last = state.last_live
    if last is None or last.number != number:
        return state
    return replace(state, last_live=replace(last, id=deal_id))


# --- the table changes ---------------------------------------------------------------


def join(state: SessionState, player: str, after: str | None = None) -> Seated:
    """`player` (as every session spells them) sits down in a new chair after `after`,
    or at the end, from the next deal on (docs/rules.md, "Who deals")."""
    still_open(state)
    seating = list(state.seating)
    rules = state.rules
    if any(fold(player) == fold(p) for p in seating):
        raise NapError(_("{player} is already seated").format(player=player))
    if len(seating) >= rules.max_players:
        raise NapError(
            _("{game} is for at most {most} players").format(
                game=game_name(rules), most=rules.max_players
            )
        )
    seat = seating.index(match_player(after, seating)) + 1 if after else len(seating)
    seating.insert(seat, player)
    change = RosterChange(state.next_number, "join", player, seat)
    everyone = state.everyone if player in state.everyone else (*state.everyone, player)
    new = replace(
        state,
        seating=tuple(seating),
        everyone=everyone,
        rotation=(*state.rotation, change),
    )
    return Seated(new, player, change)


def leave(state: SessionState, name: str) -> Seated:
    """A seated player stands up, from the next deal on."""
    still_open(state)
    seating = list(state.seating)
    try:
        player = match_player(name, seating, N_("at the table"))
    except NapError as unknown:
        gone = [p for p in state.everyone if p not in seating]
        try:
            player = match_player(name, gone)
        except NapError:
            raise unknown from None
        raise NapError(_("{player} has already left the table").format(player=player)) from None
    if len(seating) <= state.rules.min_players:
        raise NapError(
            _("{game} needs at least {least} players").format(
                game=game_name(state.rules), least=state.rules.min_players
            )
        )
    change = RosterChange(state.next_number, "leave", player, seating.index(player))
    seating.remove(player)
    new = replace(state, seating=tuple(seating), rotation=(*state.rotation, change))
    return Seated(new, player, change)


# --- closing --------------------------------------------------------------------------


def close_plan(state: SessionState, pot_to: str) -> ClosePlan:
    """What closing would do, without doing it: shown before a close is confirmed."""
    seating = still_open(state).seating
    choice = pot_to.strip().casefold()
    if choice in ("split", "carry"):
        target = choice
    else:
        try:
            target = match_player(pot_to, seating)
        except NapError:
            raise NapError(pot_choice_error(pot_to, seating), "pot") from None
    pot = state.pot
    return ClosePlan(state.name, pot, target, tuple(close_payments(pot, seating, target)))


def close(state: SessionState, pot_to: str, agreed: str | None = None) -> Closed:
    """The session closed, the pot split, carried or given to one player; with `agreed`
    (the digest of the plan a person agreed to), only if it still holds."""
    plan = close_plan(state, pot_to)
    if agreed is not None and plan.digest != agreed:
        # Another table wrote while the question was asked: what was agreed no longer holds.
        raise NapError(
            _("'{name}' changed while you were asked; nothing was closed").format(name=state.name)
        )
    shares = changes_from(plan.payments)
    new = replace(state, closed=True, totals=balances_after(state.totals, shares))
    return Closed(new, plan, shares)


def reopen(state: SessionState, shares: Chips, carried_into: str | None) -> Reopened:
    """The close taken back: its `shares` of the pot are undone (the store keeps the
    close, voided). Refused once the pot went on into session `carried_into`."""
    if not state.closed:
        raise NapError(_("session '{name}' is not closed").format(name=state.name))
    if carried_into is not None:
        raise NapError(
            _("the pot of '{name}' was carried into '{other}', so it cannot be reopened").format(
                name=state.name, other=carried_into
            )
        )
    back = {account: -chips for account, chips in shares.items() if chips}
    new = replace(state, closed=False, totals=balances_after(state.totals, back))
    return Reopened(new, back)


def as_if_closed(
    totals: Chips, opening_pot: int, seating: Sequence[str], closed: bool
) -> dict[str, int]:
    """Each party's chips from a session's `totals` (the pot's, without its opening,
    included), an open session counted as if it closed now with the pot split (the
    default close): what a settlement counts."""
    chips = {**totals, POT: totals.get(POT, 0)}
    if not closed:
        split = close_payments(opening_pot + chips[POT], tuple(seating), "split")
        chips = balances([changes_from(split)], start=chips)
    return chips


def net_money(
    sessions: Sequence[tuple[Chips, Decimal, str]],
) -> tuple[dict[str, Decimal], str, Decimal | None]:
    """Each party's net money over sessions given as (chips from `as_if_closed`, chip
    value, currency), their one currency, and their one chip value (None: several).

    The pot is a party only where money really sits in it (a carried box)."""
    currencies = {currency for _chips, _value, currency in sessions}
    if len(currencies) > 1:
        raise NapError(
            _(
                "these sessions are in different currencies ({currencies}); settle them apart"
            ).format(currencies=", ".join(sorted(currencies)))
        )
    net = summed_money(
        {party: count * value for party, count in chips.items()}
        for chips, value, _currency in sessions
    )
    values = {value for _chips, value, _currency in sessions}
    return net, currencies.pop(), values.pop() if len(values) == 1 else None


def pot_choice_error(typed: str, seating: Sequence[str]) -> str:
    choices = {fold(c): c for c in ("split", "carry", *seating)}
    near = difflib.get_close_matches(fold(typed), list(choices), n=1, cutoff=0.75)
    hint = _("; did you mean {player}?").format(player=choices[near[0]]) if near else ""
    return _(
        "the pot is split, carried or given to a player at the table ({players}), "
        "not '{typed}'{hint}"
    ).format(players=", ".join(seating), typed=typed, hint=hint)


# --- chips ----------------------------------------------------------------------------


def nonzero(changes: Chips) -> dict[str, int]:
    return {account: chips for account, chips in changes.items() if chips}


def balances_after(totals: Chips, changes: Chips) -> dict[str, int]:
    """Each account's chips once `changes` are posted (an account at nought keeps its row,
    as the database's balances do while it has entries)."""
    after = dict(totals)
    for account, chips in changes.items():
        if chips:
            after[account] = after.get(account, 0) + chips
    return after
