"""The errors a user may see: each becomes one ``Error:`` line and exit status 1."""


class NapError(Exception):
    """A problem with what the user asked for, explained in one line."""


class RuleError(NapError):
    """A rule file, preset or ``--rule`` setting that is not valid."""


class DealError(NapError):
    """A deal that cannot be scored as given (unknown bid, tricks out of range, ...).

    `field` names the part of the deal it is about (bid, by, result, revoke, peep, buy,
    dealer), so a form can say why beside what was tapped; None: the deal as a whole.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field
