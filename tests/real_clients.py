"""The real programs some tests drive (LibreOffice, poppler, Chromium).

On a developer's machine without them those tests skip, with the reason. CI installs them
(`.ci/run`) and sets NAPLEDGER_REQUIRE_REAL_CLIENTS, so there a missing program fails the
run instead of quietly skipping the tests that matter most.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def needs(*programs: str) -> pytest.MarkDecorator:
    """Skip where a program is missing (a name on PATH, or an absolute path)."""
    missing = [
        p for p in programs if not (os.access(p, os.X_OK) if os.path.isabs(p) else shutil.which(p))
    ]
    if missing and os.environ.get("NAPLEDGER_REQUIRE_REAL_CLIENTS"):
        raise RuntimeError(f"CI runs the real-client tests, but {', '.join(missing)} is missing")
    return pytest.mark.skipif(bool(missing), reason=f"needs {', '.join(missing)} (see .ci/run)")


def libreoffice(workbook: Path, folder: Path, to: str) -> subprocess.CompletedProcess[str]:
    """LibreOffice converting `workbook` into `folder` (`to`: pdf, or a CSV filter), with
    a private profile: a running LibreOffice or the user's own settings never interfere."""
    profile = (folder / "profile").as_uri()
    command = ["soffice", f"-env:UserInstallation={profile}", "--headless", "--convert-to", to]
    return subprocess.run(
        [*command, "--outdir", str(folder), str(workbook)],
        capture_output=True,
        text=True,
        timeout=300,
    )
