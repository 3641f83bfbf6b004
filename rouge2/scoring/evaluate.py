"""Corpus evaluation: predictions against references, means with intervals, a signature.

>>> result = rouge2.evaluate(predictions, references, measures=["rouge-1", "rouge-l"])
>>> result["rouge-1"]["fmeasure"]["mean"], result["rouge-1"]["fmeasure"]["ci"]
(0.4321..., (0.41..., 0.45...))

The corpus score of a measure is the plain mean over summaries of each
summary's recall, precision and F, and its interval a seeded percentile
bootstrap over summaries (:func:`rouge2.stats.aggregate.summarize`, the same
code ``rouge2 run`` uses for system scores).  ROUGE-1.5.5 prints instead the
mean of its bootstrap resample means (``Average_R/P/F``), which can differ in
the 4th decimal: ``rouge2 score --average rouge155`` prints those
(docs/scoring.md#definitions).

With more than one reference per prediction and no ``multi_reference``
given, :func:`evaluate` warns once (:class:`MultiReferenceNote`) that the
references are pooled as ROUGE-1.5.5 does, and how to choose them as
rouge-score does.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from rouge2 import schemas
from rouge2.errors import UserError
from rouge2.measures.base import PairStats
from rouge2.scoring.batch import CHUNK, batch_plan, check_threads, per_pair_scores
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

    def system_entry(self, name: str) -> dict[str, Any]:
        """``{"name", "n", "scores": {measure: {stat: {"mean", "ci"}}}}``: one
        system of a ``rouge2.score/1`` document (``ci`` is None without resamples)."""
        scores = {m: {s: {"mean": v["mean"], "ci": list(v["ci"]) if self.resamples else None}
                      for s, v in per.items()} for m, per in self.scores.items()}
        return {"name": name, "n": len(self.per_summary), "scores": scores}

    def document(self, systems: Sequence[dict[str, Any]], comparisons: Sequence[dict[str, Any]] = (),
                 *, mode: str = "corpus", average: str = "mean") -> dict[str, Any]:
        """A ``rouge2.score/1`` document with this evaluation's settings
        (every system of it scored with them)."""
        return schemas.score_document(
            signature=self.signature, mode=mode, measures=self.measures,
            multi_reference=str(self.options.multi_reference), average=average,
            confidence=self.confidence if self.resamples else None, resamples=self.resamples,
            seed=self.seed, systems=systems, comparisons=comparisons)

    def to_dict(self, name: str = "predictions") -> dict[str, Any]:
        """What ``rouge2 score --json`` prints for one system called ``name``:
        a ``rouge2.score/1`` document (docs/scoring.md#json)."""
        return self.document([self.system_entry(name)])

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    def to_dataframe(self) -> Any:  # a pandas.DataFrame; pandas is optional and untyped here
        """Per-summary scores as a pandas DataFrame (one row per summary;
        columns ``<measure>/<precision|recall|fmeasure>``); needs pandas."""
        try:
            import pandas as pd  # optional: only this method needs it
        except ImportError:
            raise UserError("to_dataframe needs pandas: pip install pandas") from None
        rows = [{f"{m}/{stat}": getattr(s, stat) for m, s in per.items() for stat in STAT_NAMES}
                for per in self.per_summary]
        return pd.DataFrame(rows, columns=[f"{m}/{s}" for m in self.measures for s in STAT_NAMES])

    def __repr__(self) -> str:
        parts = ", ".join(f"{m}: F {v['fmeasure']['mean']:.5f}" for m, v in self.scores.items())
        return f"<Evaluation of {len(self)} summaries: {parts}>"


def _references(predictions: list[Any], references: Any) -> list[list[Any]]:
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


class MultiReferenceNote(UserWarning):
    """:func:`evaluate` combined several references per prediction with the
    default ``multi_reference`` mode; the message says how to get rouge-score's."""


#: what each mode does, for the note
_MODE_MEANS = {"pooled": "ROUGE-1.5.5's -f A: hits and counts added over the references",
               "best": "ROUGE-1.5.5's -f B: the reference with the best recall",
               "average": "the Java ROUGE 2.0's: P and R averaged over the references",
               "max-f": "rouge-score's: the reference with the highest F"}


def multi_reference_note(mode: str, nrefs: int | str, how: str) -> str:
    """The one-line note shown when ``nrefs`` (> 1, or ``"up to N"``) references
    per prediction are combined with ``mode`` that the user did not choose;
    ``how`` says how to choose rouge-score's mode at this door."""
    means = _MODE_MEANS.get(mode, mode)
    return (f"{nrefs} references per prediction are combined with multi_reference {mode!r} ({means}); "
            f"rouge-score and Hugging Face evaluate keep the reference with the highest F instead: "
            f"{how} (rouge2 docs migrating)")


def reference_counts(refs: Sequence[Sequence[Any]]) -> int | str | None:
    """How many references the predictions have, for the note: an int when all
    have the same number, ``"up to N"`` when they differ, None when none has more than one."""
    counts = {len(r) for r in refs}
    top = max(counts, default=1)
    if top < 2:
        return None
    return top if len(counts) == 1 else f"up to {top}"


def _pair_scores(scorer: Scorer, measures: Any, pairs: list[Any], phase: Any,
                 threads: int = 1) -> Iterator[tuple[list[dict[str, Score]], list[dict[str, Any]]]]:
    """``(scores, stats)`` of ``pairs``, chunk by chunk (``threads`` at a
    time), ticking ``phase``."""
    plan = batch_plan(scorer, measures)
    parts = plan.iter_stats(pairs, threads=threads) if plan is not None else (
        per_pair_scores(scorer, pairs[i:i + CHUNK]) for i in range(0, len(pairs), CHUNK))
    for scores, stats in parts:
        if phase is not None:
            phase.tick(len(scores))
        yield scores, stats


def _phase(progress: Any, name: str, total: int, unit: str):
    """A progress phase (:class:`rouge2.run.progress.Phase`), or None without ``progress``."""
    return progress.phase(name, total, unit) if progress is not None else None


def evaluate(predictions: Sequence[Any], references: Sequence[Any],
             measures: Sequence[str] = DEFAULT_MEASURES, *, confidence: float = 0.95,
             resamples: int = 1000, seed: int = 0, options: Options | None = None,
             progress: Any = None, threads: int = 1, **kwargs: Any) -> Evaluation:
    """Score ``predictions`` against ``references`` and summarise the corpus.

    ``references[i]`` is the reference text of ``predictions[i]``, or a list of
    reference texts.  Options are the keywords of :class:`rouge2.Options`
    (``stem=True``, ``sentences="splitter"``, ``multi_reference="best"``, ...).
    ``resamples=0`` gives means without intervals (each ``ci`` is None).  ``progress``: a
    :class:`rouge2.run.progress.Progress` for bars on stderr (scoring, then
    bootstrap).  ``threads``: score that many chunks of pairs at a time (the
    same numbers).
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
    nrefs = reference_counts(refs)
    if nrefs is not None and options is None and "multi_reference" not in kwargs:
        warnings.warn(multi_reference_note(o.multi_reference, nrefs, 'pass multi_reference="max-f"'),
                      MultiReferenceNote, stacklevel=2)
    if scorer.tagger is not None:
        scorer.prefetch([*preds, *(x for r in refs for x in r)])
    per_summary: list[dict[str, Score]] = []
    all_stats: list[dict[str, list[PairStats]]] = []
    phase = _phase(progress, "scoring", len(preds), "summaries")
    for scores, stats in _pair_scores(scorer, measures, list(zip(preds, refs)), phase, threads):
        per_summary.extend(scores)
        all_stats.extend(stats)
    if phase is not None:
        phase.close()
    names = list(scorer.measures)
    summary = _summary(names, per_summary, confidence, resamples, seed,
                       _phase(progress, "bootstrap", len(names), "measures") if resamples else None)
    versions = data_versions(o, names, scorer.tagger)
    counts = sorted({len(r) for r in refs})
    line = signature_line(o, versions, counts[0] if len(counts) == 1 else "varies")
    settings = {"options": o.settings(), "measures": names, "confidence": confidence,
                "resamples": resamples, "seed": seed}
    return Evaluation(names, summary, per_summary, all_stats, line, signature(settings, versions),
                      confidence, resamples, seed, o)


def _summary(names: list[str], per_summary: list[dict[str, Score]], confidence: float, resamples: int,
             seed: int, phase: Any) -> dict[str, dict[str, dict[str, Any]]]:
    """Per measure and score: the mean and its bootstrap interval."""
    summary = {}
    for m in names:
        entry = summarize([s[m] for s in per_summary], resamples=resamples or None,
                          confidence=confidence, seed=seed, label=m)
        ci = entry.get("ci", {})
        # resamples=0: means only, no interval (None, not a zero-width interval)
        summary[m] = {stat: {"mean": entry[stat], "ci": tuple(ci[stat]) if stat in ci else None}
                      for stat in STAT_NAMES}
        if phase is not None:
            phase.tick()
    if phase is not None:
        phase.close()
    return summary
