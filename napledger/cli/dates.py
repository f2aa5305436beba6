"""`--since`/`--until` as players mean them: calendar days where the command runs."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from napledger.errors import NapError


def parse_day(text: str | None, option: str) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise NapError(f"{option} wants a date like 2026-03-01, not {text!r}") from None


def local_midnight(day: date) -> datetime:
    """The start of `day` where the command runs, as the UTC instant sessions are stored in."""
    return datetime.combine(day, time()).astimezone().astimezone(UTC)


def day_range(since: str | None, until: str | None) -> tuple[datetime | None, datetime | None]:
    """The instants [start, end) that sessions started on `since` … `until` (inclusive) fall in."""
    first, last = parse_day(since, "--since"), parse_day(until, "--until")
    if first and last and first > last:
        raise NapError(f"--since {first} is after --until {last}")
    return (
        local_midnight(first) if first else None,
        local_midnight(last + timedelta(days=1)) if last else None,
    )
