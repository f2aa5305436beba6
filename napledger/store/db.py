"""Opening the database: where it lives, SQLite's settings, one transaction a command."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, exc
from sqlalchemy.engine import Engine, make_url
from sqlmodel import Session, create_engine

from napledger.errors import NapError

BUSY_TIMEOUT_MS = 30_000  # a second terminal waits for the first, it never sees "locked"


def default_url() -> str:
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("napledger", appauthor=False))
    return f"sqlite:///{folder / 'napledger.db'}"


def resolve_url(db: str | None) -> str:
    """`--db` wins, then NAPLEDGER_DB, then the file in the user data folder."""
    value = db or os.environ.get("NAPLEDGER_DB") or default_url()
    if "://" in value:
        return value
    return f"sqlite:///{Path(value).expanduser()}"


def describe(url: str) -> str:
    parsed = make_url(url)
    return (
        parsed.database or ""
        if parsed.drivername.startswith("sqlite")
        else parsed.render_as_string()
    )


def make_engine(url: str, write: bool) -> Engine:
    try:
        parsed = make_url(url)
    except exc.ArgumentError:
        raise NapError(f"cannot understand the database address {url!r}") from None
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise NapError(
            f"napledger keeps its book in SQLite or PostgreSQL, not {parsed.get_backend_name()}"
        )
    if not parsed.drivername.startswith("sqlite"):
        try:
            engine = create_engine(url)
        except (exc.ArgumentError, ImportError) as error:
            raise NapError(f"cannot use database {describe(url)!r}: {error}") from None
        if engine.dialect.name == "postgresql":
            _postgres_in_utc(engine)
        return engine
    path = parsed.database
    if path and path != ":memory:":
        if Path(path).is_dir():
            raise NapError(
                f"{path} is a folder; give the database a file name, e.g. {Path(path) / 'napledger.db'}"
            )
        folder = Path(path).parent
        if write:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise NapError(f"cannot create {folder}: {error.strerror}") from None
        elif not Path(path).exists():
            # A read on a database that does not exist yet should not create it.
            raise NapError(f"no database at {path} yet; start a session with `napledger new`")
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
    _sqlite_transactions(engine, write)
    return engine


def _sqlite_transactions(engine: Engine, write: bool) -> None:
    # pysqlite's own transaction handling begins late and deferred; take it over so that a
    # writing command holds the write lock from its first read (no lost update, no deadlock).
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys = ON")
        tables = {row[0] for row in cursor.execute("SELECT name FROM sqlite_master")}
        if write and (not tables or "schema_migrations" in tables):
            # Only our own files: switching someone else's database to WAL would change it.
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def _postgres_in_utc(engine: Engine) -> None:
    # Times read back in UTC whatever the server's zone, as they are from SQLite.
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        with dbapi_connection.cursor() as cursor:
            cursor.execute("SET TIME ZONE 'UTC'")
        dbapi_connection.commit()


def upsert(
    db: Session, model: Any, values: dict[str, Any], keys: list[str], update: Iterable[str] = ()
) -> None:
    """Insert a row, or on a clash over `keys` update the `update` columns (or leave it).

    One statement, so two tables racing to add the same player never collide.
    """
    if db.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        statement: Any = pg_insert(model).values(**values)
    else:
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        statement = sqlite_insert(model).values(**values)
    changes = {column: values[column] for column in update}
    if changes:
        statement = statement.on_conflict_do_update(index_elements=keys, set_=changes)
    else:
        statement = statement.on_conflict_do_nothing(index_elements=keys)
    db.execute(statement)


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """One command, one transaction: all of it is committed, or none of it."""
    try:
        with Session(engine, expire_on_commit=False) as session, session.begin():
            yield session
    except exc.DatabaseError as error:
        raise NapError(database_problem(engine, error)) from None


def database_problem(engine: Engine, error: exc.DBAPIError) -> str:
    reason = str(error.orig).strip().splitlines()[0] if error.orig else str(error)
    where = describe(str(engine.url))
    if "not a database" in reason or "malformed" in reason:
        return f"{where} is not a napledger database ({reason}); it was left untouched"
    return f"database problem with {where}: {reason}"
