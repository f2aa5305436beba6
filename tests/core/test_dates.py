"""Dates and times as each language writes them: Russian and Polish as Babel's CLDR data
has them (its short forms), English as napledger always has."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from babel.dates import format_date, format_datetime

from napledger.core.dates import written_day, written_when
from napledger.core.words import speaking

# A day and a month of one digit and of two, a time before ten and after noon.
WHENS = [datetime(2026, 12, 5, 21, 40), datetime(2027, 1, 9, 9, 4), datetime(2026, 10, 31, 0, 0)]


@pytest.mark.parametrize("lang", ["ru", "pl"])
@pytest.mark.parametrize("when", WHENS)
def test_a_date_and_time_read_as_cldr_writes_them(lang: str, when: datetime) -> None:
    with speaking(lang):
        assert written_when(when) == format_datetime(when, "short", tzinfo=UTC, locale=lang)
        assert written_day(when.date()) == format_date(when.date(), "short", locale=lang)


def test_the_russian_and_polish_days_differ_in_the_day_s_zero() -> None:
    with speaking("ru"):
        assert written_when(WHENS[1]) == "09.01.2027, 09:04"
    with speaking("pl"):
        assert written_when(WHENS[1]) == "9.01.2027, 09:04"


def test_english_writes_them_as_napledger_always_has() -> None:
    with speaking("en"):
        assert written_when(WHENS[0]) == "2026-12-05 21:40"
        assert written_day(date(2027, 1, 9)) == "2027-01-09"


def test_a_stored_instant_is_shown_in_this_machine_s_time() -> None:
    stored = datetime(2026, 12, 5, 23, 30, tzinfo=UTC)
    here = stored.astimezone()
    with speaking("ru"):
        assert written_when(stored) == f"{here:%d.%m.%Y}, {here:%H:%M}"
        assert written_day(stored) == f"{here:%d.%m.%Y}"
