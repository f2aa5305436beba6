"""Scoring one deal: a pure function from the deal's record to payments between accounts."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from napledger.core.errors import DealError
from napledger.core.ledger import POT, Payment, changes_from
from napledger.core.numbers import grouped
from napledger.core.rules.choices import choices
from napledger.core.rules.model import Bid, Rules
from napledger.core.rules.texts import bid_name, game_name, player_count, rule_text
from napledger.core.words import N_, _, language, ngettext

MAX_POT = 10**12


@dataclass(frozen=True)
class Deal:
    """What happened at the table in one deal, exactly as recorded.

    `bid is None` means the deal was passed out. An outcome is `tricks` (what the
    bidder took) or `made`; a revoke decides the deal whatever else was recorded.
    """

    seated: tuple[str, ...]  # clockwise, dealer included
    dealer: str
    bid: str | None = None
    bidder: str | None = None
    tricks: int | None = None
    made: bool | None = None
    revoker: str | None = None
    peeps: tuple[str, ...] = ()
    buys: tuple[tuple[str, int], ...] = ()
    note: str | None = None  # a few words the table wants remembered; never scored
    # The dealer was named with --dealer rather than taken from the rotation (which it
    # then moves); None in records from before napledger kept this.
    dealer_named: bool | None = None


def check_deal(rules: Rules, deal: Deal) -> None:
    """Raise DealError for a record that cannot have happened under these rules."""
    seated = deal.seated
    if len(set(seated)) != len(seated):
        raise DealError(_("a player cannot sit twice at one table"))
    if not rules.min_players <= len(seated) <= rules.max_players:
        raise DealError(player_count(rules, len(seated)))
    if deal.dealer not in seated:
        raise DealError(_("the dealer {player} is not seated").format(player=deal.dealer), "dealer")
    allowed = choices(rules, seated, deal.dealer)  # what the page offers and play completes
    dealt_in = allowed.dealt_in

    def must_be_dealt_in(player: str, role: str, field: str) -> None:
        if player not in dealt_in:
            if player == deal.dealer:
                why = _("{player} sits out this deal as dealer, so cannot be the {role}")
            else:
                why = _("{player} is not seated, so cannot be the {role}")
            raise DealError(why.format(player=player, role=_(role)), field)

    if deal.bid is not None and deal.bidder is None:
        # Before the peeps and buys, whose checks would name the missing bidder's role.
        raise DealError(_("say who bid"), "by")
    no_peeping = rules.why_absent("peep_fee")
    if deal.peeps and no_peeping:
        raise DealError(
            _("nobody peeps in {game}: {why}").format(
                game=game_name(rules), why=rule_text(no_peeping)
            ),
            "peep",
        )
    for player in deal.peeps:
        must_be_dealt_in(player, N_("one who peeps"), "peep")
    if deal.dealer in deal.peeps and deal.dealer not in allowed.peepers:
        raise DealError(
            _(
                "the dealer {player} may not look at the floater (rule dealer_peeps is never)"
            ).format(player=deal.dealer),
            "peep",
        )
    if len(set(deal.peeps)) != len(deal.peeps):
        raise DealError(_("each player can peep once a deal"), "peep")
    if deal.buys and not rules.can_buy:
        why = rules.why_absent("purchase_fee")
        if why:
            raise DealError(
                _("nobody buys cards in {game}: {why}").format(
                    game=game_name(rules), why=rule_text(why)
                ),
                "buy",
            )
        raise DealError(_("nobody buys cards in {game}").format(game=game_name(rules)), "buy")
    for player, cards in deal.buys:
        must_be_dealt_in(player, N_("one who buys cards"), "buy")
        if rules.buying == "bidder" and player != deal.bidder:  # said before the table size
            raise DealError(
                _("only the bidder buys cards in {game}, not {player}").format(
                    game=game_name(rules), player=player
                ),
                "buy",
            )
        if not 1 <= cards <= allowed.most_bought:
            most = allowed.most_bought
            if most == 1:
                raise DealError(
                    _("{player} can buy one card, not {cards}").format(player=player, cards=cards),
                    "buy",
                )
            raise DealError(
                _("{player} can buy 1 to {most} cards, not {cards}").format(
                    player=player, most=most, cards=cards
                ),
                "buy",
            )
    if len({p for p, _ in deal.buys}) != len(deal.buys):
        raise DealError(_("give each player's purchase once"), "buy")
    most_dealt = rules.settings.purchase_max_dealt
    if deal.buys and not (allowed.buyers or allowed.bidder_buys):  # a table too big to buy at
        raise DealError(
            _(
                "cards are bought only with at most {most} dealt in, not {count} "
                "(rule purchase_max_dealt; set it off to buy at any table)"
            ).format(most=most_dealt, count=len(dealt_in)),
            "buy",
        )
    bought = sum(cards for _, cards in deal.buys)
    left = rules.pack - rules.hand_size * len(dealt_in) - (1 if deal.peeps else 0)
    if bought > left:
        raise DealError(
            ngettext(
                "the pack has {left} card left after the deal, not {bought} to buy",
                "the pack has {left} cards left after the deal, not {bought} to buy",
                max(left, 0),
            ).format(left=max(left, 0), bought=bought),
            "buy",
        )
    if deal.bid is None:
        if deal.bidder or deal.revoker or deal.tricks is not None or deal.made is not None:
            raise DealError(_("a passed-out deal has no bidder, outcome or revoke"), "bid")
        return
    rules.bid(deal.bid)
    assert deal.bidder is not None  # refused above, before the peeps and buys
    must_be_dealt_in(deal.bidder, N_("bidder"), "by")
    if deal.revoker is not None:
        must_be_dealt_in(deal.revoker, N_("revoker"), "revoke")
    if deal.tricks is not None:
        if deal.made is not None:
            raise DealError(_("give the tricks taken or made/failed, not both"), "result")
        if deal.tricks not in allowed.tricks:
            raise DealError(
                _("tricks must be from 0 to {most}, not {tricks}").format(
                    most=rules.hand_size, tricks=deal.tricks
                ),
                "result",
            )
    elif deal.made is None and deal.revoker is None:
        raise DealError(
            _("say how the deal went: the tricks taken, made or failed, or who revoked"), "result"
        )


def score_deal(
    rules: Rules, deal: Deal, pot_before: int, after_pass: bool = False
) -> list[Payment]:
    """Every payment of one deal, in the order they happen at the table.

    The order matters only for the pot: antes and fees go in before the bid is
    settled, so a napoleon takes (or doubles) a box that includes this deal's ante.
    `after_pass`: the last live deal before this one was passed out (`pass_doubles`).
    """
    check_deal(rules, deal)
    settings = rules.settings
    payments: list[Payment] = []
    pot = pot_before

    def pay(payer: str, payee: str, chips: int) -> None:
        nonlocal pot
        if chips <= 0:
            return
        payments.append(Payment(payer, payee, chips))
        pot += chips if payee == POT else -chips if payer == POT else 0

    if pot_before == 0:  # the opening stake of an empty pot, before anything else
        for player in deal.seated:
            pay(player, POT, settings.empty_pot_ante)
    if settings.pool:
        for player in deal.seated:
            pay(player, POT, settings.pool_ante)
    pay(deal.dealer, POT, settings.dealer_ante)
    for player in deal.peeps:
        if not (player == deal.dealer and settings.dealer_peeps == "free"):
            pay(player, POT, settings.peep_fee)
    for player, cards in deal.buys:
        pay(player, POT, settings.purchase_fee * cards)
    if deal.bid is None or deal.bidder is None:
        return payments

    bid = rules.bid(deal.bid)
    bidder = deal.bidder
    opponents = [p for p in deal.seated if p != bidder]
    # Only the stakes between players double after a pass: never antes, fees or the pot.
    times = 2 if settings.pass_doubles and after_pass else 1
    if deal.revoker is not None and deal.revoker != bidder:
        # The revoker alone pays what all the opponents would have paid.
        pay(deal.revoker, bidder, bid.win * len(opponents) * times)
    elif was_made(rules, deal):
        for player in opponents:
            pay(player, bidder, bid.win * times)
        if bid.pot_bid:
            pay(POT, bidder, pot)
    else:
        for player in opponents:
            pay(bidder, player, bid.lose * times)
        pay(bidder, POT, bid.fail_pot)
        if bid.pot_bid and settings.pool_fail_doubles:
            pay(bidder, POT, pot)
    if deal.revoker is not None:
        pay(deal.revoker, POT, settings.revoke_fine)  # on top of the revoke rule
    if pot > MAX_POT:
        # Failed napoleons double the box; sixty in a row would overflow any database.
        raise DealError(
            _("the pot would hold more than {most} chips; close this session").format(
                most=grouped(MAX_POT)
            )
        )
    return payments


def was_made(rules: Rules, deal: Deal, bid: Bid | None = None) -> bool | None:
    """Whether the bidder made the bid; None for a passed-out deal or an opponent's revoke.
    `bid` is the deal's bid where the caller has already found it in `rules`."""
    if deal.bid is None or (deal.revoker is not None and deal.revoker != deal.bidder):
        return None
    if deal.revoker is not None:
        return False  # a revoking bidder settles as if the bid had failed
    if deal.tricks is not None:
        return (bid or rules.bid(deal.bid)).made_with(deal.tricks)
    return bool(deal.made)


def made_said(tricks: int) -> str:
    """A bid made, with the tricks taken: `made (5 tricks)`."""
    return ngettext("made ({n} trick)", "made ({n} tricks)", tricks).format(n=tricks)


def outcome(rules: Rules, deal: Deal) -> str:
    """The deal's result in a few words, as a scoreboard or a spreadsheet shows it."""
    if deal.bid is None:
        return _("passed out")
    if deal.revoker is not None:
        return _("revoke by {player}").format(player=deal.revoker)
    made = was_made(rules, deal)
    if deal.tricks is None:
        return _("made") if made else _("failed")
    if made:
        return made_said(deal.tricks)
    bid = rules.find(deal.bid)
    short = bid.tricks - deal.tricks if bid is not None and not bid.misere else 0
    # A Russian or Polish table says how many short the bid fell (`без трёх`), and reads
    # a bare count as that; English keeps `failed (2 tricks)`, which --json also gives.
    if short in SHORT and language() != "en":
        said = ngettext("{short} ({n} trick taken)", "{short} ({n} tricks taken)", deal.tricks)
        return said.format(short=_(SHORT[short]), n=deal.tricks)
    # A misère fails by taking tricks: what it took is the whole story.
    said = ngettext("failed ({n} trick)", "failed ({n} tricks)", deal.tricks)
    return said.format(n=deal.tricks)


# How many tricks short a failed bid fell, as a table says it (`без трёх`, `bez trzech`).
SHORT = {
    1: N_("one down"),
    2: N_("two down"),
    3: N_("three down"),
    4: N_("four down"),
    5: N_("five down"),
    6: N_("six down"),
    7: N_("seven down"),
}


def extras(deal: Deal) -> str:
    """Peeps and purchases, which cost fees: shown with the deal they were paid in."""
    parts = [_("{player} peeped").format(player=p) for p in deal.peeps] + [
        _("{player} bought {n}").format(player=p, n=n) for p, n in deal.buys
    ]
    return "; ".join(parts)


def describe(rules: Rules, deal: Deal) -> str:
    """The deal in one plain line, as every front end tells it:
    "Ann dealt · Ben bid nap: made (5 tricks) · Cat peeped; Dan bought 2 — a note"."""
    if deal.bid is None:
        what = _("passed out")
    else:
        what = _("{player} bid {bid}: {outcome}").format(
            player=deal.bidder, bid=bid_name(deal.bid), outcome=outcome(rules, deal)
        )
    more = f" · {extras(deal)}" if extras(deal) else ""
    note = f" — {deal.note}" if deal.note else ""
    return _("{dealer} dealt · {what}").format(dealer=deal.dealer, what=what) + more + note


def close_payments(pot: int, seated: tuple[str, ...], to: str) -> list[Payment]:
    """Empty the pot at the close: `split` among the seated, `carry`, or all to one player."""
    if pot <= 0 or to == "carry":
        return []
    if to != "split":
        return [Payment(POT, to, pot)]
    share, spare = divmod(pot, len(seated))
    # The odd chips go one each in seat order from the first seat.
    return [
        Payment(POT, player, share + (1 if seat < spare else 0))
        for seat, player in enumerate(seated)
        if share or seat < spare
    ]


@dataclass(frozen=True)
class Scored:
    deal: Deal
    payments: tuple[Payment, ...]
    pot_after: int


def replay(rules: Rules, deals: Iterable[Deal], pot: int = 0) -> list[Scored]:
    """Score deals in order, each seeing the pot the ones before it left."""
    scored = []
    after_pass = False
    for deal in deals:
        payments = tuple(score_deal(rules, deal, pot, after_pass))
        pot += changes_from(payments).get(POT, 0)
        scored.append(Scored(deal, payments, pot))
        after_pass = deal.bid is None
    return scored
