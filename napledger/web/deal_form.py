"""The keeper's deal form, read as FastAPI dependencies: what `hand`, `pass` and `amend`
post, in the CLI's own terms (`hand BID --by … --peep … --buy P=N`).

Each field is read as typed (a string, blank when nothing was tapped) and turned into
`DealOptions` only inside the write, so a number that does not parse is refused like any
other bad deal, with everything tapped kept (`tapped`).
"""

from dataclasses import replace
from typing import Annotated, Any

from fastapi import Depends, Form

from napledger.core.errors import DealError, NapError
from napledger.core.numbers import whole
from napledger.core.options import DealOptions
from napledger.core.read.messages import bought_by
from napledger.core.rules import Deal as Recorded
from napledger.core.words import _

# A number the page posts itself (a deal's number, its version, the next deal's number).
Count = Annotated[str | None, Form(max_length=20)]
Name = Annotated[str | None, Form(max_length=200)]


class DealExtras:
    """What any deal may carry, a passed-out one too: peeps, cards bought, a note."""

    def __init__(
        self,
        peep: Annotated[list[str] | None, Form(max_length=200)] = None,
        buyer: Annotated[list[str] | None, Form(max_length=200)] = None,
        buy: Annotated[list[str] | None, Form(max_length=20)] = None,
        note: Annotated[str | None, Form(max_length=300)] = None,
    ) -> None:
        self.peep = peep
        self.buyer = buyer
        self.buy = buy
        self.note = note

    def bought(self) -> tuple[tuple[str, int], ...]:
        """The boxes filled in, as (player, cards) (an empty box: no purchase)."""
        return tuple(
            (who, whole(count, bought_by(who)))
            for who, count in zip(self.buyer or (), self.buy or (), strict=False)
            if count.strip()
        )

    def options(self) -> DealOptions:
        """A passed-out deal: who peeped, who bought how many cards, the note."""
        bought = self.bought()
        return DealOptions(
            peeps=tuple(self.peep) if self.peep else None,  # none ticked: --peep not typed
            buys=bought or None,
            note=blank(self.note),
        )

    def tapped(self) -> dict[str, Any]:
        """What was tapped, to draw the form again as it was after a refusal."""
        return {
            "peep": self.peep or [],
            "note": self.note or "",
            "buys": dict(zip(self.buyer or (), self.buy or (), strict=False)),
        }


Extras = Annotated[DealExtras, Depends()]


class DealForm:
    """A whole deal: its bid, bidder, result or tricks, revoke, and the extras."""

    def __init__(
        self,
        extras: Extras,
        bid: Annotated[str | None, Form(max_length=100)] = None,
        by: Name = None,
        result: Count = None,
        tricks: Count = None,
        revoke: Name = None,
        bidder_bought: Count = None,  # where only the bidder buys: one box, the bidder's
    ) -> None:
        self.extras = extras
        self.bid = bid
        self.by = by
        # The page posts one result: made, failed, or the tricks taken (a number).
        if result is not None and result.strip().isdigit() and not (tricks or "").strip():
            tricks = result.strip()
            result = None
        self.result = result
        self.tricks = tricks
        self.revoke = revoke
        self.bidder_bought = bidder_bought

    def options(self, whole_form: bool = False) -> DealOptions:
        """The deal as `hand`/`amend` take it. With `whole_form` (a deal picked to amend,
        its form drawn whole) what is not ticked is not there, as `amend N --no-peeps
        --no-buys --note ""` would say; else only what was tapped changes."""
        extras = self.extras
        bought = extras.bought()
        if self.bidder_bought is not None and self.bidder_bought.strip():
            bidder = blank(self.by)
            if bidder is None:
                raise DealError(_("say who bid"), "by")  # the bidder's purchase needs the bidder
            bought += ((bidder, whole(self.bidder_bought, _("cards bought by the bidder"))),)
        options = DealOptions(
            bid=blank(self.bid),
            by=blank(self.by),
            made=self.result == "made",
            failed=self.result == "failed",
            revoke=blank(self.revoke),
            peeps=tuple(extras.peep) if extras.peep else None,
            note=blank(extras.note),
        )
        if self.tricks is not None and self.tricks.strip():
            options = replace(options, tricks=whole(self.tricks, _("tricks taken")))
        if bought:
            options = replace(options, buys=bought)
        if whole_form:
            options = replace(
                options, no_peeps=not extras.peep, no_buys=not bought, note=extras.note or ""
            )
        return options

    def tapped(self) -> dict[str, Any]:
        return self.extras.tapped() | {
            "bid": self.bid,
            "by": self.by,
            "result": self.result,
            "tricks": self.tricks,
            "revoke": self.revoke,
            "bidder_bought": self.bidder_bought or "",
        }


def filled(deal: Recorded) -> dict[str, object]:
    """A recorded deal as its amend form's fields say it (the fields `tapped` gives)."""
    outcome = deal.tricks is None and deal.made is not None
    return {
        "bid": deal.bid if deal.bid is not None else "pass",
        "by": deal.bidder,
        "result": ("made" if deal.made else "failed") if outcome else None,
        "tricks": str(deal.tricks) if deal.tricks is not None else None,
        "revoke": deal.revoker,
        "peep": list(deal.peeps),
        "buys": {p: str(n) for p, n in deal.buys},
        "bidder_bought": next((str(n) for p, n in deal.buys if p == deal.bidder), ""),
        "note": deal.note or "",
    }


def counted(value: str | None, what: str) -> int | None:
    """A number the page posted itself; blank: not given (a hand-made form, an old page)."""
    return whole(value, what) if value is not None and value.strip() else None


def next_number(value: str | None) -> int | None:
    """The number the page said the new deal takes."""
    return counted(value, "the next deal's number")


def version(value: str | None) -> int | None:
    """The version of the deal the page showed (2 for 5.2)."""
    return counted(value, "the deal's version")


def deal_number(value: str | None) -> int:
    """The deal a correction or a void acts on: it must be named (refused in the CLI's
    words when it is not)."""
    number = counted(value, "the deal number")
    return number if number is not None else whole("", _("the deal number"))


def shown_number(value: str | None) -> int | None:
    """The deal a form was about, to draw its form again after a refusal: None when the
    number itself was the trouble."""
    try:
        return counted(value, "the deal number")
    except NapError:
        return None


def blank(value: str | None) -> str | None:
    """An empty field is a field not given, as an option not typed."""
    return value if value is not None and value.strip() else None


Deal = Annotated[DealForm, Depends()]
