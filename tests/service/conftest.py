"""A table played through the session service, in this process: what the CLI's commands
call, without parsing or drawing (those are tests/cli's). Each action is its own
transaction, as each command is."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from decimal import Decimal
from typing import Any, TypeVar

import pytest

from napledger.core.options import DealOptions
from napledger.core.rules import load_rules
from napledger.core.rules.load import with_overrides
from napledger.service.api import Database, SessionAPI

T = TypeVar("T")


class Table:
    def __init__(self, database: Database) -> None:
        self.database = database

    def new(
        self,
        name: str,
        players: str,
        variant: str = "classic",
        rules: Sequence[str] = (),
        dealer: str | None = None,
        carry_from: str | None = None,
        chip: str | None = None,
        currency: str | None = None,
    ) -> None:
        """As `new NAME --players A,B,C --variant V --rule K=V ... --dealer D` does."""
        chosen = with_overrides(load_rules(variant), rules)
        value = None if chip is None else Decimal(chip)
        with self.database.write() as tx:
            tx.new_session(name, chosen, players.split(","), value, currency, dealer, carry_from)

    def act(self, action: Callable[[SessionAPI], T], session: str | None = None) -> T:
        """One writing action on the session (the current one unless named)."""
        with self.database.write() as tx:
            return action(tx.session(session))

    def read(self, look: Callable[[SessionAPI], T], session: str | None = None) -> T:
        with self.database.read() as tx:
            return look(tx.session(session))

    def hand(self, bid: str, by: str, session: str | None = None, **options: Any) -> None:
        self.act(lambda s: s.record(DealOptions(bid=bid, by=by, **options)), session)

    def pass_(self, session: str | None = None, **options: Any) -> None:
        self.act(lambda s: s.pass_(DealOptions(**options)), session)

    def join(self, player: str, after: str | None = None, session: str | None = None) -> None:
        self.act(lambda s: s.join(player, after), session)

    def leave(self, player: str, session: str | None = None) -> None:
        self.act(lambda s: s.leave(player), session)

    def undo(self, session: str | None = None) -> None:
        self.act(lambda s: s.undo(), session)

    def void(self, number: int, session: str | None = None) -> None:
        self.act(lambda s: s.void(number), session)

    def amend(self, number: int, session: str | None = None, **options: Any) -> None:
        self.act(lambda s: s.amend(number, DealOptions(**options)), session)

    def close(self, pot_to: str = "split", session: str | None = None) -> None:
        self.act(lambda s: s.close(pot_to), session)

    def reopen(self, session: str | None = None) -> None:
        self.act(lambda s: s.reopen(), session)

    def transfers(self, *sessions: str | None) -> list[tuple[str, str, Decimal]]:
        """The fewest payments that settle `sessions` (the current one if none named), as
        `settle` lists them: (payer, payee, money)."""
        with self.database.read() as tx:
            settlement = tx.settlement(sessions or [None])
        return sorted((p.payer, p.payee, p.amount) for p in settlement.transfers)

    def chips(self, session: str | None = None) -> dict[str, int]:
        return dict(self.read(lambda s: s.scoreboard().chips, session))

    def pot(self, session: str | None = None) -> int:
        return self.read(lambda s: s.scoreboard().pot, session)

    def dealers(self, session: str | None = None) -> list[str]:
        """Who dealt each live deal, in order."""
        deals = self.read(lambda s: s.history(with_roster=False).deals, session)
        return [d.deal.dealer for d in deals if d.live and d.deal is not None]

    def problems(self) -> list[str]:
        """What `verify` finds wrong: nothing, when the books check out."""
        with self.database.read() as tx:
            return [f"{p.where}: {p.message}" for p in tx.verify().problems]


@pytest.fixture
def table() -> Iterator[Table]:
    with Database() as database:  # NAPLEDGER_DB: the test's own database
        yield Table(database)
