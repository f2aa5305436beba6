"""`--since`/`--until` as players mean them: calendar days where the command runs."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from napledger.core.errors import NapError
from napledger.core.words import _

# The days whose bounds can be counted in any time zone: a day's start or end must stay
# inside the years 1 to 9999 that Python's dates hold.
FIRST_DAY, LAST_DAY = date(1, 1, 2), date(9999, 12, 30)


def parse_day(text: str | None, option: str) -> date | None:
    if text is None:
        return None
    try:
        day = date.fromisoformat(text.strip())
    except ValueError:
        raise NapError(
            _("{option} wants a date like 2026-03-01, not '{text}'").format(
                option=option, text=text
            )
        ) from None
    if not FIRST_DAY <= day <= LAST_DAY:
        raise NapError(
            _(
                "{option} {day} is outside the days napledger can count ({first} to {last}); "
                "leave {option} out for no limit"
            ).format(option=option, day=day, first=FIRST_DAY, last=LAST_DAY)
        )
    return day


def local_midnight(day: date) -> datetime:
    """The start of `day` where the command runs, as the UTC instant sessions are stored in."""
    return datetime.combine(day, time()).astimezone().astimezone(UTC)


def day_range(since: str | None, until: str | None) -> tuple[datetime | None, datetime | None]:
    """The instants [start, end) that sessions started on `since` … `until` (inclusive) fall in."""
    first, last = parse_day(since, "--since"), parse_day(until, "--until")
    if first and last and first > last:
        raise NapError(_("--since {first} is after --until {last}").format(first=first, last=last))
    return (
        local_midnight(first) if first else None,
        local_midnight(last + timedelta(days=1)) if last else None,
    )
