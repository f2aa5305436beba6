"""The errors a user may see: each becomes one ``Error:`` line and exit status 1."""


class NapError(Exception):
    """A problem with what the user asked for, explained in one line."""


class RuleError(NapError):
    """A rule file, preset or ``--rule`` setting that is not valid."""


class DealError(NapError):
    """A deal that cannot be scored as given (unknown bid, tricks out of range, ...)."""
