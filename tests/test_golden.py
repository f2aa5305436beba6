"""The fixture evening's outputs are exactly as recorded: a refactor changes no output.

`tests/fixtures/make_golden.py` built golden.db and wrote the expected outputs; a
deliberate change of output reruns it with `--outputs` and commits the new files.
"""

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
spec = importlib.util.spec_from_file_location("make_golden", FIXTURES / "make_golden.py")
assert spec and spec.loader
make_golden = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_golden)


@pytest.fixture
def golden(db_path: Path) -> Path:
    """A copy of the fixture database at the test's own path."""
    shutil.copy(FIXTURES / "golden.db", db_path)
    return db_path


@pytest.mark.parametrize("name", sorted(make_golden.COMMANDS))
def test_json_outputs_are_unchanged(nap, golden, name):
    expected = (FIXTURES / "golden" / name).read_text(encoding="utf-8")
    assert json.loads(nap(make_golden.COMMANDS[name]).stdout) == json.loads(expected)


def test_exported_workbook_cells_are_unchanged(nap, golden, tmp_path):
    path = tmp_path / "all.xlsx"
    nap(f"export --all --output {path}")
    expected = json.loads((FIXTURES / "golden" / "export-cells.json").read_text(encoding="utf-8"))
    assert make_golden.workbook_cells(path) == expected
