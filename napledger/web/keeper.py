"""The scorekeeper's page and actions: each write a route of its own that reads only its
own fields (the deal form's through `napledger.web.deal_form`), behind the session's key
(`napledger.web.access`), and answered, or refused with everything tapped kept, in one
place (`Write`)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, Response

from napledger.core.errors import DealError, NapError
from napledger.core.words import _
from napledger.web import calls
from napledger.web.access import Keeper, KeeperPage
from napledger.web.deal_form import (
    Count,
    Deal,
    DealExtras,
    DealForm,
    Extras,
    Name,
    blank,
    counted,
    deal_number,
    next_number,
    shown_number,
    version,
)
from napledger.web.pages import one_line, page, show
from napledger.web.said import said_here, told
from napledger.web.site import DB, OnSite

router = APIRouter()


@router.get("/s/{session}/keep", response_class=HTMLResponse)
def keeper(
    request: Request,
    site: OnSite,
    session: int,
    db: DB,
    key: KeeperPage,
    said: Annotated[str | None, Query(max_length=300)] = None,
    sig: Annotated[str | None, Query(max_length=100)] = None,
    amend: Annotated[str | None, Query(max_length=20)] = None,
) -> Response:
    said = said if said_here(site.secret, session, said, sig) else None
    try:
        fixing = counted(amend, "the deal number")
    except NapError as error:
        return show(request, db, session, 400, key=key, error=one_line(error))
    return show(request, db, session, key=key, said=said, fixing=fixing)


@router.get("/s/{session}/keep/controls", response_class=HTMLResponse)
def keeper_controls(
    request: Request,
    site: OnSite,
    session: int,
    db: DB,
    key: KeeperPage,
    amend: Annotated[str | None, Query(max_length=20)] = None,
) -> Response:
    """The keeper's controls as they are now: the page swaps them in after a change
    (the form of the deal being amended, while one is). A deal being amended that is
    no longer there (voided elsewhere) gives the usual controls, saying so in place:
    the page's form of it is gone, never left to be saved or voided again."""
    board = calls.board(db, session, kept=site.kept_for(session))
    fixing = gone = None
    try:
        number = counted(amend, "the deal number")
        if number is not None and not board.closed:
            fixing = calls.amending(db, session, number)
    except NapError as error:
        gone = one_line(error)
    return page(request, "controls.html", board=board, key=key, fixing=fixing, gone=gone)


@dataclass(frozen=True)
class Write:
    """One write of the keeper's to one session, its key checked (`keeper_write`):
    the database it goes to, and its answer, made in one place (`done`)."""

    request: Request
    site: OnSite
    session: int
    key: Keeper
    db: DB

    def done(
        self,
        act: Callable[[], str],
        form: DealForm | DealExtras | None = None,
        fixing: int | None = None,
    ) -> Response:
        """Back to the keeper's page with what `act` said, or its refusal on the page
        drawn again (`form`: what was tapped; `fixing`: the deal whose form comes back)."""
        try:
            said = act()
            self.site.hub.written(self.session)  # its pages follow now, not when heard
        except NapError as error:
            return self.refused(error, form, fixing)
        return told(self.site.secret, self.session, self.key, said)

    def refused(
        self,
        error: NapError,
        form: DealForm | DealExtras | None = None,
        fixing: int | None = None,
    ) -> Response:
        """The page as it is now, the reason above the form and beside the field it is
        about (where the core names one), everything tapped still tapped: the keeper
        corrects one thing, not all."""
        line = one_line(error)
        typed: dict[str, Any] = {}
        if form is not None:
            field = getattr(error, "field", None)
            typed = form.tapped() | {"refused": {"field": field, "why": line}}
        try:
            return show(
                self.request,
                self.db,
                self.session,
                400,
                key=self.key,
                error=line,
                typed=typed,
                fixing=fixing,
            )
        except NapError:  # the board cannot be read either (the file has gone)
            return page(self.request, "message.html", 400, title=_("Not saved"), message=line)


Writing = Annotated[Write, Depends()]
Pot = Annotated[str, Form(max_length=200)]


# Ending a session: asked first, as `close` asks in a terminal, then done only if the
# pot and its shares are still what the keeper agreed to.
@router.post("/s/{session}/closing", response_class=HTMLResponse)
def closing(write: Writing, pot: Pot = "split") -> Response:
    try:
        asked = calls.close_plan(write.db, write.session, pot)
    except NapError as error:
        return write.refused(error)
    board = calls.board(write.db, write.session, kept=write.site.kept_for(write.session))
    return page(write.request, "close.html", key=write.key, board=board, asked=asked)


# Each says what the page saw: the closes so far (close) or the close it takes back
# (reopen), so a repeat is answered as the first and a stale one refused.
@router.post("/s/{session}/close", response_class=HTMLResponse)
def close(
    write: Writing,
    pot: Pot = "split",
    seen: Annotated[str, Form(max_length=100)] = "",
    closes: Count = None,
) -> Response:
    def act() -> str:
        made = counted(closes, "the closes made")
        return calls.close(write.db, write.session, pot, seen, made)

    return write.done(act)


@router.post("/s/{session}/reopen", response_class=HTMLResponse)
def reopen(write: Writing, close: Count = None) -> Response:
    def act() -> str:
        return calls.reopen(write.db, write.session, counted(close, "the close"))

    return write.done(act)


# The keeper's deals and seats, one route each, each reading only its own fields.
# Every form says what the page showed (`next_deal`, `number`, `revision`): the API
# refuses a write drawn against an older board, and answers a repeat as the first.


@router.post("/s/{session}/hand", response_class=HTMLResponse)
def hand(write: Writing, deal: Deal, next_deal: Count = None) -> Response:
    def record() -> str:
        options = deal.options()
        if options.bid is None:
            raise DealError(_("choose a bid (or tap Pass for a passed-out deal)"), "bid")
        return calls.record(write.db, write.session, options, next_number(next_deal))

    return write.done(record, deal)


@router.post("/s/{session}/pass", response_class=HTMLResponse)
def pass_deal(write: Writing, extras: Extras, next_deal: Count = None) -> Response:
    def record() -> str:
        expected = next_number(next_deal)
        return calls.pass_deal(write.db, write.session, extras.options(), expected)

    return write.done(record, extras)


@router.post("/s/{session}/amend", response_class=HTMLResponse)
def amend(
    write: Writing,
    deal: Deal,
    number: Count = None,
    revision: Count = None,
    next_deal: Count = None,
    full: Annotated[str | None, Form(max_length=1)] = None,  # the amend form, whole
) -> Response:
    # The deal the keeper saw (picked, or the last one), at the version seen, and with
    # no deal recorded since: not whatever is last by now.
    whole_form = full == "1"

    def correct() -> str:
        return calls.amend(
            write.db,
            write.session,
            deal_number(number),
            deal.options(whole_form),
            version(revision),
            next_number(next_deal),
        )

    # A picked deal's refused correction comes back as that deal's form.
    return write.done(correct, deal, shown_number(number) if whole_form else None)


@router.post("/s/{session}/void", response_class=HTMLResponse)
def void(write: Writing, number: Count = None, revision: Count = None) -> Response:
    # The deal picked, at the version its form showed; refused, its form as it is now.
    def act() -> str:
        return calls.void(write.db, write.session, deal_number(number), version(revision))

    return write.done(act, fixing=shown_number(number))


@router.post("/s/{session}/undo", response_class=HTMLResponse)
def undo(write: Writing, number: Count = None, revision: Count = None) -> Response:
    # The deal the button named, not whatever is last by now.
    def act() -> str:
        named = counted(number, "the deal number")
        return calls.undo(write.db, write.session, named, version(revision))

    return write.done(act)


# Seats say the seating's version the page showed (`seating`): a repeat is answered as
# the first, a form drawn before another change to who sits is refused.
@router.post("/s/{session}/join", response_class=HTMLResponse)
def join(
    write: Writing, player: Name = None, after: Name = None, seating: Count = None
) -> Response:
    def act() -> str:
        seen = counted(seating, "the seating's version")
        # No name: the API says a name cannot be empty.
        return calls.join(write.db, write.session, player or "", blank(after), seen)

    return write.done(act)


@router.post("/s/{session}/leave", response_class=HTMLResponse)
def leave(write: Writing, player: Name = None, seating: Count = None) -> Response:
    def act() -> str:
        seen = counted(seating, "the seating's version")
        return calls.leave(write.db, write.session, player or "", seen)

    return write.done(act)
