"""Shell completion of one-shot commands (`napledger hand n<Tab>`): players, bids, sessions.

Typer calls these only while the shell asks for completions, never when a command runs,
so what they import costs the commands typed between deals nothing. They offer what
table mode offers in the same place (the same pure rules in `shortforms`), read the
database without writing it (not even to upgrade an old schema: a Tab press must not
rewrite a file and leave a backup beside it), and offer nothing rather than fail.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from napledger.core.rules import Rules

POT_CHOICES = ("split", "carry")


def _session_words(
    ctx: typer.Context, incomplete: str, before: Sequence[str], extra: Sequence[str] = ()
) -> list[str]:
    from napledger.cli.shortforms import completions

    def offer(players: tuple[str, ...], rules: Rules) -> list[str]:
        return completions(incomplete, before, players, rules, {"hand", "leave"})

    found = [w for w in extra if w.startswith(incomplete.casefold())]
    found += _with_session(ctx, offer) or []
    return [as_typed(incomplete, w) for w in found]


def as_typed(incomplete: str, word: str) -> str:
    """`word` beginning exactly as typed (`ben` for `b`, `pawel` for Paweł): Typer offers
    only such words."""
    from napledger.core.vocabulary import word_key

    head = word[: len(incomplete)]
    return incomplete + word[len(incomplete) :] if word_key(head) == word_key(incomplete) else word


def _with_session(
    ctx: typer.Context, use: Callable[[tuple[str, ...], Rules], list[str]]
) -> list[str] | None:
    import os

    from napledger.core.errors import NapError

    db = ctx.find_root().params.get("db") or os.environ.get("NAPLEDGER_DB")
    session = ctx.params.get("session")
    if isinstance(session, list):  # settle's --session is repeatable
        session = session[-1] if session else None
    try:
        from napledger.service.api import Database

        with Database(db) as database, database.read(upgrade=False) as tx:
            view = tx.session(session).view()
        return use(view.seated, view.rules)
    except (NapError, OSError):
        return None  # no database or no session yet: nothing to offer


def complete_player(ctx: typer.Context, incomplete: str) -> list[str]:
    return _session_words(ctx, incomplete, ["hand", "x", "--by"])


def complete_bid(ctx: typer.Context, incomplete: str) -> list[str]:
    return _session_words(ctx, incomplete, ["hand"])


def complete_pot(ctx: typer.Context, incomplete: str) -> list[str]:
    return _session_words(ctx, incomplete, ["hand", "x", "--by"], POT_CHOICES)


def complete_session(ctx: typer.Context, incomplete: str) -> list[str]:
    import os

    from napledger.core.errors import NapError
    from napledger.core.rules.model import fold

    db = ctx.find_root().params.get("db") or os.environ.get("NAPLEDGER_DB")
    try:
        from napledger.service.api import Database

        with Database(db) as database, database.read(upgrade=False) as tx:
            names = [board.session.name for board in tx.sessions()]
    except (NapError, OSError):
        return []
    return [as_typed(incomplete, n) for n in names if fold(n).startswith(fold(incomplete))]
