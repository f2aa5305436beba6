"""An OS error's reason in the table's language: the C library's English in English."""

from __future__ import annotations

import errno
import os

import pytest

from napledger.core.reasons import REASONS, os_reason
from napledger.core.words import speaking


@pytest.mark.parametrize("code", sorted(REASONS))
def test_english_is_the_c_library_s_own(code: int) -> None:
    with speaking("en"):
        assert os_reason(OSError(code, os.strerror(code))) == os.strerror(code)


@pytest.mark.parametrize(("lang", "said"), [("ru", "нет прав доступа"), ("pl", "brak uprawnień")])
def test_a_known_reason_is_translated(lang: str, said: str) -> None:
    with speaking(lang):
        assert os_reason(PermissionError(errno.EACCES, "Permission denied")) == said


def test_an_unknown_one_is_said_as_the_system_says_it() -> None:
    with speaking("ru"):
        assert os_reason(OSError(errno.EIO, "Input/output error")) == "Input/output error"
        assert os_reason(OSError("no errno at all")) == "no errno at all"
