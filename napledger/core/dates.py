"""Dates and times as each language writes them, on screen and in a workbook's sentences.

Russian and Polish as CLDR's short forms have them (Babel's `format_date` and
`format_datetime` with `format="short"`: tests/core/test_dates.py compares): `05.12.2026,
21:40` and `5.12.2026, 21:40`. English writes them as napledger always has, `2026-12-05
21:40`. A table of three languages, not Babel, whose import and locale data would cost a
one-shot command ~80 ms (as core/numbers.py writes numbers). The time is the one where the
command runs: a stored instant (UTC) is shown in this machine's time zone.
"""

from __future__ import annotations

from datetime import date, datetime

from napledger.core.words import language

# (the day, a day with its time) per language, as str.format fields of `day` and `when`.
DAY_AND_TIME = {
    "en": ("{y:04}-{m:02}-{d:02}", "{day} {H:02}:{M:02}"),
    "ru": ("{d:02}.{m:02}.{y:04}", "{day}, {H:02}:{M:02}"),
    "pl": ("{d}.{m:02}.{y:04}", "{day}, {H:02}:{M:02}"),
}


def local(when: datetime) -> datetime:
    """An instant as this machine's clock shows it (a naive datetime is taken as it is)."""
    return when.astimezone().replace(tzinfo=None) if when.tzinfo is not None else when


def written_day(day: date) -> str:
    """A calendar day as the language spoken writes it: `2026-12-05`, `05.12.2026`."""
    if isinstance(day, datetime):
        day = local(day).date()
    pattern = DAY_AND_TIME.get(language(), DAY_AND_TIME["en"])[0]
    return pattern.format(y=day.year, m=day.month, d=day.day)


def written_when(when: datetime) -> str:
    """A date and time as the language spoken writes it: `2026-12-05 21:40`,
    `05.12.2026, 21:40`."""
    when = local(when)
    pattern = DAY_AND_TIME.get(language(), DAY_AND_TIME["en"])[1]
    return pattern.format(day=written_day(when.date()), H=when.hour, M=when.minute)
