"""Python's cycle collector, off while the program starts and on again once the command's
libraries are loaded (issue #23). Its own module, below both, so that `napledger.start`
(which loads the command line) and the commands (which say when they have started) do
not import each other.
"""

import gc

# Whether `defer_collector` turned the cycle collector off for the start-up (see `started`).
_deferred = False


def defer_collector() -> None:
    """Python's cycle collector off until `started`.

    Start-up makes some hundred thousand objects that live as long as the process
    (modules, classes, functions of Typer, Rich, SQLAlchemy, pydantic), and the collector
    walks them again and again while they are made, finding nothing to free: a fifth of
    what a one-shot command cost (issue #23)."""
    global _deferred
    if gc.isenabled():
        gc.disable()
        _deferred = True


def started() -> None:
    """The command's libraries are loaded: what start-up made is set aside for good
    (`gc.freeze`: no collection walks it again, in a one-shot command or over an evening
    of `play` or `serve`), and the collector runs again for whatever the command makes.
    Called as a command opens its database or starts its server; nothing when `main`
    did not defer the collector (a test's `CliRunner`, a program importing napledger)."""
    global _deferred
    if _deferred:
        _deferred = False
        gc.freeze()
        gc.enable()
