"""The page's only way into the ledger: each function is one call of the session API.

The same calls the CLI makes (`napledger.service.api`), so the web layer holds no rule,
validation or scoring of its own; what it shows is the API's frozen data, arranged for
the templates.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from napledger.core.ledger import POT, account_name
from napledger.core.numbers import held, signed
from napledger.core.options import DealOptions
from napledger.core.read.messages import amended, joins, leaves, recorded, voided
from napledger.core.read.said import deal_label, deals_counted, next_to_deal, step_number
from napledger.core.rules.choices import Choices, choices
from napledger.core.rules.scoring import describe
from napledger.core.rules.texts import rule_text
from napledger.core.words import _
from napledger.service.api import Database, Transaction

if TYPE_CHECKING:
    from napledger.core.read.board import Scoreboard, Standing
    from napledger.core.read.settlement import Settlement
    from napledger.core.read.timeline import History, Row
    from napledger.core.rules import Rules
    from napledger.core.rules.fields import SettingField
    from napledger.service.kept import KeptHistory

T = TypeVar("T")
# How the templates write what the read model holds: the same functions as the terminal's.
FILTERS = {"signed": signed, "held": held, "account": account_name}
# The most points of each player's line in the chart: one per 3 pixels of a phone's width.
CHART_STEPS = 100


@dataclass(frozen=True)
class DealView:
    number: int
    label: str  # "5", or "5.2" for deal 5's second version
    text: str
    changes: tuple[tuple[str, int], ...]  # seat order, the pot last


@dataclass(frozen=True)
class Board:
    """One session as its page shows it."""

    id: int
    name: str
    title: str
    closed: bool
    scoreboard: Scoreboard  # the read model's board: its money is written by shown_money
    players: tuple[Standing, ...]  # the board's lines, in its order
    pot: int
    hands: int
    voided: int  # deal numbers voided: said apart from the deals played
    next_dealer: str | None
    deals: tuple[DealView, ...]  # the live deals offered to amend, the latest first
    rows: tuple[Row, ...]  # the timeline's last rows, the latest first
    # Each player's balance after each step (a deal or the close), None while away; then
    # the pot's, where it ever holds chips. `steps` names the steps: "12", "close".
    series: tuple[tuple[str, tuple[int | None, ...]], ...]
    steps: tuple[str, ...]
    settlement: Settlement  # if the session closed now: its payments, written by shown_money
    newest: int  # the id of the newest deal record: a live page counts from it
    # What the scorekeeper's form offers for the next deal.
    seated: tuple[str, ...]
    bids: tuple[str, ...]
    hand_size: int
    choices: Choices
    last_deal: int | None
    last_revision: int | None  # the version of the last deal shown: what amend and undo expect
    next_number: int  # the number the next deal will take: what the form expects
    seating_version: int = 0  # changes to who sits so far: what a join or leave expects
    closes: int = 0  # closes so far, reopened ones included: what close and reopen expect

    @property
    def hands_said(self) -> str:
        """ "13 deals, 1 voided": as the terminal and the workbook say it."""
        return deals_counted(self.hands, self.voided)

    @property
    def last_label(self) -> str:
        """The last deal as the keeper's buttons name it: 27, or 27.2 once amended."""
        if self.last_deal is None or self.last_revision is None:
            return ""
        return deal_label(self.last_deal, self.last_revision)

    @property
    def keeper_state(self) -> str:
        """A short mark of everything the keeper's controls show: when it differs from
        the page's, the page fetches them again (whoever changed the session)."""
        shown = (
            self.closed,
            self.next_number,
            self.last_label,
            self.next_dealer,
            self.seated,
            tuple(d.label for d in self.deals),  # the deals offered to amend
        )
        return hashlib.sha256(repr(shown).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class SessionItem:
    id: int
    name: str
    title: str
    hands: int
    closed: bool
    current: bool
    next_dealer: str | None = None  # None once closed
    game: str = ""  # what a new session may carry its pot from: the same game
    currency: str = ""  # and the same currency
    voided: int = 0  # deal numbers voided: said apart from the deals played

    @property
    def hands_said(self) -> str:
        return deals_counted(self.hands, self.voided)

    @property
    def next_said(self) -> str:
        return next_to_deal(self.next_dealer or "")


# --- reading ----------------------------------------------------------------------


def sessions(database: Database) -> list[SessionItem]:
    with database.read() as tx:
        boards = tx.sessions()
        current = tx.current_id()
    return [session_item(t, current) for t in reversed(boards)]


def session_item(t: Scoreboard, current: int | None) -> SessionItem:
    return SessionItem(
        id=t.session.id,
        name=t.session.name,
        title=rule_text(t.rules.title),
        hands=t.hands,
        closed=t.session.closed,
        current=t.session.id == current,
        next_dealer=t.next_dealer,
        game=t.rules.name,
        currency=t.session.currency,
        voided=t.voided,
    )


def session_marks(database: Database) -> dict[int, tuple[object, ...]]:
    """What the list of sessions shows of each session changes only when its mark does:
    the session's `last_change`, and whether it is the current one (no session scored)."""
    with database.read() as tx:
        current = tx.current_id()
        return {sid: (mark, sid == current) for sid, mark in tx.last_changes().items()}


def session_items(database: Database, ids: Iterable[int]) -> dict[int, SessionItem]:
    """The list's rows of the sessions `ids` only, each scored on its own."""
    with database.read() as tx:
        current = tx.current_id()
        return {sid: session_item(tx.session(str(sid)).scoreboard(), current) for sid in ids}


def session_id(database: Database, ref: str | None) -> int:
    """The id of the session a link names (an id or a name; none: the current one)."""
    with database.read() as tx:
        return tx.session(ref).info.id


def kept_language(database: Database, session: int) -> str | None:
    """The language the session keeps (`new --lang`), or None: its readers' own."""
    with database.read() as tx:
        return tx.session(str(session)).info.language


def board(
    database: Database, session: int, recent: int = 8, kept: KeptHistory | None = None
) -> Board:
    """The session's page; with `kept` (a live page's watcher) only the deals recorded
    since it last looked are scored now, and nothing here walks the whole evening."""
    with database.read() as tx:
        s = tx.session(str(session))
        if kept is None:
            history = s.history()  # the closes too: their shares are in the chart
            settlement = s.settlement()
        else:
            history, settlement = kept.read(s)
    t = history.scoreboard
    info = t.session
    live = history.recent(recent)
    # The timeline's last rows, as hands lists them (napledger.core.read.timeline).
    rows = history.last_rows(recent)
    deals = [
        DealView(d.number, d.label, describe(t.rules, d.deal), history.changes(d))
        for d in live
        if d.deal is not None  # the API scores strictly: a live deal has its record
    ]
    rules = t.rules
    allowed = choices(rules, t.seating, t.next_dealer)  # what the next deal allows
    return Board(
        id=info.id,
        name=info.name,
        title=rule_text(rules.title),
        closed=info.closed,
        scoreboard=t,
        players=t.standings,
        pot=t.pot,
        hands=t.hands,
        voided=t.voided,
        next_dealer=t.next_dealer,
        deals=tuple(deals),
        rows=rows,
        series=chart_series(history, info.opening_pot),
        # Deal numbers along the bottom, as the workbook's chart: 3, not 3.2 once amended.
        steps=tuple(step_number(label) for label, _, _ in spread(history.steps, CHART_STEPS)),
        settlement=settlement,
        newest=max((d.id for d in history.deals), default=0) if kept is None else kept.newest,
        seated=t.seating,
        bids=allowed.bids,
        hand_size=rules.hand_size,
        choices=allowed,
        last_deal=live[0].number if live else None,
        last_revision=live[0].revision if live else None,
        # Deals are by number: the last one's, voided or not, is the highest ever used.
        next_number=(history.deals[-1].number if history.deals else 0) + 1,
        seating_version=len(history.roster),
        closes=len(history.closes),
    )


def chart_series(
    history: History, opening_pot: int
) -> tuple[tuple[str, tuple[int | None, ...]], ...]:
    """Each player's balance at each step, None while not at the table, and the pot's
    (opening pot included) where it ever holds chips."""
    steps = spread(history.steps, CHART_STEPS)
    lines = [
        (p, tuple(total.get(p, 0) if p in seated else None for _, total, seated in steps))
        for p in history.scoreboard.players
    ]
    pot = tuple(opening_pot + total.get(POT, 0) for _, total, _ in steps)
    if any(pot):
        lines.append((POT, pot))
    return tuple(lines)


def spread(steps: Sequence[T], most: int) -> Sequence[T]:
    """At most `most` of `steps`, evenly spaced, the last always among them: a chart as
    wide as a phone shows no more, and the page stays the same size however long the
    evening."""
    if len(steps) <= most:
        return steps
    last = len(steps) - 1
    return [steps[round(i * last / (most - 1))] for i in range(most)]


def last_change(database: Database, session: int) -> tuple[object, ...]:
    with database.read() as tx:
        return tx.session(str(session)).last_change()


@dataclass(frozen=True)
class Amending:
    """One deal as the keeper's amend form shows it: the same form as a new deal's,
    filled in with what the deal says, offering whom the rules allowed in that deal."""

    number: int
    revision: int  # the version shown: what the correction expects
    label: str  # 5, or 5.2
    text: str
    typed: dict[str, object]  # the form's fields, as the deal says them
    choices: Choices


def amending(database: Database, session: int, number: int) -> Amending:
    with database.read() as tx:
        s = tx.session(str(session))
        revision, deal = s.deal(number)
        rules = s.scoreboard().rules
    outcome = deal.tricks is None and deal.made is not None
    typed: dict[str, object] = {
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
    return Amending(
        number=number,
        revision=revision,
        label=deal_label(number, revision),
        text=describe(rules, deal),
        typed=typed,
        choices=choices(rules, deal.seated, deal.dealer),
    )


# --- writing: what `hand`, `pass`, `undo`, `amend`, `join` and `leave` call --------------


def writing(database: Database) -> AbstractContextManager[Transaction]:
    """A writing transaction, refused if the database file was moved or replaced since the
    server opened it (a restored backup must not silently take the evening's deals)."""
    database.check_same_files()
    return database.write()


# Each write names what the page showed (`expect…`): a repeat is answered as the first
# was, a write against a newer board is refused by the API with what changed.


def record(
    database: Database, session: int, options: DealOptions, expect: int | None = None
) -> str:
    with writing(database) as tx:
        done = tx.session(str(session)).record(options, expect_number=expect)
    return recorded(done)


def pass_deal(
    database: Database, session: int, options: DealOptions, expect: int | None = None
) -> str:
    with writing(database) as tx:
        done = tx.session(str(session)).pass_(options, expect_number=expect)
    return recorded(done, passed=True)


def undo(
    database: Database, session: int, expected: int | None, revision: int | None = None
) -> str:
    with writing(database) as tx:
        gone = tx.session(str(session)).undo(expected, expect_revision=revision)
    return voided(gone.number)


def void(database: Database, session: int, number: int, revision: int | None) -> str:
    with writing(database) as tx:
        gone = tx.session(str(session)).void(number, expect_revision=revision)
    return voided(gone.number)


def amend(
    database: Database,
    session: int,
    number: int,
    options: DealOptions,
    revision: int | None = None,
    next_number: int | None = None,
) -> str:
    with writing(database) as tx:
        done = tx.session(str(session)).amend(
            number, options, expect_revision=revision, expect_next=next_number
        )
    return amended(done)


def join(
    database: Database, session: int, player: str, after: str | None, seen: int | None = None
) -> str:
    with writing(database) as tx:
        seated = tx.session(str(session)).join(player, after, expect_seating=seen)
    return joins(seated.player)


def leave(database: Database, session: int, player: str, seen: int | None = None) -> str:
    with writing(database) as tx:
        gone = tx.session(str(session)).leave(player, expect_seating=seen)
    return leaves(gone.player)


# --- the organiser: starting a session ------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A preset or a house-rule file serve was given, with the settings it has (those it
    lacks are not offered)."""

    name: str
    title: str
    settings: tuple[SettingField, ...]  # each with its kind, range and the game's value
    house: bool = False  # from a rule file, not a preset


def house_rules(paths: Sequence[str]) -> dict[str, Rules]:
    """The rule files `serve --rules` names, read once at start, by the game's own name:
    the page chooses among them by name and never names a file for the server to read."""
    from napledger.core.errors import NapError
    from napledger.core.rules import list_presets, load_rules

    found: dict[str, Rules] = {}
    for path in paths:
        rules = load_rules(path if path.endswith(".toml") or "/" in path else f"./{path}")
        if rules.name in list_presets() or rules.name in found:
            taken = "a preset's" if rules.name in list_presets() else "another file's"
            raise NapError(
                f"rule file {path} names its game {rules.name!r}, which is {taken} name; "
                "give it a name of its own (name = ...)"
            )
        found[rules.name] = rules
    return found


def games(house: Mapping[str, Rules] | None = None) -> list[Game]:
    from napledger.core.rules import list_presets, load_preset
    from napledger.core.rules.fields import setting_fields

    every = [(load_preset(name), False) for name in list_presets()]
    every += [(rules, True) for rules in (house or {}).values()]
    found = []
    for rules, from_file in every:
        found.append(
            Game(
                name=rules.name,
                title=rule_text(rules.title),
                settings=setting_fields(rules),
                house=from_file,
            )
        )
    return found


@dataclass(frozen=True)
class Started:
    id: int
    lines: tuple[str, ...]  # what `new` prints


def new_session(
    database: Database,
    name: str,
    game: str,
    players: str,
    settings: dict[str, str],
    chip: str,
    currency: str,
    dealer: str,
    carry_from: str,
    house: Mapping[str, Rules] | None = None,
) -> Started:
    """What `new NAME --players … --variant GAME --rule K=V … --chip … --currency …
    --dealer … --carry-from …` does, from the organiser's form (a box left empty is an
    option not typed)."""
    from napledger.core.errors import NapError
    from napledger.core.money import chip_value
    from napledger.core.read.messages import started
    from napledger.core.rules import list_presets, load_preset
    from napledger.core.rules.load import with_overrides

    # A preset or a rule file serve read at start, by name: a page must never make the
    # server read a file it names.
    house = house or {}
    if game in house:
        rules = house[game]
    elif game in list_presets():
        rules = load_preset(game)
    else:
        known = ", ".join([*list_presets(), *house])
        raise NapError(_("no game {game!r}: choose one of {known}").format(game=game, known=known))
    offered = {s.key: s.value for g in games(house) if g.name == game for s in g.settings}
    changed = [
        f"{key}={value.strip()}"
        for key, value in settings.items()
        if key in offered and value.strip() != offered[key]
    ]
    rules = with_overrides(rules, changed)
    # One name a line, as the form asks; commas too, as `--players A,B,C` takes them.
    names = [n for line in players.splitlines() for n in line.split(",") if n.strip()]
    try:
        with writing(database) as tx:
            board = tx.new_session(
                name,
                rules,
                names,
                chip_value(chip) if chip.strip() else None,
                currency.strip() or None,
                dealer.strip() or None,
                carry_from.strip() or None,
            )
    except NapError:
        again = started_already(database, name, rules, names)
        if again is None:
            raise
        board = again  # the form sent again: its first answer, while still true
    return Started(id=board.session.id, lines=tuple(started(board)))


def started_already(
    database: Database, name: str, rules: Rules, names: list[str]
) -> Scoreboard | None:
    """The session a repeated new-session form made, while still as it was started."""
    with database.read() as tx:
        return tx.started_already(name, rules, names)


# --- the keeper: ending a session -----------------------------------------------------


@dataclass(frozen=True)
class Closing:
    question: str  # what `close` asks in a terminal
    pot_to: str
    seen: str  # the plan asked about, as a fingerprint the answer carries back


def close_plan(database: Database, session: int, pot_to: str) -> Closing:
    from napledger.core.read.messages import close_question

    with database.read() as tx:
        plan = tx.session(str(session)).close_plan(pot_to)
    return Closing(close_question(plan), pot_to, plan.digest)


def close(
    database: Database, session: int, pot_to: str, seen: str, closes: int | None = None
) -> str:
    """Close as the keeper agreed to: refused if the pot or its shares changed since;
    with `closes` (the closes the page saw), a repeat is answered as the first."""
    from napledger.core.read.messages import closed

    with writing(database) as tx:
        api = tx.session(str(session))
        if closes is not None and api.closes_made() != closes:
            return closed(api.close(pot_to, expect_closes=closes))  # a repeat, or refused
        done = api.close(pot_to, seen, expect_closes=closes)
    return closed(done)


def reopen(database: Database, session: int, close: int | None = None) -> str:
    from napledger.core.read.messages import reopened

    with writing(database) as tx:
        board = tx.session(str(session)).reopen(expect_close=close)
    return reopened(board)


def documents(
    database: Database, session: int, kept: KeptHistory | None = None
) -> dict[str, object]:
    """The session as `table --json`, `hands --json` and `settle --json` print it, in one,
    and its timeline as `hands` and the page list it; with `kept` (the page's), only the
    deals recorded since it last looked are scored."""
    from napledger.service.documents import (
        hands_json,
        settlement_json,
        table_document,
        timeline_json,
    )

    with database.read() as tx:
        s = tx.session(str(session))
        if kept is None:
            history, settled = s.history(), s.settlement()
        else:
            history, settled = kept.read(s)
        return {
            "table": table_document(s),
            "hands": hands_json(history),
            "timeline": timeline_json(history),
            "settle": settlement_json(settled),
        }


def workbook(database: Database, session: int) -> tuple[str, bytes]:
    """The session's workbook as `export` writes it, and the name `export` would give it."""
    import tempfile
    from pathlib import Path

    from napledger.core.words import speaking, workbook_language
    from napledger.export.workbook import file_name, played_on, write_workbook

    with database.read() as tx, tempfile.TemporaryDirectory() as folder:
        # Written inside the reading transaction: the deals stream from the store.
        info = tx.session(str(session)).info
        with speaking(workbook_language(None, [info.language])):  # as `export` chooses
            data = [tx.report(info)]
            name = file_name([data[0].name], played_on(data))
            path = write_workbook(data, Path(folder) / name, exists="replace")
        return name, path.read_bytes()
