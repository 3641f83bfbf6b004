"""One score from a candidate's statistics against each of its references.

Multi-reference modes (named explicitly, because tools disagree silently):

``pooled``   ROUGE-1.5.5 ``-f A``: add hits and unit counts over all
             references, then divide.  The default everywhere, and what
             papers report.
``best``     ROUGE-1.5.5 ``-f B``: the reference with the best recall (as the
             script ranks it); the first one wins a tie.
``average``  the Java ROUGE 2.0 tool: recall and precision averaged over the
             references, F from the averages.
``max-f``    rouge-score and MATLAB: the reference giving the highest F.
"""

from __future__ import annotations

from collections.abc import Sequence

from rouge2.errors import UserError
from rouge2.measures.base import Measure, PairStats
from rouge2.registry import Registry
from rouge2.stats.prf import ZERO_SCORE, Score, finish, fmeasure, prf_values, scores_many

MULTI_REFERENCE: Registry[str] = Registry("multi-reference mode")
MULTI_REFERENCE.add("pooled", "pooled", "ROUGE-1.5.5 -f A: hits and counts summed over references",
                    aliases=("a", "pool", "sum"))
MULTI_REFERENCE.add("best", "best", "ROUGE-1.5.5 -f B: the reference with the best recall",
                    aliases=("b",))
MULTI_REFERENCE.add("average", "average", "Java ROUGE 2.0: P and R averaged over references",
                    aliases=("avg", "mean", "java"))
MULTI_REFERENCE.add("max-f", "max-f", "rouge-score: the reference with the highest F",
                    aliases=("max_f", "maxf", "max", "rouge-score"))


def pick_best(keys: Sequence[float]) -> int:
    """Index of the first maximum, as the script's strict ``>`` from -1 picks it."""
    best = -1.0
    index = 0
    for i, k in enumerate(keys):
        if k > best:
            best = k
            index = i
    return index


def pooled(per_ref: Sequence[PairStats]) -> PairStats:
    """Hits and counts summed over references (``-f A``)."""
    hit: float = 0
    ref: float = 0
    cand: float = 0
    for s in per_ref:
        hit += s.hit
        ref += s.ref_total
        cand += s.cand_total
    return PairStats(hit, ref, cand)


def combined_stats(measure: Measure, per_ref: Sequence[PairStats], mode: str,
                   keys: Sequence[float] | None = None) -> PairStats:
    """The statistics ``pooled`` and ``best`` score (what ROUGE-1.5.5 counts with -t 1/2)."""
    if not per_ref:
        return PairStats(0, 0, 0)
    if mode == "pooled":
        return per_ref[0] if len(per_ref) == 1 else pooled(per_ref)
    if mode == "best":
        if keys is None:
            keys = [measure.best_key(s) for s in per_ref]
        return per_ref[pick_best(keys)]
    raise UserError(f"multi_reference {mode!r} has no single set of statistics; "
                    f"use pooled or best")


def combine(
    measure: Measure,
    per_ref: Sequence[PairStats],
    mode: str = "pooled",
    alpha: float = 0.5,
    keys: Sequence[float] | None = None,
    rounding: str = "none",
) -> Score:
    """One score from a candidate's statistics against each of its references.

    ``keys`` are the ``-f B`` ranking values (:meth:`Measure.best_key`),
    computed from the statistics when not given.
    """
    if not per_ref:
        return ZERO_SCORE
    if mode in ("pooled", "best"):
        s = combined_stats(measure, per_ref, mode, keys)
        return finish(measure.precision(s), measure.recall(s), alpha, rounding)
    ps = [measure.precision(s) for s in per_ref]
    rs = [measure.recall(s) for s in per_ref]
    if mode == "average":
        return finish(sum(ps) / len(ps), sum(rs) / len(rs), alpha, rounding)
    if mode == "max-f":
        best = 0
        best_f = fmeasure(ps[0], rs[0], alpha)
        for i in range(1, len(ps)):
            f = fmeasure(ps[i], rs[i], alpha)
            if f > best_f:
                best, best_f = i, f
        return finish(ps[best], rs[best], alpha, rounding)
    raise MULTI_REFERENCE.unknown(mode)


def entry_stats(stats: Sequence[float], e: int, m: int, k: int) -> tuple[PairStats, float]:
    """(statistics, ``key_base``) of reference entry ``e``, measure ``k`` of
    ``m``, in a batch statistics array (rouge2.kernels.python.score_pairs)."""
    i = (e * m + k) * 4
    return PairStats(stats[i], stats[i + 1], stats[i + 2]), stats[i + 3]


#: each mode's code for the bulk kernel (rouge2.stats.prf.scores_many)
_MODE_CODES = {"pooled": 0, "best": 1, "max-f": 2, "average": 3}


def combine_values(measures: Sequence[Measure], stats: Sequence[float], ref_starts: Sequence[int],
                   mode: str = "pooled", alpha: float = 0.5, rounding: str = "none") -> bytes | None:
    """:func:`combine_many`'s P, R and F as flat float64 bytes (``(P, R, F)``
    at ``(p * M + k) * 3``), in C; None where :func:`combine_many` would not
    use the C kernel (the caller then takes the Score objects)."""
    if mode not in _MODE_CODES:
        raise MULTI_REFERENCE.unknown(mode)
    return prf_values(measures, stats, ref_starts, _MODE_CODES[mode], alpha, rounding)


def combine_many(measures: Sequence[Measure], names: Sequence[str], stats: Sequence[float],
                 ref_starts: Sequence[int],
                 mode: str = "pooled", alpha: float = 0.5, rounding: str = "none",
                 use_c: bool = True) -> list[dict[str, Score]]:
    """Per pair, ``{name: Score}`` from a batch statistics array: exactly
    :func:`combine` of each measure's statistics against each reference
    (``ref_starts[p]`` to ``ref_starts[p + 1] - 1`` are pair ``p``'s entries).

    In bulk in C when available (:func:`~rouge2.stats.prf.scores_many`, the
    same arithmetic, the same floats); ``use_c=False`` forces the pair by
    pair definition (for tests).
    """
    if mode not in _MODE_CODES:
        raise MULTI_REFERENCE.unknown(mode)
    if use_c:
        bulk = scores_many(measures, names, stats, ref_starts, _MODE_CODES[mode], alpha, rounding)
        if bulk is not None:
            return bulk
    m = len(measures)
    out = []
    for p in range(len(ref_starts) - 1):
        e0, e1 = ref_starts[p], ref_starts[p + 1]
        scores = {}
        for k, (name, meas) in enumerate(zip(names, measures)):
            pairs = [entry_stats(stats, e, m, k) for e in range(e0, e1)]
            per_ref = [s for s, _ in pairs]
            if len(per_ref) == 1:
                s = per_ref[0]
                scores[name] = finish(meas.precision(s), meas.recall(s), alpha, rounding)
            elif mode == "best":
                keys = [meas.key_from(s, b) for s, b in pairs]
                scores[name] = combine(meas, per_ref, mode, alpha, keys, rounding)
            else:
                scores[name] = combine(meas, per_ref, mode, alpha, rounding=rounding)
        out.append(scores)
    return out
