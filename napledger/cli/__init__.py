"""The command line: parse, call, render. Heavy layers are imported inside the commands.

Commands beyond the core live in their own modules, each registering on `app` when imported.
"""

from napledger.cli.app import app, main

__all__ = ["app", "main"]

from napledger.cli import export as _export  # noqa: F401
from napledger.cli import imports as _imports  # noqa: F401
from napledger.cli import play as _play  # noqa: F401
from napledger.cli import serve as _serve  # noqa: F401
from napledger.cli import settle as _settle  # noqa: F401
from napledger.cli import stats as _stats  # noqa: F401
from napledger.cli import verify as _verify  # noqa: F401
