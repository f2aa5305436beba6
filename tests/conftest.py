"""Every test gets its own database file; nothing touches the user's real data."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from napledger.cli import app


@pytest.fixture(autouse=True)
def db_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "nap.db"
    monkeypatch.setenv("NAPLEDGER_DB", str(path))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.delenv("NAPLEDGER_DEBUG", raising=False)
    return path


class Nap:
    """Runs napledger commands the way a person types them."""

    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, line: str, ok: bool = True, input: str | None = None) -> Any:
        result = self.runner.invoke(app, shlex.split(line), input=input)
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
        assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
        return lines[0]

    def chips(self, session: str | None = None) -> dict[str, int]:
        doc = self.json("table --json" + (f" --session {shlex.quote(session)}" if session else ""))
        return {p["name"]: p["chips"] for p in doc["players"]}


@pytest.fixture
def nap() -> Nap:
    return Nap()
