"""The scorekeeper's page and actions: each write a route of its own that reads only its
own fields (the deal form's through `napledger.web.deal_form`), behind the session's key
(`napledger.web.access`), and answered, or refused with everything tapped kept, in one
place (`Write`)."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, Response

from napledger.core.errors import DealError, NapError
from napledger.core.read.messages import (
    amended,
    close_question,
    closed,
    joins,
    leaves,
    recorded,
    reopened,
    voided,
)
from napledger.core.words import _
from napledger.service import page as read
from napledger.service.api import SessionAPI
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
    with db.read() as tx:
        s = tx.session(str(session))
        board = read.board(s, site.kept_for(session))
        fixing = gone = None
        try:
            number = counted(amend, "the deal number")
            if number is not None and not board.closed:
                fixing = read.amending(s, number)
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

    @contextmanager
    def writing(self) -> Iterator[SessionAPI]:
        """The session in a writing transaction, refused if the database file was moved
        or replaced since the server opened it (a restored backup must not silently take
        the evening's deals)."""
        self.db.check_same_files()
        with self.db.write() as tx:
            yield tx.session(str(self.session))

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
        with write.db.read() as tx:
            s = tx.session(str(write.session))
            plan = s.close_plan(pot)
            board = read.board(s, write.site.kept_for(write.session))
    except NapError as error:
        return write.refused(error)
    # The plan asked about goes back with the answer as its digest: closed only if the
    # pot and its shares are still what the keeper agreed to.
    asked = {"question": close_question(plan), "pot_to": pot, "seen": plan.digest}
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
        with write.writing() as s:
            done = s.close(pot, seen, expect_closes=made)
        return closed(done)

    return write.done(act)


@router.post("/s/{session}/reopen", response_class=HTMLResponse)
def reopen(write: Writing, close: Count = None) -> Response:
    def act() -> str:
        with write.writing() as s:
            board = s.reopen(expect_close=counted(close, "the close"))
        return reopened(board)

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
        with write.writing() as s:
            done = s.record(options, expect_number=next_number(next_deal))
        return recorded(done)

    return write.done(record, deal)


@router.post("/s/{session}/pass", response_class=HTMLResponse)
def pass_deal(write: Writing, extras: Extras, next_deal: Count = None) -> Response:
    def record() -> str:
        expected = next_number(next_deal)
        with write.writing() as s:
            done = s.pass_(extras.options(), expect_number=expected)
        return recorded(done, passed=True)

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
        with write.writing() as s:
            done = s.amend(
                deal_number(number),
                deal.options(whole_form),
                expect_revision=version(revision),
                expect_next=next_number(next_deal),
            )
        return amended(done)

    # A picked deal's refused correction comes back as that deal's form.
    return write.done(correct, deal, shown_number(number) if whole_form else None)


@router.post("/s/{session}/void", response_class=HTMLResponse)
def void(write: Writing, number: Count = None, revision: Count = None) -> Response:
    # The deal picked, at the version its form showed; refused, its form as it is now.
    def act() -> str:
        with write.writing() as s:
            gone = s.void(deal_number(number), expect_revision=version(revision))
        return voided(gone.number)

    return write.done(act, fixing=shown_number(number))


@router.post("/s/{session}/undo", response_class=HTMLResponse)
def undo(write: Writing, number: Count = None, revision: Count = None) -> Response:
    # The deal the button named, not whatever is last by now.
    def act() -> str:
        named = counted(number, "the deal number")
        with write.writing() as s:
            gone = s.undo(named, expect_revision=version(revision))
        return voided(gone.number)

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
        with write.writing() as s:
            seated = s.join(player or "", blank(after), expect_seating=seen)
        return joins(seated.player)

    return write.done(act)


@router.post("/s/{session}/leave", response_class=HTMLResponse)
def leave(write: Writing, player: Name = None, seating: Count = None) -> Response:
    def act() -> str:
        seen = counted(seating, "the seating's version")
        with write.writing() as s:
            gone = s.leave(player or "", expect_seating=seen)
        return leaves(gone.player)

    return write.done(act)
