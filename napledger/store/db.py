"""Opening the database: where it lives, SQLite's settings, one transaction a command."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import event, exc
from sqlalchemy.engine import Engine, make_url
from sqlmodel import Session, create_engine

from napledger.core.errors import NapError
from napledger.core.reasons import os_reason
from napledger.core.words import N_, _

BUSY_TIMEOUT_MS = 30_000  # a second terminal waits for the first, it never sees "locked"
# A money ledger keeps what it said it saved: FULL syncs the write-ahead log at every
# commit, so a deal reported saved survives a power cut (NORMAL may lose the last few).
# What it costs a deal is in benchmarks/bench_cli.py.
SYNCHRONOUS = "FULL"
# Every writer's commit is announced here on PostgreSQL, so a server's live pages hear of
# it at once (service/watch.py listens) instead of reading the session again and again.
CHANGES_CHANNEL = "napledger_changes"
UNIQUE_VIOLATION = "23505"  # PostgreSQL's SQLSTATE for a duplicate key
# SQLite's extended result codes for a duplicate key (Python 3.11 names them).
SQLITE_DUPLICATES = ("SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY")
APPLIED = "napledger_applied"  # a connection's info: the migrations found as it opened


class OpenedFile:
    """The SQLite file a `Database` opened first (device, inode), for all its engines.

    A long-running process (`play`, a server whose writing engine starts at the first
    write) must notice when its path names another file or none (moved, replaced by a
    backup, deleted), whichever engine comes to it later.
    """

    def __init__(self) -> None:
        self._path = ""
        self._ids: tuple[int, int] | None = None
        self._lock = threading.Lock()

    def remember(self, path: str) -> None:
        """At a connection's opening: the first one names the file, later ones must match."""
        with self._lock:
            if self._ids is None:
                info = os.stat(path)
                self._path, self._ids = path, (info.st_dev, info.st_ino)
                return
        self.check()

    @property
    def path(self) -> str:
        """The SQLite file opened ("" before one is, and for any other database)."""
        return self._path

    def check(self) -> None:
        """Refuse when the path no longer names the one file opened, by one name."""
        if self._ids is None:
            return  # nothing opened yet (or not a SQLite file)
        path = self._path
        try:
            info = os.stat(path)
        except OSError:
            info = None
        if info is None or (info.st_dev, info.st_ino) != self._ids:
            raise NapError(
                _(
                    "{path} is no longer the database file opened at the start (it was moved, "
                    "replaced or deleted); nothing more is saved until napledger is started again"
                ).format(path=path)
            )
        _one_name(path, info.st_nlink)


def default_url() -> str:
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("napledger", appauthor=False))
    return f"sqlite:///{folder / 'napledger.db'}"


def secret_path(url: str) -> Path:
    """Where `serve` keeps the secret of the ledger at `url`: beside a SQLite file, so it
    goes wherever the ledger goes; for a server database (PostgreSQL), which has no file
    here, in the user data folder under a name made from its address (password left out),
    so each ledger has its own."""
    parsed = make_url(url)
    if parsed.drivername.startswith("sqlite") and parsed.database not in (None, "", ":memory:"):
        return Path(f"{parsed.database}.secret")
    from platformdirs import user_data_dir

    where = parsed.render_as_string(hide_password=True)  # the password as ***
    name = hashlib.sha256(where.encode()).hexdigest()[:16]
    return Path(user_data_dir("napledger", appauthor=False)) / "secrets" / f"{name}.secret"


def resolve_url(db: str | None) -> str:
    """`--db` wins, then NAPLEDGER_DB, then the file in the user data folder."""
    value = db or os.environ.get("NAPLEDGER_DB") or default_url()
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        # A stray newline would silently start a second ledger in a file nobody can find.
        raise NapError(
            _("the database path {path!r} has a control character in it").format(path=value)
        )
    if "://" in value:
        return value
    try:
        path = Path(value).expanduser()
    except RuntimeError:  # ~nosuchuser/…
        user = value.split("/", 1)[0]
        raise NapError(
            _("no home folder for {user} in the database path '{path}'").format(
                user=user, path=value
            )
        ) from None
    return f"sqlite:///{path}"


def describe(url: str) -> str:
    parsed = make_url(url)
    return (
        parsed.database or ""
        if parsed.drivername.startswith("sqlite")
        else parsed.render_as_string()
    )


def make_engine(url: str, write: bool, opened: OpenedFile | None = None) -> Engine:
    """An engine for `url`; a SQLite file's engines sharing `opened` must all find the file
    the first of them opened."""
    try:
        parsed = make_url(url)
    except exc.ArgumentError:
        raise NapError(
            _("cannot understand the database address '{url}'").format(url=url)
        ) from None
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise NapError(
            _("napledger keeps its book in SQLite or PostgreSQL, not {backend}").format(
                backend=parsed.get_backend_name()
            )
        )
    if not parsed.drivername.startswith("sqlite"):
        try:
            engine = create_engine(url)
        except (exc.ArgumentError, ImportError) as error:
            raise NapError(
                _("cannot use database '{url}': {why}").format(url=describe(url), why=error)
            ) from None
        if engine.dialect.name == "postgresql":
            _postgres_in_utc(engine)
            if write:
                _postgres_announces(engine)
        return engine
    if parsed.query:
        # SQLite's own options (timeout, uri, mode, …) are napledger's to set.
        options = "&".join(f"{k}={v}" for k, v in parsed.query.items())
        raise NapError(
            _("napledger sets SQLite's options itself; drop ?{options} from '{url}'").format(
                options=options, url=url
            )
        )
    if not parsed.database or parsed.database == ":memory:":
        raise NapError(
            _(
                "'{url}' is a database in memory, gone when the command ends; give a file path"
            ).format(url=url)
        )
    path = sqlite_path(parsed.database, write)
    engine = create_engine(
        parsed.set(database=path).render_as_string(),
        creator=_connector(path, write),
    )
    _sqlite_transactions(engine, path, write, opened or OpenedFile())
    return engine


def sqlite_path(given: str, write: bool) -> str:
    """The absolute path of the database file, checked: a file we may use, one name only."""
    path = Path(given).resolve()  # `nodir/../k.db` is k.db, for `table` as for `new`
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as error:
        if error.errno == errno.ENAMETOOLONG:
            raise NapError(
                _("the database path is too long ({n} characters)").format(n=len(str(path)))
            ) from None
        raise NapError(
            _("cannot use {path}: {why}").format(path=path, why=os_reason(error))
        ) from None
    if info is not None and path.is_dir():
        raise NapError(
            _("{path} is a folder; give the database a file name, e.g. {file}").format(
                path=path, file=path / "napledger.db"
            )
        )
    if info is not None:
        _one_name(path, info.st_nlink)
    elif write:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise NapError(
                _("cannot create {path}: {why}").format(path=path.parent, why=os_reason(error))
            ) from None
    else:
        # A read on a database that does not exist yet should not create it.
        raise NapError(
            _("no database at {path} yet; start a session with `napledger new`").format(path=path)
        )
    return str(path)


def _one_name(path: Path | str, links: int) -> None:
    if links > 1:
        raise NapError(
            _(
                "{path} has {links} hard links; SQLite keeps a separate journal per name, so "
                "writes through two names get lost: keep one name (copy the file, don't link it)"
            ).format(path=path, links=links)
        )


def _connector(path: str, write: bool) -> Any:
    """Opens the file; a reader where it cannot write (a read-only disk or folder) reads only."""
    from sqlite3 import dbapi2  # what SQLAlchemy's pysqlite dialect calls

    target, uri = path, False
    if not write and not _writable(path):
        # Without a write-ahead log everything is in the file: read it as it stands, with
        # no locks (immutable; on a read-only disk nobody can change it). A log left
        # beside it holds deals too, so then SQLite reads both without writing (mode=ro).
        wal = os.path.exists(path + "-wal")
        target, uri = f"file:{quote(path)}?{'mode=ro' if wal else 'immutable=1'}", True

    def connect() -> Any:
        # A server's request threads share the engine's pool, which hands a connection to
        # one thread at a time: what SQLAlchemy itself sets for SQLite files.
        return dbapi2.connect(
            target, uri=uri, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
        )

    return connect


def _writable(path: str) -> bool:
    folder = os.path.dirname(path)
    return os.access(folder, os.W_OK) and os.access(path, os.W_OK)


def _sqlite_transactions(engine: Engine, path: str, write: bool, opened: OpenedFile) -> None:
    # pysqlite's own transaction handling begins late and deferred; take it over so that a
    # writing command holds the write lock from its first read (no lost update, no deadlock).
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, record: Any) -> None:
        dbapi_connection.isolation_level = None
        # Before anything is set or written: a replaced file gets not even the WAL switch.
        opened.remember(path)
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys = ON")
        tables = {row[0] for row in cursor.execute("SELECT name FROM sqlite_master")}
        if "schema_migrations" in tables:
            # Read here, in plain SQL, for the schema check of the connection's first
            # transaction (api.up_to_date): a one-shot command compiles no query for it.
            applied = cursor.execute("SELECT name FROM schema_migrations").fetchall()
            record.info[APPLIED] = [row[0] for row in applied]
        if write and (not tables or "schema_migrations" in tables):
            # Only our own files: switching someone else's database to WAL would change it.
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        # Before every transaction: a file deleted, moved away or replaced by a backup
        # since it was opened never takes a write.
        opened.check()
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def _postgres_in_utc(engine: Engine) -> None:
    # Times read back in UTC whatever the server's zone, as they are from SQLite.
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        with dbapi_connection.cursor() as cursor:
            cursor.execute("SET TIME ZONE 'UTC'")
        dbapi_connection.commit()


def _postgres_announces(engine: Engine) -> None:
    # Sent inside the transaction, so PostgreSQL delivers it at the commit, and only then.
    @event.listens_for(engine, "commit")
    def _commit(connection: Any) -> None:
        with connection.connection.dbapi_connection.cursor() as cursor:
            cursor.execute(f"NOTIFY {CHANGES_CHANNEL}")


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


def duplicate_key(error: exc.IntegrityError) -> bool:
    """True for a unique key that already holds the value (SQLite or PostgreSQL), False
    for any other broken constraint (a foreign key, NOT NULL, a CHECK or a trigger's)."""
    orig = error.orig
    if getattr(orig, "sqlstate", None) == UNIQUE_VIOLATION:
        return True
    return getattr(orig, "sqlite_errorname", None) in SQLITE_DUPLICATES


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """One command, one transaction: all of it is committed, or none of it."""
    try:
        with Session(engine, expire_on_commit=False) as db, db.begin():
            yield db
    except exc.IntegrityError as error:
        if getattr(error.orig, "sqlstate", None) != UNIQUE_VIOLATION:
            raise NapError(database_problem(engine, error)) from None
        # Two tables adding the same row at one moment: PostgreSQL lets both try, one loses.
        raise NapError(
            _("another table saved the same thing at the same moment; nothing was saved, try again")
        ) from None
    except exc.DatabaseError as error:
        raise NapError(database_problem(engine, error)) from None


def checkpoint(engine: Engine) -> None:
    """After a write to a SQLite file: its write-ahead log copied into the file and emptied.

    While frames wait in the log, a backup copied over the file (`cp b.db m.db`) is not
    what SQLite reads: the log's newer pages are laid over it, so the restore is neither
    seen nor kept (the log brought the "restored" deals back at the next checkpoint). With
    the log empty after each write, a file put in place is read as it is, and the ledger's
    generation (store/identity.py) tells the running server. A reader holding an older
    snapshot may keep the log from emptying now; the next write empties it.
    """
    if engine.dialect.name != "sqlite":
        return
    raw = engine.raw_connection()
    try:
        with contextlib.suppress(sqlite3.Error):
            raw.driver_connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # type: ignore[union-attr]
    finally:
        raw.close()


# SQLite's words for a file that is not a database, in the table's language.
SQLITE_SAYS = {
    "file is not a database": N_("file is not a database"),
    "database disk image is malformed": N_("database disk image is malformed"),
}


def database_problem(engine: Engine, error: exc.DBAPIError) -> str:
    reason = str(error.orig).strip().splitlines()[0] if error.orig else str(error)
    where = describe(str(engine.url))
    if "not a database" in reason or "malformed" in reason:
        said = _(SQLITE_SAYS[reason]) if reason in SQLITE_SAYS else reason
        return _("{path} is not a napledger database ({reason}); it was left untouched").format(
            path=where, reason=said
        )
    if engine.dialect.name == "sqlite":
        # SQLite says "disk I/O error" or "unable to open database file"; say which and why.
        trouble = place_trouble(where)
        if trouble:
            return _("cannot write {path}: {trouble} (SQLite: {reason})").format(
                path=where, trouble=trouble, reason=reason
            )
    return _("database problem with {path}: {reason}").format(path=where, reason=reason)


def place_trouble(path: str) -> str | None:
    """What keeps SQLite from writing `path` or the -wal and -shm files beside it, if known."""
    folder = os.path.dirname(path)
    try:
        disk = os.statvfs(folder)
    except OSError:
        return None
    if disk.f_flag & os.ST_RDONLY:
        return _("{folder} is on a read-only filesystem").format(folder=folder)
    if disk.f_bavail == 0 or disk.f_favail == 0:
        return _("the disk holding {folder} is full").format(folder=folder)
    if not os.access(folder, os.W_OK):
        return _("the folder {folder} is read-only to you").format(folder=folder)
    if os.path.exists(path) and not os.access(path, os.W_OK):
        return _("the file is read-only to you")
    return None
