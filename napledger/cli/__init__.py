"""The command line: parse, call, render. Heavy layers are imported inside the commands.

Commands beyond the core live in their own modules, each registering on `app` when imported.
"""

from napledger.cli.app import app, main

__all__ = ["app", "main"]
from napledger.cli import verify as _verify  # noqa: F401
