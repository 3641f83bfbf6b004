"""Bounds on the numbers a user can give, in one place.

Each bound keeps a run finite in time and memory; every door (YAML keys,
``rouge2 score``, ``rouge2 correlate``, ``rouge2 rouge155``) checks the same
numbers against the same bounds, and the message names the allowed range.
See docs/safety.md.
"""

from __future__ import annotations

import math
import os

from rouge2.errors import UserError

#: bootstrap resamples of intervals (each resample re-sums every score)
MAX_RESAMPLES = 1_000_000
#: resamples of a paired significance test
MAX_TEST_RESAMPLES = 10_000_000
#: ``rouge2 rouge155 -n N`` computes N measures (ROUGE-1 .. ROUGE-N), each with
#: its own bootstrap; summaries are scored up to 4-grams in practice
MAX_NGRAM_RANGE = 100
#: ``variants`` of one run: each is a full scoring pass, and its tables, CSV
#: rows and rankings grow with their number (linearly)
MAX_VARIANTS = 1_000
#: scores a run with variants holds (variants x summaries x measures)
MAX_VARIANT_GRID = 20_000_000


def usable_cores() -> int:
    """The CPU cores this process may run on (what a count of 0, "one per core", means)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def check_count(value: object, what: str, minimum: int, maximum: int) -> int:
    """``value`` if it is a whole number from ``minimum`` to ``maximum``;
    a one-line error naming ``what`` and the range otherwise."""
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= maximum:
        raise UserError(f"{what} must be a whole number from {minimum:,} to {maximum:,}, got {value!r}")
    return value
