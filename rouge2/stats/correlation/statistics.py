"""The meta-evaluation statistics, by name: one registry, filled beside the code.

Each statistic is registered once, in the module that computes it
(:mod:`~rouge2.stats.correlation.coefficients` for Pearson, Spearman and
Kendall; :mod:`~rouge2.stats.correlation.accuracy` for the pairwise
accuracies; :mod:`~rouge2.stats.correlation.soft` for soft pairwise
accuracy).  ``rouge2 correlate --statistic NAME``, the YAML
``meta_evaluation.statistics`` and :func:`rouge2.stats.correlation.correlation`
resolve names only through :data:`STATISTICS`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from rouge2.errors import UserError
from rouge2.registry import Registry


@dataclass(frozen=True)
class Statistic:
    """A meta-evaluation statistic.

    ``key`` is its key in JSON and CSV; ``engine`` says which computation
    produces it (``correlation``: the three coefficients, computed together;
    ``accuracy``: pairwise and tie-calibrated accuracy; ``soft``: soft
    pairwise accuracy); ``levels`` where it is defined."""

    name: str
    key: str
    engine: str
    levels: tuple[str, ...]
    summary: str


#: every statistic, in the order results list them
STATISTICS: Registry[Statistic] = Registry("statistic")

#: what ``rouge2 correlate`` reports without ``--statistic``
DEFAULT_STATISTICS = ("pearson", "spearman", "kendall")


def register(name: str, engine: str, levels: tuple[str, ...], summary: str,
             aliases: tuple[str, ...] = ()) -> Statistic:
    """Register a statistic (its JSON key is its name with ``_`` for ``-``)."""
    key = name.replace("-", "_")
    extra = (key,) if key != name else ()
    return STATISTICS.add(name, Statistic(name, key, engine, levels, summary), summary,
                          aliases=(*aliases, *extra))


def resolve(names: Iterable[str] | str) -> tuple[Statistic, ...]:
    """The statistics named (aliases resolved, repeats dropped), in registry
    order; a one-line error with a did-you-mean for an unknown name."""
    if isinstance(names, str):
        names = (names,)
    wanted = {STATISTICS.canonical(n) for n in names}
    if not wanted:
        raise UserError(f"no statistic asked for; use any of: {STATISTICS.choices()}")
    return tuple(e.value for e in STATISTICS if e.name in wanted)


def by_key(key: str) -> Statistic:
    for e in STATISTICS:
        if e.value.key == key:
            return cast(Statistic, e.value)
    raise KeyError(key)


def level_names(levels: tuple[str, ...]) -> str:
    return " and ".join(levels) if len(levels) < 3 else ", ".join(levels)
