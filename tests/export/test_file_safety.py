"""What happens around the workbook's file: existing files, links, a full disk, a kill."""

from __future__ import annotations

import errno
import gc
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from napledger.core.errors import NapError
from napledger.export import workbook
from napledger.export.workbook import TargetExists, write_workbook
from tests.export.test_workbook import evening


def is_workbook(path: Path) -> bool:
    return openpyxl.load_workbook(path, read_only=True).sheetnames[0] == "Summary"


def test_an_existing_file_is_refused_unless_replacing(tmp_path: Path) -> None:
    target = tmp_path / "out.xlsx"
    target.write_bytes(b"last week")
    with pytest.raises(TargetExists, match="already exists: give --force"):
        write_workbook([evening()], target)
    assert target.read_bytes() == b"last week"
    assert write_workbook([evening()], target, exists="replace") == target
    assert is_workbook(target)


def test_renaming_takes_the_first_free_name(tmp_path: Path) -> None:
    first = tmp_path / "night.xlsx"
    first.write_bytes(b"kept")
    (tmp_path / "night-2.xlsx").write_bytes(b"kept too")
    written = write_workbook([evening()], first, exists="rename")
    assert written == tmp_path / "night-3.xlsx" and is_workbook(written)
    assert first.read_bytes() == b"kept"
    assert write_workbook([evening()], tmp_path / "new.xlsx", exists="rename").name == "new.xlsx"


def test_a_read_only_file_is_refused_and_replacing_keeps_it_read_only(tmp_path: Path) -> None:
    target = tmp_path / "out.xlsx"
    target.write_bytes(b"archived")
    target.chmod(0o444)
    with pytest.raises(TargetExists):
        write_workbook([evening()], target)
    assert target.read_bytes() == b"archived"
    write_workbook([evening()], target, exists="replace")
    assert is_workbook(target)
    assert target.stat().st_mode & 0o777 == 0o444


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "store" / "real.xlsx"
    real.parent.mkdir()
    real.write_bytes(b"old")
    link = tmp_path / "link.xlsx"
    link.symlink_to(real)
    with pytest.raises(TargetExists):
        write_workbook([evening()], link)
    assert write_workbook([evening()], link, exists="replace") == link
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert is_workbook(real)
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.xlsx"]


def test_a_dangling_symlink_gets_its_file(tmp_path: Path) -> None:
    link = tmp_path / "link.xlsx"
    link.symlink_to(tmp_path / "made.xlsx")
    write_workbook([evening()], link)
    assert link.is_symlink() and is_workbook(tmp_path / "made.xlsx")


def test_a_full_disk_is_one_error_and_no_ignored_exception(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The zip archive must not try to finish itself later, on a closed file."""
    real_create = workbook._create_beside

    class FullDisk:
        def __init__(self, handle: Any) -> None:
            self._handle = handle
            self.written = 0

        def write(self, data: bytes) -> int:
            self.written += len(data)
            if self.written > 4000:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return self._handle.write(data)

        def __getattr__(self, name: str) -> Any:
            return getattr(self._handle, name)

        def __enter__(self) -> FullDisk:
            return self

        def __exit__(self, *exc: object) -> None:
            self._handle.close()

    def create(path: Path) -> tuple[Any, Path]:
        handle, temp = real_create(path)
        return FullDisk(handle), temp

    monkeypatch.setattr(workbook, "_create_beside", create)
    ignored: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", ignored.append)
    with pytest.raises(NapError, match="No space left on device"):
        write_workbook([evening()], tmp_path / "out.xlsx")
    gc.collect()
    assert ignored == []
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_through_the_cli_prints_one_line(tmp_path: Path) -> None:
    """A real process on /dev/full: only the Error line reaches stderr."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    script = (
        "import errno, os, sys\n"
        "from napledger.export import workbook\n"
        "from tests.export.test_workbook import evening\n"
        "real = workbook._create_beside\n"
        "def create(path):\n"
        "    handle, temp = real(path)\n"
        "    handle.close()\n"
        "    return open('/dev/full', 'wb'), temp\n"
        "workbook._create_beside = create\n"
        "try:\n"
        "    workbook.write_workbook([evening()], workbook.Path(sys.argv[1]))\n"
        "except workbook.NapError as e:\n"
        "    print('Error:', e, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "out.xlsx")],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[2],
        timeout=120,
    )
    assert done.stderr.splitlines() == [
        f"Error: cannot write {tmp_path / 'out.xlsx'}: No space left on device"
    ]
    assert list(tmp_path.iterdir()) == []


def test_temporary_files_of_a_killed_export_are_swept(tmp_path: Path) -> None:
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True
    )
    dead_pid = int(dead.stdout)
    stale = tmp_path / f".out.xlsx.{dead_pid}-0123456789ab.tmp"
    alive = tmp_path / f".out.xlsx.{os.getppid()}-0123456789ab.tmp"
    other = tmp_path / f".other.xlsx.{dead_pid}-0123456789ab.tmp"
    for path in (stale, alive, other):
        path.write_bytes(b"half a workbook")
    write_workbook([evening()], tmp_path / "out.xlsx")
    assert not stale.exists()
    assert alive.exists(), "a running export's file must be left alone"
    assert other.exists(), "only this workbook's temporary files are swept"
