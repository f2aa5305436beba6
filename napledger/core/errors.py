"""The errors a user may see: each becomes one ``Error:`` line and exit status 1."""


class NapError(Exception):
    """A problem with what the user asked for, explained in one line.

    `field` names what it is about (a deal's bid, by, result, revoke, peep, buy or dealer;
    a close's pot; a new session's carry or chip), so each front end can point at it its
    own way: the terminal names its option, the page shows the line beside the control.
    The line itself never names a front end's syntax. None: the request as a whole.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class RuleError(NapError):
    """A rule file, preset or ``--rule`` setting that is not valid."""


class DealError(NapError):
    """A deal that cannot be scored as given (unknown bid, tricks out of range, ...)."""
