"""Which modules a command loads: the quick commands must not pay for the heavy layers."""

import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = {"sqlalchemy", "sqlmodel", "pydantic", "pydantic_core", "openpyxl"}
WEB = {"fastapi", "starlette", "uvicorn", "jinja2", "segno", "anyio", "multipart"}
ROOT = Path(__file__).parents[2]


def loaded(*args: str) -> set[str]:
    """Top-level packages imported by `napledger ARGS` in a fresh interpreter."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "napledger", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    lines = [line for line in run.stderr.splitlines() if line.startswith("import time:")]
    assert lines, run.stderr
    return {line.rsplit("|", 1)[1].strip().split(".")[0] for line in lines}


@pytest.mark.parametrize("args", [("--help",), ("variants",), ("variants", "russian")])
def test_help_and_variants_load_no_database_layer_or_openpyxl(args):
    modules = loaded(*args)
    assert "typer" in modules  # the check itself works
    # Typer coerces a command's values through pydantic: a command that runs may load it.
    heavy = HEAVY - {"pydantic", "pydantic_core"} if args != ("--help",) else HEAVY
    assert modules & heavy == set()


def test_recording_a_deal_loads_the_database_but_not_openpyxl(nap):
    nap("new fri --players A,B,C")
    modules = loaded("hand", "3", "--by", "A", "--made")
    assert "sqlalchemy" in modules
    assert "openpyxl" not in modules
    assert modules & WEB == set()


@pytest.mark.parametrize("args", [("--help",), ("table",), ("serve", "--help")])
def test_only_serve_itself_loads_the_web_stack(nap, args):
    nap("new fri --players A,B,C")
    assert loaded(*args) & WEB == set()


def test_the_variant_list_is_plain_text_without_rich(nap):
    assert "rich" not in loaded("variants")
    lines = nap("variants").stdout.splitlines()
    assert lines[0].split() == ["name", "game", "players", "bids"]
    classic = next(line for line in lines if line.startswith("classic "))
    assert "English Nap" in classic and "3-7" in classic and "wellington, blücher" in classic
    # The columns line up under their headings.
    assert all(line.index("3-7") == lines[0].index("players") for line in lines if "3-7" in line)


def test_no_private_typer_module_is_imported():
    # Typer's private modules change without notice; only its public API keeps working.
    sources = sorted((ROOT / "napledger").rglob("*.py"))
    assert sources
    for path in sources:
        assert "typer._" not in path.read_text(encoding="utf-8"), path


def test_an_export_into_a_file_loads_no_rich(nap, tmp_path):
    # Its peak memory is the export's measure (issue #22): Rich's console is loaded only
    # to draw a progress bar on a terminal.
    nap("new fri --players A,B,C")
    modules = loaded("export", "-o", str(tmp_path / "fri.xlsx"))
    assert "openpyxl" in modules
    assert "rich" not in modules
