"""The schema's version: an ordered list of named migrations, each recorded once applied."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, inspect, text
from sqlmodel import SQLModel

from napledger.store import models  # noqa: F401  (registers the tables)


def _initial(connection: Connection) -> None:
    SQLModel.metadata.create_all(connection)


MIGRATION_LOCK = 0x4E61_704C  # any constant that other applications are unlikely to use

MIGRATIONS: list[tuple[str, Callable[[Connection], None]]] = [
    ("0001_initial", _initial),
]


def applied(connection: Connection) -> list[str]:
    if not inspect(connection).has_table("schema_migrations"):
        return []
    return [row[0] for row in connection.execute(text("SELECT name FROM schema_migrations"))]


def upgrade(connection: Connection) -> list[str]:
    """Apply what is missing, in order; returns the names applied."""
    done = set(applied(connection))
    if done >= {name for name, _ in MIGRATIONS}:
        return []
    if connection.dialect.name == "postgresql":
        # Tables starting on a fresh shared database at once: one migrates, the others
        # wait for it and then find nothing left to do. (SQLite writers are already serial.)
        connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
        done = set(applied(connection))
    if not done:
        connection.execute(
            text(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(name VARCHAR PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)"
            )
        )
    new = []
    for name, step in MIGRATIONS:
        if name not in done:
            step(connection)
            connection.execute(
                text("INSERT INTO schema_migrations (name) VALUES (:n)"), {"n": name}
            )
            new.append(name)
    return new
