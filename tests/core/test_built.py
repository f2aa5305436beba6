"""`built` makes the two frozen dataclasses `stats` makes by the tens of thousands exactly
as their own `__init__` does (napledger/core/built.py)."""

import dataclasses

import pytest

from napledger.core.built import built
from napledger.core.read.history import ScoredDeal
from napledger.core.rules import Deal, load_preset
from napledger.store.codec import deal_from_json, deal_to_json

DEAL = Deal(
    seated=("Ann", "Ben", "Cat"),
    dealer="Ann",
    bid="nap",
    bidder="Ben",
    tricks=5,
    peeps=("Cat",),
    buys=(("Ben", 2),),
    note="a fine nap",
    dealer_named=False,
)


@pytest.mark.parametrize("cls", [Deal, ScoredDeal])
def test_the_classes_it_makes_set_nothing_up_beyond_their_fields(cls):
    assert dataclasses.fields(cls) and not hasattr(cls, "__post_init__")
    assert "__slots__" not in vars(cls)


def test_a_built_deal_is_the_deal_its_init_makes():
    fields = {f.name: getattr(DEAL, f.name) for f in dataclasses.fields(Deal)}
    made = built(Deal, **fields)
    assert made == DEAL and hash(made) == hash(DEAL) and repr(made) == repr(DEAL)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.bid = "misere"  # type: ignore[misc]


def test_a_record_read_back_is_the_deal_written():
    assert deal_from_json(deal_to_json(DEAL)) == DEAL
    assert dataclasses.replace(deal_from_json(deal_to_json(DEAL)), note=None).note is None


def test_a_built_scored_deal_is_the_one_its_init_makes():
    fields = dict(
        id=7,
        number=3,
        revision=1,
        status="live",
        deal=DEAL,
        pot_before=4,
        pot_after=None,
        stored_pot_after=0,
        changes={"Ben": 10},
        recorded_at=None,
        error=None,
        rules=load_preset("classic"),
        after_pass=False,
    )
    assert set(fields) == {f.name for f in dataclasses.fields(ScoredDeal)}
    made = built(ScoredDeal, **fields)
    assert made == ScoredDeal(**fields)
    assert made.payments == ScoredDeal(**fields).payments  # its cached figures work alike
