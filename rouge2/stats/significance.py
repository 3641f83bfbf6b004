"""Paired significance tests on per-task scores of two systems (or two variants)."""

from __future__ import annotations

import random
from typing import Sequence

from rouge2.stats.bootstrap import mean

#: the paired tests, by name
TESTS = ("approximate-randomization", "paired-bootstrap")
#: defaults of every door (API, CLI, YAML)
DEFAULT_TEST = "approximate-randomization"
DEFAULT_TEST_RESAMPLES = 10000


def paired_test(a: Sequence[float], b: Sequence[float], test: str, resamples: int,
                rng: random.Random) -> float:
    """Two-sided p-value for "mean(a) == mean(b)" over paired values.

    ``approximate-randomization``: each pair's values are swapped with
    probability 1/2; p = (1 + #{|mean diff| >= |observed|}) / (1 + resamples).
    ``paired-bootstrap``: pairs resampled with replacement; p = (1 +
    #{|mean diff - observed| >= |observed|}) / (1 + resamples)."""
    diffs = [x - y for x, y in zip(a, b)]
    n = len(diffs)
    observed = abs(mean(diffs))
    eps = 1e-12
    hits = 0
    if test == "approximate-randomization":
        for _ in range(resamples):
            s = sum(d if rng.random() < 0.5 else -d for d in diffs)
            if abs(s / n) >= observed - eps:
                hits += 1
    elif test == "paired-bootstrap":
        mean_obs = mean(diffs)
        for _ in range(resamples):
            m = mean([diffs[rng.randrange(n)] for _ in range(n)])
            if abs(m - mean_obs) >= observed - eps:
                hits += 1
    else:
        raise ValueError(f"unknown test {test!r}")
    return (hits + 1) / (resamples + 1)
