"""Random draws in bulk, identical to drawing them one at a time.

The bootstraps and paired tests draw millions of random indices and coins.
Drawing them one call at a time (``rng.randrange(n)``, ``rng.random()``,
Perl's ``srand``/``rand``) dominated a run's time, so they are drawn here in
bulk, *exactly* as the one-at-a-time calls would draw them, leaving ``rng``
in the same state; the per-resample sums are then added by one kernel call
(:mod:`rouge2.kernels`), in the same order as a Python loop.

* ``random.Random.randrange(n)`` (``1 <= n < 2**31``) takes
  ``k = n.bit_length()`` bits as ``getrandbits(32) >> (32 - k)`` from the
  next 32-bit Mersenne Twister output and draws again while the value is
  ``>= n``; ``getrandbits(32 * m)`` returns the next ``m`` outputs as one
  integer, the first in the lowest bits.  :func:`randbelow_table` draws
  exactly as many words as indices still missing, round after round, so it
  never consumes a word the one-at-a-time loop would not have.
* ``random.Random.random()`` consumes two outputs ``a, b`` and returns
  ``((a >> 5) * 2**26 + (b >> 6)) / 2**53``, which is below 0.5 exactly when
  ``a < 2**31`` (:func:`coin_words`).
* The paired bootstrap (:func:`paired_bootstrap_sums`) draws one multiset
  of tasks per resample for all the columns of an aggregate and sums each
  column as counts times values in task order, so its C kernel reads the
  columns in order instead of at random.
* ROUGE-1.5.5 seeds Perl's drand48 with the resample number, so its table of
  draws depends only on (instances, resamples): :func:`perl_table` computes
  it once and keeps a few.

``tests/test_resample.py`` checks all of this against the one-at-a-time
calls, for many seeds and sizes.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, cast

from rouge2 import kernels

#: draws per kernel call: bounds the memory of one bulk draw (about 4 bytes
#: a draw, 8 a coin) whatever the number of resamples
CHUNK_DRAWS = 1 << 18


def _fast(rng: random.Random) -> bool:
    """Whether the kernels can run ``rng``'s generator from its state (a
    plain Random; a subclass may draw its own way)."""
    return type(rng) is random.Random


def _with_state(rng: random.Random, kernel: Callable[..., tuple[Any, Any]], *args: Any) -> Any:
    """``kernel(state, *args)`` on ``rng``'s Mersenne Twister state; ``rng``
    takes the advanced state the kernel returns."""
    version, internal, gauss = rng.getstate()
    value, internal = kernel(internal, *args)
    rng.setstate((version, internal, gauss))
    return value


def raw_words(rng: random.Random, m: int) -> bytes:
    """``rng.getrandbits(32 * m).to_bytes(4 * m, "little")``: the next ``m``
    32-bit outputs of ``rng``'s Mersenne Twister.  For a plain
    :class:`random.Random` they are generated from ``rng``'s state
    (:func:`rouge2.kernels.mt_words`; in C without a big int)."""
    if m <= 0:
        return b""
    if _fast(rng):
        return cast(bytes, _with_state(rng, kernels.mt_words, m))
    return rng.getrandbits(32 * m).to_bytes(4 * m, "little")


def randbelow_table(rng: random.Random, n: int, count: int) -> array[int]:
    """``array('i', [rng.randrange(n) for _ in range(count)])``, drawn in bulk
    (``1 <= n < 2**31``); ``rng`` ends in the same state."""
    out = array("i")
    need = count
    while need > 0:
        words = raw_words(rng, need)
        out.frombytes(kernels.words_below(words, n))
        need = count - len(out)
    return out


def coin_words(rng: random.Random, coins: int) -> bytes:
    """The Mersenne Twister words ``coins`` calls of ``rng.random()`` consume
    (two each, little-endian); ``rng`` ends in the same state."""
    return raw_words(rng, 2 * coins)


def _rows_per_chunk(n: int) -> int:
    return max(1, CHUNK_DRAWS // max(n, 1))


def bootstrap_sums(values: Sequence[float], resamples: int, rng: random.Random) -> list[float]:
    """For each of ``resamples`` resamples, the sum (left to right) of
    ``values[rng.randrange(n)]`` drawn ``n = len(values)`` times."""
    n = len(values)
    sums: list[float] = []
    if n == 0:
        return sums
    vals = [float(v) for v in values]
    if _fast(rng):  # draws and sums in one pass, no index table
        return cast(list[float], _with_state(rng, kernels.mt_bootstrap_sums, vals, resamples))
    step = _rows_per_chunk(n)
    for start in range(0, resamples, step):
        rows = min(step, resamples - start)
        sums.extend(kernels.indexed_sums(vals, randbelow_table(rng, n, rows * n), n))
    return sums


def paired_bootstrap_sums(columns: Sequence[Sequence[float]], resamples: int,
                          rng: random.Random) -> list[list[float]]:
    """The paired bootstrap: for each of ``resamples`` resamples, one multiset
    of tasks, ``n`` draws of ``rng.randrange(n)`` (``n``: the columns' common
    length), shared by every column; with ``c_i`` the number of times task
    ``i`` was drawn, each column's sum of ``c_i * x_i`` over ``i = 0..n-1``,
    added left to right from 0.0.  One list of ``resamples`` sums per column
    (the definition: docs/statistics.md)."""
    n = len(columns[0]) if columns else 0
    if n == 0 or resamples <= 0:
        return [[] for _ in columns]
    if any(len(c) != n for c in columns):
        raise ValueError("paired_bootstrap_sums: the columns must have one length")
    if _fast(rng):  # draws, counts and sums in one kernel call, no index table
        cols = [c if isinstance(c, array) and c.typecode == "d" else array("d", c) for c in columns]
        return cast(list[list[float]], _with_state(rng, kernels.mt_paired_sums, cols, resamples))
    sums: list[list[float]] = [[] for _ in columns]
    for _ in range(resamples):  # a Random subclass draws its own way: one call at a time
        counts = [0] * n
        for _ in range(n):
            counts[rng.randrange(n)] += 1
        for column, out in zip(columns, sums):
            s = 0.0
            for c, x in zip(counts, column):
                s += c * x
            out.append(s)
    return sums


def randomization_sums(diffs: Sequence[float], resamples: int, rng: random.Random) -> list[float]:
    """For each of ``resamples`` resamples, the sum (left to right) of
    ``d if rng.random() < 0.5 else -d`` over ``diffs``."""
    n = len(diffs)
    sums: list[float] = []
    if n == 0:
        return sums
    d = [float(x) for x in diffs]
    if _fast(rng):
        return cast(list[float], _with_state(rng, kernels.mt_signed_sums, d, resamples))
    step = _rows_per_chunk(2 * n)
    for start in range(0, resamples, step):
        rows = min(step, resamples - start)
        sums.extend(kernels.signed_sums(d, coin_words(rng, rows * n), n))
    return sums


@lru_cache(maxsize=8)
def perl_table(n: int, count: int) -> Any:
    """ROUGE-1.5.5's draws for ``count`` resamples of ``n`` instances (row r:
    ``srand(r)`` then ``int(rand(n))`` n times), computed once."""
    return kernels.perl_resample_table(n, count)
