"""Every test gets its own database; nothing touches the user's real data.

With NAPLEDGER_TEST_POSTGRES set to a server's URL (postgresql+psycopg://...), every test
that does not ask for the SQLite file (`db_path`) or carry `sqlite_only` runs on its own
fresh PostgreSQL schema instead.
"""

from __future__ import annotations

import atexit
import contextlib
import inspect
import json
import os
import shlex
import shutil
import sys
import tempfile
import uuid
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import hypothesis
import pytest
import typer.main
from typer.testing import CliRunner, Result

from napledger.cli import app
from napledger.start import assemble

assemble()  # as the program starts: `serve` is handed its web server


def _in_memory_folder() -> str | None:
    """A RAM-backed folder with room for a run's files (a gigabyte), if the machine has one."""
    try:
        room = os.statvfs("/dev/shm")
    except OSError:
        return None
    enough = room.f_bavail * room.f_frsize >= 2**30
    return "/dev/shm" if enough and os.access("/dev/shm", os.W_OK) else None


# Every committed deal is synced to disk (`synchronous=FULL`): on a real disk a test
# evening of hundreds of commits spends half its time waiting for the disk. Tests' own
# databases and files go to memory where there is room for them, unless TMPDIR says
# where; the child processes tests start inherit the choice.
if "TMPDIR" not in os.environ and (_memory := _in_memory_folder()):
    os.environ["TMPDIR"] = _memory
    tempfile.tempdir = None  # asked again: the next temporary file goes there


# No example has a deadline: on two shared cores a worker may wait its turn for a second,
# and a property that held is not a failure for it. A test's own settings keep this.
hypothesis.settings.register_profile("napledger", deadline=None)
hypothesis.settings.load_profile("napledger")

# The test modules as pytest rewrites their asserts, kept (in __pycache__, as pytest does
# wherever the environment does not say PYTHONDONTWRITEBYTECODE): rewriting them is half
# of what a worker spends collecting, and every worker of every run did it again.
sys.dont_write_bytecode = False


def pytest_configure(config: pytest.Config) -> None:
    """napledger's sources compiled once, before the workers start.

    Where the environment says PYTHONDONTWRITEBYTECODE (this project's machines do), every
    process of the run (each worker, each command, server and writer a test starts) would
    compile them again, a tenth of a second each; `compileall` writes them whatever it says,
    and reading is never turned off.
    """
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        import compileall

        import napledger

        compileall.compile_dir(Path(napledger.__file__).parent, quiet=1)


@pytest.fixture(autouse=True)
def db_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "nap.db"
    monkeypatch.setenv("NAPLEDGER_DB", str(path))
    monkeypatch.setenv("NO_COLOR", "1")
    # The user data folder (where serve keeps a PostgreSQL ledger's secret): the test's own.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.delenv("NAPLEDGER_DEBUG", raising=False)
    monkeypatch.delenv("NAPLEDGER_SESSION", raising=False)
    # English unless a test asks for another language (a developer's own locale never leaks in).
    for variable in ("NAPLEDGER_LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    return path


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """A test that spoke Russian or Polish in this process leaves English behind it."""
    yield
    from napledger.core.words import use

    use("en")


ERROR_PREFIXES = ("Error: ", "Ошибка: ", "Błąd: ")  # cli/errors.py, in en, ru, pl
POSTGRES = os.environ.get("NAPLEDGER_TEST_POSTGRES")


@pytest.fixture(scope="session")
def postgres_engine() -> Iterator[Any]:
    from sqlalchemy import create_engine, make_url, text
    from sqlalchemy.exc import IntegrityError, ProgrammingError

    url = make_url(POSTGRES or "")
    admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        exists = connection.execute(
            text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": url.database}
        ).first()
        if not exists:
            # Another test worker may make it at the same moment.
            with contextlib.suppress(IntegrityError, ProgrammingError):
                connection.execute(text(f'CREATE DATABASE "{url.database}"'))
    admin.dispose()
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    yield engine
    engine.dispose()


@pytest.fixture(autouse=True)
def on_postgres(request: pytest.FixtureRequest, db_path: Path) -> Iterator[str | None]:
    """The test's database URL when the run is on PostgreSQL: one schema per test."""
    wants_file = "db_path" in inspect.signature(request.function).parameters
    if not POSTGRES or wants_file or request.node.get_closest_marker("sqlite_only"):
        yield None
        return
    from sqlalchemy import make_url, text

    engine = request.getfixturevalue("postgres_engine")
    schema = f"t_{uuid.uuid4().hex[:16]}"
    with engine.connect() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    url = make_url(POSTGRES).update_query_dict({"options": f"-csearch_path={schema}"})
    rendered = url.render_as_string(hide_password=False)
    request.getfixturevalue("monkeypatch").setenv("NAPLEDGER_DB", rendered)
    yield rendered
    with engine.connect() as connection:
        connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))


def copy_ledger(source: Path, url: str) -> None:
    """A SQLite ledger's rows copied into the database at `url` (upgraded to this
    napledger's layout first, both): a fixture file's evening, on PostgreSQL too."""
    from sqlalchemy import text
    from sqlmodel import SQLModel

    from napledger.service.api import Database
    from napledger.store import models  # noqa: F401  (registers the tables)

    with Database(str(source)) as old, old.read() as tx:
        rows = {
            table.name: [dict(r._mapping) for r in tx.book.db.execute(table.select())]
            for table in SQLModel.metadata.sorted_tables
        }
    with Database(url) as new:
        with new.read():
            pass  # the layout made
        with new.write() as tx:
            db = tx.book.db
            for table in reversed(SQLModel.metadata.sorted_tables):
                db.execute(table.delete())
            for table in SQLModel.metadata.sorted_tables:
                if rows[table.name] and table.name != "balances":  # kept by triggers
                    db.execute(table.insert(), rows[table.name])
                if "id" in table.c:  # the next id after the copied ones
                    db.execute(
                        text(
                            f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                            f"COALESCE((SELECT MAX(id) FROM {table.name}), 0) + 1, false)"
                        )
                    )


class Runner(CliRunner):
    """Typer's test runner, with napledger's command tree built once for the whole run.

    `CliRunner.invoke` builds the tree from the Typer app on every call (about 10 ms,
    thousands of times in a run); the tree is a plain Click command that Click runs again
    and again, so it is built here once with Typer's public `get_command` and run in the
    runner's own public `isolation`, as `invoke` runs it. (Help texts are translated
    when napledger.cli is imported, not as the tree is built: `--lang ru --help` is
    tested through the installed program.)
    """

    tree = typer.main.get_command(app)

    def invoke(  # type: ignore[override]
        self,
        cli: typer.Typer,
        args: Sequence[str] | None = None,
        input: str | None = None,
        env: Mapping[str, str | None] | None = None,
        **extra: Any,
    ) -> Result:
        if cli is not app or extra:
            return super().invoke(cli, args, input=input, env=env, **extra)
        exception: BaseException | None = None
        exc_info = None
        code = 0
        with self.isolation(input=input, env=env) as (stdout, stderr, output):
            if isinstance(args, str):
                args = shlex.split(args)
            try:
                self.tree.main(args=list(args or ()), prog_name="napledger")
            except SystemExit as error:
                code = error.code if isinstance(error.code, int) else (error.code is not None)
                if not isinstance(error.code, int | None):  # as Click's runner shows it
                    sys.stdout.write(f"{error.code}\n")
                if code:
                    exception, exc_info = error, sys.exc_info()
            except Exception as error:
                exception, exc_info, code = error, sys.exc_info(), 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                written = stdout.getvalue(), stderr.getvalue(), output.getvalue()
        return Result(
            runner=self,
            stdout_bytes=written[0],
            stderr_bytes=written[1],
            output_bytes=written[2],
            return_value=None,
            exit_code=int(code),
            exception=exception,
            exc_info=exc_info,  # type: ignore[arg-type]
        )


# Evenings many tests open with, built once a worker: their first test's database file.
_built: dict[tuple[str, ...], Path] = {}


class Nap:
    """Runs napledger commands the way a person types them."""

    def __init__(self) -> None:
        self.runner = Runner()

    def start_from(self, *lines: str) -> None:
        """This test's database as `lines` typed one after another leave it.

        On SQLite, the first test to ask for these lines types them and keeps a copy of the
        file; the next ones start from a copy of that copy (a few dozen tests open with the
        same evening, a dozen commands each). On PostgreSQL each test types them.
        """
        db = os.environ["NAPLEDGER_DB"]
        if "://" in db:
            for line in lines:
                self(line)
            return
        kept = _built.get(lines)
        if kept is None:
            for line in lines:
                self(line)
            folder = tempfile.mkdtemp(prefix="evening-")
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            kept = Path(folder) / "nap.db"
            for suffix in ("", "-wal"):  # no connection is open: nothing else is unsaved
                if Path(db + suffix).exists():
                    shutil.copyfile(db + suffix, f"{kept}{suffix}")
            _built[lines] = kept
            return
        for suffix in ("", "-wal"):
            if Path(f"{kept}{suffix}").exists():
                shutil.copyfile(f"{kept}{suffix}", db + suffix)

    def __call__(self, line: str, ok: bool = True, input: str | None = None) -> Any:
        # The width is named on every call: a worker of the parallel run drew one test's
        # tables at 80 columns now and then, whatever COLUMNS said, and a wrapped line
        # fails its assertion. The console's own (public) width setter makes it certain.
        from napledger.cli import render

        columns = os.environ.get("COLUMNS", "120")
        render.console.width = int(columns)
        result = self.runner.invoke(app, shlex.split(line), input=input, env={"COLUMNS": columns})
        if ok and result.exit_code != 0:
            raise AssertionError(
                f"`napledger {line}` failed ({result.exit_code}):\n{result.output}"
            )
        return result

    def json(self, line: str) -> Any:
        return json.loads(self(line).stdout)

    def fails(self, line: str, code: int = 1) -> str:
        """Run a command that must fail cleanly; return its one error line."""
        result = self(line, ok=False)
        assert result.exit_code == code, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            result.exception
        )
        assert "Traceback" not in result.output
        lines = result.stderr.strip().splitlines()
        # `Error:` in the language spoken: «Ошибка:», „Błąd:”.
        assert len(lines) == 1 and lines[0].startswith(ERROR_PREFIXES), result.stderr
        return lines[0]

    def complete(self, line: str) -> list[str]:
        """What Tab offers after `line`, as bash asks the program: Typer's completion, run
        in this process (tests/cli/test_help_and_completion.py asks the installed program
        itself once)."""
        env = {
            "_NAPLEDGER_COMPLETE": "complete_bash",
            "COMP_WORDS": line,
            "COMP_CWORD": str(len(line.split(" ")) - 1),
        }
        result = self.runner.invoke(app, [], env=env)
        assert result.exit_code == 0 and result.stderr == "", result.output
        return result.stdout.split()

    def chips(self, session: str | None = None) -> dict[str, int]:
        doc = self.json("table --json" + (f" --session {shlex.quote(session)}" if session else ""))
        return {p["name"]: p["chips"] for p in doc["players"]}


@pytest.fixture
def nap() -> Nap:
    return Nap()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker a core and one more. Many tests wait on a subprocess, a
    browser, a server or LibreOffice, and the extra worker keeps a core busy meanwhile;
    a second worker a core was slower on 2 cores (110-121 s against 101-107 s), since
    each worker imports the whole suite (4 s of CPU) and they contend for the cores."""
    return (os.cpu_count() or 1) + 1
