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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import count, islice
from typing import Any

from rouge2 import schemas
from rouge2.errors import UserError
from rouge2.measures.base import PairStats
from rouge2.scoring.batch import check_threads
from rouge2.scoring.checks import check_text
from rouge2.scoring.options import Options
from rouge2.scoring.scorer import DEFAULT_MEASURES, Scorer
from rouge2.scoring.signature import data_versions, signature, signature_line
from rouge2.scoring.stream import CorpusStream, PairColumns
from rouge2.stats.aggregate import STAT_NAMES, summarize_columns
from rouge2.stats.prf import Score


@dataclass
class Evaluation:
    """What :func:`evaluate` computed.

    ``result[measure][stat]`` is ``{"mean": m, "ci": (low, high)}`` for
    ``stat`` in ``precision``, ``recall``, ``fmeasure``; ``per_summary`` holds
    each summary's :class:`~rouge2.stats.prf.Score` per measure, and
    ``stats`` its statistics against each reference.  Both are built from
    ``columns`` (:class:`~rouge2.scoring.stream.PairColumns`, flat arrays) the
    first time they are read; a corpus that is only summarised never holds
    a per-pair object.
    """

    measures: list[str]
    scores: dict[str, dict[str, dict[str, Any]]]
    columns: PairColumns = field(repr=False)
    signature: str
    signature_data: dict[str, Any]
    confidence: float
    resamples: int
    seed: int
    options: Options = field(repr=False, default_factory=Options)
    #: with ``explain_synonyms=True``: the rows of ``synonym_matches.csv``
    #: (``example_task`` is the prediction's 1-based number; ``example_system`` empty)
    synonym_matches: list[dict[str, Any]] | None = field(repr=False, default=None)
    #: with ``explain_synonyms=True``: per synonym source, its words, those in the data, those that fired
    synonym_coverage: list[dict[str, Any]] | None = field(repr=False, default=None)

    @property
    def per_summary(self) -> list[dict[str, Score]]:
        """Each summary's ``{measure: Score}``, in input order (built on first access)."""
        built = self.__dict__.get("_per_summary")
        if built is None:
            cols = self.columns
            built = self.__dict__["_per_summary"] = [cols.scores(i) for i in range(len(cols))]
        return built

    @property
    def stats(self) -> list[dict[str, list[PairStats]]]:
        """Each summary's ``{measure: [PairStats against each reference]}`` (built on first access)."""
        built = self.__dict__.get("_stats")
        if built is None:
            cols = self.columns
            if not cols.keep_stats:
                raise UserError("this evaluation kept no per-pair statistics (evaluate(..., keep_stats=False)): "
                                "score again without keep_stats=False, or use rouge2.corpus_stats")
            built = self.__dict__["_stats"] = [cols.stats(i) for i in range(len(cols))]
        return built

    def __getitem__(self, measure: str) -> dict[str, dict[str, Any]]:
        from rouge2.measures import canonical_measure

        return self.scores[canonical_measure(measure)]

    def __len__(self) -> int:
        return len(self.columns)

    def system_entry(self, name: str) -> dict[str, Any]:
        """``{"name", "n", "scores": {measure: {stat: {"mean", "ci"}}}}``: one
        system of a ``rouge2.score/1`` document (``ci`` is None without resamples)."""
        scores = {m: {s: {"mean": v["mean"], "ci": list(v["ci"]) if self.resamples else None}
                      for s, v in per.items()} for m, per in self.scores.items()}
        return {"name": name, "n": len(self.columns), "scores": scores}

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


def _reference_list(r: Any, i: int) -> list[Any]:
    """``references[i]`` as a list of texts (a text each, or a tuple of sentences)."""
    if isinstance(r, str):
        return [r]
    if isinstance(r, (list, tuple)):
        if not r:
            raise ValueError(f"references[{i}] is empty: give at least one reference text")
        return [check_text(x, f"references[{i}][{j}]") for j, x in enumerate(r)]
    check_text(r, f"references[{i}]")
    raise TypeError(f"references[{i}] must be a text or a list of texts")  # pragma: no cover


def _count_error(n_preds: int | str, n_refs: int | str, hint: str = "") -> ValueError:
    return ValueError(f"{n_preds} predictions but {n_refs} references: give one "
                      f"reference (or a list of references) per prediction{hint}")


def _check_sequences(predictions: Sequence[Any], references: Sequence[Any]) -> None:
    """Lists (anything with a length) are checked whole before scoring, as
    they always were: the counts, then every reference, then every prediction."""
    if len(references) != len(predictions):
        hint = ""
        if predictions and all(isinstance(p, (list, tuple)) for p in predictions) and \
                all(isinstance(r, str) for r in references):
            hint = "; the arguments look swapped: evaluate(predictions, references)"
        raise _count_error(len(predictions), len(references), hint)
    for i, r in enumerate(references):
        _reference_list(r, i)
    for i, p in enumerate(predictions):
        check_text(p, f"predictions[{i}]")


def _checked_chunks(predictions: Iterable[Any], references: Iterable[Any], counts: set[int],
                    size: int) -> Iterator[list[tuple[Any, Any]]]:
    """``(prediction, [references])`` pairs, ``size`` at a time, each chunk
    checked as it comes (an iterator is read once, a chunk at a time);
    ``counts`` collects the numbers of references per prediction.  The
    errors are those of checking pair after pair: the first bad pair's,
    then a count mismatch."""
    if isinstance(references, str):
        raise TypeError("references must be a list with one entry per prediction (a text, or a "
                        "list of texts when there are several references)")
    preds, refs = iter(predictions), iter(references)
    done = 0
    while True:
        ps, rs = list(islice(preds, size)), list(islice(refs, size))
        if not ps and not rs:
            break
        if set(map(type, ps)) == {str} and set(map(type, rs)) == {str} and len(ps) == len(rs):
            counts.add(1)  # the common case: texts against one text each
            yield list(zip(ps, rs))
        else:
            checked = _checked_chunk(ps, rs, done, counts)
            if len(ps) != len(rs):
                n = done + min(len(ps), len(rs))
                longer = done + max(len(ps), len(rs)) + sum(1 for _ in (refs if len(rs) > len(ps) else preds))
                raise _count_error(n if len(ps) < len(rs) else longer, longer if len(ps) < len(rs) else n)
            yield checked
        done += len(ps)
    if not counts:
        raise ValueError("predictions is empty: give at least one text to score")


def _checked_chunk(ps: list[Any], rs: list[Any], done: int, counts: set[int]) -> list[tuple[Any, Any]]:
    """The pairs of ``ps`` and ``rs`` (as far as both go) checked one by one
    (``done``: the pairs before them)."""
    out = []
    for n, p, r in zip(count(done), ps, rs):
        if type(r) is str:  # one reference: the text itself (as every door takes it)
            counts.add(1)
        else:
            r = _reference_list(r, n)
            counts.add(len(r))
        out.append(((p if type(p) is str else check_text(p, f"predictions[{n}]")), r))
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


def reference_counts(counts: Iterable[int]) -> int | str | None:
    """How many references the predictions have, for the note, from the
    numbers of references seen: an int when all have the same number,
    ``"up to N"`` when they differ, None when none has more than one."""
    counts = set(counts)
    top = max(counts, default=1)
    if top < 2:
        return None
    return top if len(counts) == 1 else f"up to {top}"


def _phase(progress: Any, name: str, total: int | None, unit: str) -> Any:
    """A progress phase (:class:`rouge2.run.progress.Phase`), or None without ``progress``."""
    return progress.phase(name, total, unit) if progress is not None else None


def evaluate(predictions: Iterable[Any], references: Iterable[Any],
             measures: Sequence[str] = DEFAULT_MEASURES, *, confidence: float = 0.95,
             resamples: int = 1000, seed: int = 0, options: Options | None = None,
             progress: Any = None, keep_stats: bool = True, explain_synonyms: bool = False,
             threads: int = 1, **kwargs: Any) -> Evaluation:
    """Score ``predictions`` against ``references`` and summarise the corpus.

    ``references[i]`` is the reference text of ``predictions[i]``, or a list of
    reference texts.  Options are the keywords of :class:`rouge2.Options`
    (``stem=True``, ``sentences="splitter"``, ``multi_reference="best"``, ...).
    ``resamples=0`` gives means without intervals (each ``ci`` is None).  ``progress``: a
    :class:`rouge2.run.progress.Progress` for bars on stderr (scoring, then
    bootstrap).  ``explain_synonyms``: note which synonym pairs the
    matchings used and each synonym source's coverage
    (:attr:`Evaluation.synonym_matches`, :attr:`Evaluation.synonym_coverage`;
    docs/synonym-experiments.md).  ``threads``: count that many chunks of
    pairs at a time (the same numbers).

    Lists are checked whole first; iterators (generators, files) are read
    once, a chunk at a time, so memory does not hold the texts: the pairs'
    scores and statistics are kept in flat arrays (``result.columns``) and
    ``result.per_summary`` / ``result.stats`` become objects only when read.
    ``keep_stats=False`` keeps no statistics (``result.stats`` is then an
    error): less memory and time for a corpus that is only summarised.
    """
    if isinstance(predictions, str):
        raise TypeError("predictions must be a list of texts, not one text")
    sized = hasattr(predictions, "__len__") and hasattr(references, "__len__")
    if sized and not len(predictions):  # type: ignore[arg-type]
        raise ValueError("predictions is empty: give at least one text to score")
    if sized and isinstance(references, str):
        raise TypeError("references must be a list with one entry per prediction (a text, or a "
                        "list of texts when there are several references)")
    if sized:
        _check_sequences(predictions, references)  # type: ignore[arg-type]
    check_settings(confidence, resamples)
    threads = check_threads(threads)
    scorer = Scorer(measures, options=options, **kwargs)
    o = scorer.options
    counts: set[int] = set()
    phase = _phase(progress, "scoring", len(predictions) if sized else None,  # type: ignore[arg-type]
                   "summaries")
    stream = CorpusStream(scorer, measures, keep_stats=keep_stats, explain=explain_synonyms)
    chunks = _checked_chunks(predictions, references, counts, stream.chunk)
    tick = phase.tick if phase is not None else None
    columns = stream.feed_chunks(chunks, tick=tick, threads=threads)
    if phase is not None:
        phase.close()
    nrefs = reference_counts(counts)
    if nrefs is not None and options is None and "multi_reference" not in kwargs:
        warnings.warn(multi_reference_note(o.multi_reference, nrefs, 'pass multi_reference="max-f"'),
                      MultiReferenceNote, stacklevel=2)
    return evaluation_of(scorer, columns, counts, confidence=confidence, resamples=resamples, seed=seed,
                         progress=progress, **stream.explained())



def check_settings(confidence: float, resamples: int) -> None:
    """A one-line error for an interval confidence outside (0, 1) or a bad resample count."""
    if not (0.0 < confidence < 1.0):
        raise UserError(f"confidence must be between 0 and 1 (e.g. 0.95), got {confidence!r}")
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 0:
        raise UserError(f"resamples must be a whole number >= 0, got {resamples!r}")


def evaluation_of(scorer: Scorer, columns: PairColumns, counts: set[int], *, confidence: float = 0.95,
                  resamples: int = 1000, seed: int = 0, progress: Any = None, **explained: Any) -> Evaluation:
    """The :class:`Evaluation` of pairs scored into ``columns`` by ``scorer``
    (``counts``: the numbers of references per prediction seen): means,
    intervals and the signature."""
    o = scorer.options
    names = list(scorer.measures)
    summary = _summary(names, columns, confidence, resamples, seed,
                       _phase(progress, "bootstrap", resamples, "resamples") if resamples else None)
    versions = data_versions(o, names, scorer.tagger)
    ordered = sorted(counts)
    line = signature_line(o, versions, ordered[0] if len(ordered) == 1 else "varies")
    settings = {"options": o.settings(), "measures": names, "confidence": confidence,
                "resamples": resamples, "seed": seed}
    return Evaluation(names, summary, columns, line, signature(settings, versions),
                      confidence, resamples, seed, o, **explained)


def _summary(names: list[str], columns: PairColumns, confidence: float, resamples: int,
             seed: int, phase: Any) -> dict[str, dict[str, dict[str, Any]]]:
    """Per measure and score: the mean and its bootstrap interval (one paired
    bootstrap for every measure and score)."""
    entries = summarize_columns(
        {m: {"recall": columns.recall[m], "precision": columns.precision[m], "fmeasure": columns.fmeasure[m]}
         for m in names},
        resamples=resamples or None, confidence=confidence, seed=seed,
        tick=phase.tick if phase is not None else None)
    summary = {}
    for m in names:
        entry = entries[m]
        ci = entry.get("ci", {})
        # resamples=0: means only, no interval (None, not a zero-width interval)
        summary[m] = {stat: {"mean": entry[stat], "ci": tuple(ci[stat]) if stat in ci else None}
                      for stat in STAT_NAMES}
    if phase is not None:
        phase.close()
    return summary
