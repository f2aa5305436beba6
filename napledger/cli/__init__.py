"""The command line: parse, call, render. Heavy layers are imported inside the commands."""

from napledger.cli.app import app, main

__all__ = ["app", "main"]
