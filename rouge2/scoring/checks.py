"""The argument checks every scoring entry point shares: a clear TypeError
or ValueError naming the argument for None, NaN, bytes or an empty list."""

from __future__ import annotations

import math
from typing import Any


def check_text(value: Any, name: str, sentences_ok: bool = True):
    """``value`` if it is a text (or a tuple of its sentences); a clear TypeError
    naming the argument otherwise."""
    if isinstance(value, str):
        return value
    if sentences_ok and isinstance(value, tuple):
        for i, s in enumerate(value):
            check_text(s, f"{name}[{i}]", sentences_ok=False)
        return value
    if isinstance(value, (bytes, bytearray)):
        raise TypeError(f"{name} must be text (str), got bytes: decode it first, "
                        f"e.g. data.decode('utf-8')")
    if value is None:
        raise TypeError(f"{name} is None: give a text (an empty string scores 0)")
    if isinstance(value, float) and math.isnan(value):
        raise TypeError(f"{name} is NaN (a missing value?): give a text (an empty string scores 0)")
    raise TypeError(f"{name} must be text (str), got {type(value).__name__}")


def check_references(value: Any, name: str = "references") -> list[str]:
    """A list of reference texts from one text or a list of them."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        if not value:
            raise ValueError(f"{name} is empty: give at least one reference text")
        return [check_text(v, f"{name}[{i}]") for i, v in enumerate(value)]
    check_text(value, name)
    raise AssertionError  # pragma: no cover - check_text raised
