"""Scoring one deal: a pure function from the deal's record to transfers between accounts."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from napledger.core.errors import DealError
from napledger.core.ledger import POT, Transfer, postings
from napledger.core.rules.model import Rules

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
        raise DealError("a player cannot sit twice at one table")
    if not rules.min_players <= len(seated) <= rules.max_players:
        raise DealError(
            f"{rules.name} is for {rules.min_players}-{rules.max_players} players, "
            f"not {len(seated)}"
        )
    if deal.dealer not in seated:
        raise DealError(f"the dealer {deal.dealer} is not seated")
    dealt_in = rules.dealt_in(seated, deal.dealer)

    def must_be_dealt_in(player: str, role: str) -> None:
        if player not in dealt_in:
            why = "sits out this deal as dealer" if player == deal.dealer else "is not seated"
            raise DealError(f"{player} {why}, so cannot be the {role}")

    if deal.bid is not None and deal.bidder is None:
        # Before the peeps and buys, whose checks would name the missing bidder's role.
        raise DealError("say who bid")
    no_peeping = rules.why_absent("peep_fee")
    if deal.peeps and no_peeping:
        raise DealError(f"nobody peeps in {rules.name}: {no_peeping}")
    for player in deal.peeps:
        must_be_dealt_in(player, "one who peeps")
    if deal.dealer in deal.peeps and rules.settings.dealer_peeps == "never":
        raise DealError(
            f"the dealer {deal.dealer} may not look at the floater (rule dealer_peeps is never)"
        )
    if len(set(deal.peeps)) != len(deal.peeps):
        raise DealError("each player can peep once a deal")
    if deal.buys and not rules.can_buy:
        why = rules.why_absent("purchase_fee")
        raise DealError(f"nobody buys cards in {rules.name}" + (f": {why}" if why else ""))
    for player, cards in deal.buys:
        must_be_dealt_in(player, "one who buys cards")
        if rules.buying == "bidder" and player != deal.bidder:
            raise DealError(f"only the bidder buys cards in {rules.name}, not {player}")
        if not 1 <= cards <= rules.most_bought:
            most = rules.most_bought
            raise DealError(
                f"{player} can buy {'one card' if most == 1 else f'1 to {most} cards'}, not {cards}"
            )
    if len({p for p, _ in deal.buys}) != len(deal.buys):
        raise DealError("give each player's purchase once")
    most_dealt = rules.settings.purchase_max_dealt
    if deal.buys and most_dealt is not None and len(dealt_in) > most_dealt:
        raise DealError(
            f"cards are bought only with at most {most_dealt} dealt in, not {len(dealt_in)} "
            f"(rule purchase_max_dealt; set it off to buy at any table)"
        )
    bought = sum(cards for _, cards in deal.buys)
    left = rules.pack - rules.hand_size * len(dealt_in) - (1 if deal.peeps else 0)
    if bought > left:
        raise DealError(
            f"the pack has {max(left, 0)} card{'s' if left != 1 else ''} left after the deal, "
            f"not {bought} to buy"
        )
    if deal.bid is None:
        if deal.bidder or deal.revoker or deal.tricks is not None or deal.made is not None:
            raise DealError("a passed-out deal has no bidder, outcome or revoke")
        return
    rules.bid(deal.bid)
    assert deal.bidder is not None  # refused above, before the peeps and buys
    must_be_dealt_in(deal.bidder, "bidder")
    if deal.revoker is not None:
        must_be_dealt_in(deal.revoker, "revoker")
    if deal.tricks is not None:
        if deal.made is not None:
            raise DealError("give the tricks taken or made/failed, not both")
        if not 0 <= deal.tricks <= rules.hand_size:
            raise DealError(f"tricks must be from 0 to {rules.hand_size}, not {deal.tricks}")
    elif deal.made is None and deal.revoker is None:
        raise DealError("say how the deal went: the tricks taken, made or failed, or who revoked")


def score_deal(
    rules: Rules, deal: Deal, pot_before: int, after_pass: bool = False
) -> list[Transfer]:
    """Every transfer of one deal, in the order they happen at the table.

    The order matters only for the pot: antes and fees go in before the bid is
    settled, so a napoleon takes (or doubles) a box that includes this deal's ante.
    `after_pass`: the last live deal before this one was passed out (`pass_doubles`).
    """
    check_deal(rules, deal)
    settings = rules.settings
    transfers: list[Transfer] = []
    pot = pot_before

    def pay(payer: str, payee: str, chips: int) -> None:
        nonlocal pot
        if chips <= 0:
            return
        transfers.append(Transfer(payer, payee, chips))
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
        return transfers

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
        raise DealError(f"the pot would hold more than {MAX_POT:,} chips; close this session")
    return transfers


def was_made(rules: Rules, deal: Deal) -> bool | None:
    """Whether the bidder made the bid; None for a passed-out deal or an opponent's revoke."""
    if deal.bid is None or (deal.revoker is not None and deal.revoker != deal.bidder):
        return None
    if deal.revoker is not None:
        return False  # a revoking bidder settles as if the bid had failed
    if deal.tricks is not None:
        return rules.bid(deal.bid).made_with(deal.tricks)
    return bool(deal.made)


def outcome(rules: Rules, deal: Deal) -> str:
    """The deal's result in a few words, as a scoreboard or a spreadsheet shows it."""
    if deal.bid is None:
        return "passed out"
    if deal.revoker is not None:
        return f"revoke by {deal.revoker}"
    verdict = "made" if was_made(rules, deal) else "failed"
    if deal.tricks is None:
        return verdict
    return f"{verdict} ({deal.tricks} trick{'s' if deal.tricks != 1 else ''})"


def extras(deal: Deal) -> str:
    """Peeps and purchases, which cost fees: shown with the deal they were paid in."""
    parts = [f"{p} peeped" for p in deal.peeps] + [f"{p} bought {n}" for p, n in deal.buys]
    return "; ".join(parts)


def describe(rules: Rules, deal: Deal) -> str:
    """The deal in one plain line, as every front end tells it:
    "Ann dealt · Ben bid nap: made (5 tricks) · Cat peeped; Dan bought 2 — a note"."""
    what = "passed out" if deal.bid is None else f"{deal.bidder} bid {deal.bid}: "
    if deal.bid is not None:
        what += outcome(rules, deal)
    more = f" · {extras(deal)}" if extras(deal) else ""
    note = f" — {deal.note}" if deal.note else ""
    return f"{deal.dealer} dealt · {what}{more}{note}"


def close_transfers(pot: int, seated: tuple[str, ...], to: str) -> list[Transfer]:
    """Empty the pot at the close: `split` among the seated, `carry`, or all to one player."""
    if pot <= 0 or to == "carry":
        return []
    if to != "split":
        return [Transfer(POT, to, pot)]
    share, spare = divmod(pot, len(seated))
    # The odd chips go one each in seat order from the first seat.
    return [
        Transfer(POT, player, share + (1 if seat < spare else 0))
        for seat, player in enumerate(seated)
        if share or seat < spare
    ]


@dataclass(frozen=True)
class Scored:
    deal: Deal
    transfers: tuple[Transfer, ...]
    pot_after: int


def replay(rules: Rules, deals: Iterable[Deal], pot: int = 0) -> list[Scored]:
    """Score deals in order, each seeing the pot the ones before it left."""
    scored = []
    after_pass = False
    for deal in deals:
        transfers = tuple(score_deal(rules, deal, pot, after_pass))
        pot += postings(transfers).get(POT, 0)
        scored.append(Scored(deal, transfers, pot))
        after_pass = deal.bid is None
    return scored
