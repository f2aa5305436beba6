"""A refused deal says why beside the field it is about, as well as above the form, so
the keeper sees at once which tap to change (a refusal about the deal as a whole is
said above the form only)."""

from __future__ import annotations

import re

import pytest

from tests.web.test_keeper_writes import evening, post, shown  # noqa: F401  (a fixture)


def fieldsets(page: str) -> dict[str, str]:
    """Each fieldset of the deal's form by its legend."""
    found = re.findall(r"<fieldset><legend>([^<]*)</legend>(.*?)</fieldset>", page, re.S)
    return {legend: body for legend, body in found}


CASES = {
    "too many tricks": ({"bid": "nap", "by": "Ann", "tricks": "9"}, "Result", "tricks must be"),
    "nobody bid": ({"bid": "nap", "result": "made"}, "Bidder", "say who bid"),
    "no bid": ({"by": "Ann", "result": "made"}, "Bid", "choose a bid"),
}


@pytest.mark.parametrize(("tapped", "legend", "why"), CASES.values(), ids=CASES.keys())
def test_the_reason_stands_beside_the_field(client, nap, evening, tapped, legend, why):  # noqa: F811
    answer = post(client, "/s/1/hand", **(shown(client, "hand") | tapped))
    assert answer.status_code == 400
    parts = fieldsets(answer.text)
    beside = [name for name, body in parts.items() if 'class="error beside"' in body]
    assert beside == [legend]
    assert why in parts[legend]
    assert why in answer.text.split("<fieldset>")[0]  # and above the form, as before
