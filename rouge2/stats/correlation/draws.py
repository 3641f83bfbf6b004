"""The random draws of the bootstrap and of the permutation tests.

Everything random comes from ``random.Random(seed)`` through
``Random.random()`` alone, whose sequence Python keeps stable across
versions, so a seed gives the same draws everywhere.  The draws depend only
on the table's shape, the scheme, the count and the seed, so they are made
once and shared by every metric of a meta-evaluation (:func:`packed_bootstrap`,
:func:`packed_permutation` keep the last few).
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from rouge2.stats.correlation.tables import check_resamples, check_scheme, check_seed

_FLAG_BYTES = bytes.maketrans(b"01", b"\x00\x01")
#: 52 random bits per call of random(): int(u * 2**52)
_BITS = 52
_SCALE = 4503599627370496


@dataclass(frozen=True)
class BootstrapDraws:
    """``rows``: ``resamples`` x ``n_systems`` drawn system indices, row by
    row (``None`` when systems are not resampled); ``cols`` the same for tasks."""

    n_systems: int
    n_tasks: int
    resamples: int
    rows: array[int] | None
    cols: array[int] | None

    def __iter__(self) -> Iterator[tuple[list[int] | None, list[int] | None]]:
        ns, nt = self.n_systems, self.n_tasks
        for r in range(self.resamples):
            yield (None if self.rows is None else self.rows[r * ns:(r + 1) * ns].tolist(),
                   None if self.cols is None else self.cols[r * nt:(r + 1) * nt].tolist())


@lru_cache(maxsize=8)
def packed_bootstrap(n_systems: int, n_tasks: int, scheme: str, resamples: int, seed: int) -> BootstrapDraws:
    """The bootstrap resamples (see :func:`bootstrap_draws`), packed."""
    scheme = check_scheme(scheme, "resampling scheme")
    check_resamples(resamples)
    rnd = random.Random(check_seed(seed)).random
    draw_s = scheme in ("systems", "both")
    draw_t = scheme in ("tasks", "both")
    rows, cols = array("i"), array("i")
    for _ in range(resamples):
        if draw_s:
            rows.extend([int(rnd() * n_systems) for _ in range(n_systems)])
        if draw_t:
            cols.extend([int(rnd() * n_tasks) for _ in range(n_tasks)])
    return BootstrapDraws(n_systems, n_tasks, resamples, rows if draw_s else None, cols if draw_t else None)


def bootstrap_draws(n_systems: int, n_tasks: int, scheme: str = "both", resamples: int = 1000,
                    seed: int = 0) -> list[tuple[list[int] | None, list[int] | None]]:
    """The bootstrap resamples: for each, the system indices and the task
    indices drawn with replacement (``None`` where that axis is kept whole).

    With ``u = random.Random(seed).random()``, an index is ``int(u * n)``;
    for ``both`` the systems of a resample are drawn before its tasks."""
    return list(packed_bootstrap(n_systems, n_tasks, scheme, resamples, seed))


def swap_size(n_systems: int, n_tasks: int, scheme: str) -> int:
    """Flags per permutation: one per system, per task or per cell."""
    return {"systems": n_systems, "tasks": n_tasks, "both": n_systems * n_tasks}[scheme]


@lru_cache(maxsize=8)
def packed_permutation(n_systems: int, n_tasks: int, scheme: str, resamples: int, seed: int) -> bytes:
    """The permutation flags (see :func:`permutation_draws`), concatenated."""
    scheme = check_scheme(scheme, "permutation scheme")
    check_resamples(resamples)
    rnd = random.Random(check_seed(seed)).random
    size = swap_size(n_systems, n_tasks, scheme)
    calls = -(-size // _BITS)
    out = []
    for _ in range(resamples):
        bits = "".join([format(int(rnd() * _SCALE), "052b") for _ in range(calls)])
        out.append(bits[:size])
    return "".join(out).encode("ascii").translate(_FLAG_BYTES)


def permutation_draws(n_systems: int, n_tasks: int, scheme: str = "both", resamples: int = 1000,
                      seed: int = 0) -> list[bytes]:
    """The permutation-test swaps: for each permutation, one 0/1 flag per
    system (``systems``), per task (``tasks``) or per (system, task) cell,
    row-major (``both``); 1 means A's and B's scores trade places there.

    Each flag is one fair random bit: with ``u = random.Random(seed).random()``,
    ``int(u * 2**52)`` gives 52 of them (most significant first); a
    permutation takes as many calls as it needs, none shared with the next."""
    flat = packed_permutation(n_systems, n_tasks, scheme, resamples, seed)
    size = swap_size(n_systems, n_tasks, check_scheme(scheme, "permutation scheme"))
    return [flat[r * size:(r + 1) * size] for r in range(resamples)]
