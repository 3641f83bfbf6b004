"""Corpus evaluation: predictions against references, means with intervals, a signature.

>>> result = rouge2.evaluate(predictions, references, measures=["rouge-1", "rouge-l"])
>>> result["rouge-1"]["fmeasure"]["mean"], result["rouge-1"]["fmeasure"]["ci"]
(0.4321..., (0.41..., 0.45...))

The corpus score of a measure is the mean over summaries of each summary's
recall, precision and F (as ROUGE-1.5.5 averages per-evaluation scores), and
its interval a seeded percentile bootstrap over summaries
(:func:`rouge2.stats.aggregate.summarize`, the same code ``rouge2 run`` uses
for system scores).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rouge2.errors import UserError
from rouge2.measures.base import PairStats
from rouge2.scoring.batch import batch_plan, check_threads, per_pair_scores
from rouge2.scoring.checks import check_text
from rouge2.scoring.options import Options
from rouge2.scoring.scorer import DEFAULT_MEASURES, Scorer
from rouge2.scoring.signature import data_versions, signature, signature_line
from rouge2.stats.aggregate import STAT_NAMES, summarize
from rouge2.stats.prf import Score


@dataclass
class Evaluation:
    """What :func:`evaluate` computed.

    ``result[measure][stat]`` is ``{"mean": m, "ci": (low, high)}`` for
    ``stat`` in ``precision``, ``recall``, ``fmeasure``; ``per_summary`` holds
    each summary's :class:`~rouge2.stats.prf.Score` per measure, and
    ``stats`` its statistics against each reference.
    """

    measures: list[str]
    scores: dict[str, dict[str, dict[str, Any]]]
    per_summary: list[dict[str, Score]]
    stats: list[dict[str, list[PairStats]]]
    signature: str
    signature_data: dict[str, Any]
    confidence: float
    resamples: int
    seed: int
    options: Options = field(repr=False, default_factory=Options)

    def __getitem__(self, measure: str) -> dict[str, dict[str, Any]]:
        from rouge2.measures import canonical_measure

        return self.scores[canonical_measure(measure)]

    def __len__(self) -> int:
        return len(self.per_summary)

    def to_dict(self) -> dict[str, Any]:
        """``{measure: {stat: {"mean", "ci"}}, "n": ..., "confidence": ..., "signature": ...}``
        (what ``rouge2 score --json`` prints)."""
        out: dict[str, Any] = {
            m: {s: {"mean": v["mean"], "ci": list(v["ci"])} for s, v in per.items()}
            for m, per in self.scores.items()
        }
        out["n"] = len(self.per_summary)
        out["confidence"] = self.confidence
        out["signature"] = self.signature
        return out

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    def to_dataframe(self):
        """Per-summary scores as a pandas DataFrame (one row per summary;
        columns ``<measure>/<precision|recall|fmeasure>``); needs pandas."""
        try:
            import pandas as pd
        except ImportError:
            raise UserError("to_dataframe needs pandas: pip install pandas") from None
        rows = [{f"{m}/{stat}": getattr(s, stat) for m, s in per.items() for stat in STAT_NAMES}
                for per in self.per_summary]
        return pd.DataFrame(rows, columns=[f"{m}/{s}" for m in self.measures for s in STAT_NAMES])

    def __repr__(self) -> str:
        parts = ", ".join(f"{m}: F {v['fmeasure']['mean']:.5f}" for m, v in self.scores.items())
        return f"<Evaluation of {len(self)} summaries: {parts}>"


def _references(predictions: list, references: Any) -> list[list[Any]]:
    """Each prediction's references as a list (a text each, or a tuple of sentences)."""
    if isinstance(references, str):
        raise TypeError("references must be a list with one entry per prediction (a text, or a "
                        "list of texts when there are several references)")
    refs = list(references)
    if len(refs) != len(predictions):
        hint = ""
        if predictions and all(isinstance(p, (list, tuple)) for p in predictions) and \
                all(isinstance(r, str) for r in refs):
            hint = "; the arguments look swapped: evaluate(predictions, references)"
        raise ValueError(f"{len(predictions)} predictions but {len(refs)} references: give one "
                         f"reference (or a list of references) per prediction{hint}")
    out = []
    for i, r in enumerate(refs):
        if isinstance(r, str):
            out.append([r])
        elif isinstance(r, (list, tuple)):
            if not r:
                raise ValueError(f"references[{i}] is empty: give at least one reference text")
            out.append([check_text(x, f"references[{i}][{j}]") for j, x in enumerate(r)])
        else:
            check_text(r, f"references[{i}]")
    return out


def evaluate(predictions: Sequence[Any], references: Sequence[Any],
             measures: Sequence[str] = DEFAULT_MEASURES, *, confidence: float = 0.95,
             resamples: int = 1000, seed: int = 0, options: Options | None = None,
             threads: int = 1, **kwargs: Any) -> Evaluation:
    """Score ``predictions`` against ``references`` and summarise the corpus.

    ``references[i]`` is the reference text of ``predictions[i]``, or a list of
    reference texts.  Options are the keywords of :class:`rouge2.Options`
    (``stem=True``, ``sentences="splitter"``, ``multi_reference="best"``, ...).
    ``resamples=0`` gives means without intervals; ``threads`` scores that
    many chunks of pairs at a time (the same numbers).
    """
    if isinstance(predictions, str):
        raise TypeError("predictions must be a list of texts, not one text")
    preds = list(predictions)
    if not preds:
        raise ValueError("predictions is empty: give at least one text to score")
    refs = _references(preds, references)
    for i, p in enumerate(preds):
        check_text(p, f"predictions[{i}]")
    if not (0.0 < confidence < 1.0):
        raise UserError(f"confidence must be between 0 and 1 (e.g. 0.95), got {confidence!r}")
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 0:
        raise UserError(f"resamples must be a whole number >= 0, got {resamples!r}")
    threads = check_threads(threads)
    scorer = Scorer(measures, options=options, **kwargs)
    o = scorer.options
    if scorer.tagger is not None:
        scorer.prefetch([*preds, *(x for r in refs for x in r)])
    per_summary: list[dict[str, Score]] = []
    all_stats: list[dict[str, list[PairStats]]] = []
    plan = batch_plan(scorer, measures)
    pairs = list(zip(preds, refs))
    parts = plan.iter_stats(pairs, threads=threads) if plan is not None else [per_pair_scores(scorer, pairs)]
    for scores, stats in parts:
        per_summary.extend(scores)
        all_stats.extend(stats)
    names = list(scorer.measures)
    summary = {}
    for m in names:
        entry = summarize([s[m] for s in per_summary], resamples=resamples or None,
                          confidence=confidence, seed=seed, label=m)
        ci = entry.get("ci", {})
        summary[m] = {stat: {"mean": entry[stat], "ci": tuple(ci.get(stat, (entry[stat], entry[stat])))}
                      for stat in STAT_NAMES}
    versions = data_versions(o, names, scorer.tagger)
    nrefs = sorted({len(r) for r in refs})
    line = signature_line(o, versions, nrefs[0] if len(nrefs) == 1 else "varies")
    settings = {"options": o.settings(), "measures": names, "confidence": confidence,
                "resamples": resamples, "seed": seed}
    return Evaluation(names, summary, per_summary, all_stats, line, signature(settings, versions),
                      confidence, resamples, seed, o)
