"""Frozen dataclasses made from every one of their fields at once, where many are made.

A frozen dataclass's `__init__` sets each field through `object.__setattr__`, which costs
about as much again as the object itself: `stats` makes two for each deal of a club's
whole history (its record and its scored deal), and half its time went to them (issue
#23). `built` fills the instance's fields directly. It is for classes without a
`__post_init__` or `__slots__`, with every field given (no default is filled in): the
tests check both classes it makes (tests/core/test_built.py).
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def built(cls: type[T], **fields: Any) -> T:
    """`cls(**fields)` for a frozen dataclass given every field, without its `__init__`."""
    made = object.__new__(cls)
    made.__dict__.update(fields)
    return made
