"""Corpus scoring in a stream: per-pair statistics and scores kept in flat arrays.

:class:`PairColumns` holds, for every pair of a corpus in input order, each
measure's recall, precision and F (``array('d')``, the floats the per-pair
:class:`~rouge2.stats.prf.Score` objects hold) and, when asked, its
statistics against each reference (hits, reference and candidate totals:
``array('i')`` counts, ``array('d')`` for ROUGE-W's weighted values).  A
million pairs of ROUGE-1/2/L take about 110 MB this way, against several GB
as objects; :meth:`PairColumns.scores` and :meth:`PairColumns.stats` build
the objects of one pair on demand.

:class:`CorpusStream` scores chunks of ``(candidate, references)`` pairs as
they arrive (the batch kernels when the settings allow it, the per-pair path
otherwise, the same numbers either way) and appends them to the columns; the
texts of a chunk are dropped once it is scored.  ``sink`` receives each
chunk's per-pair objects (``rouge2 score --per-summary`` writes them as they
come).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from operator import itemgetter
from typing import Any

from rouge2.kernels import int_column
from rouge2.measures.base import PairStats
from rouge2.measures.lcs import WLCS
from rouge2.scoring.batch import CHUNK, PYTHON_LOCK, batch_plan, ordered_map, per_pair_scores
from rouge2.stats.prf import Score
from rouge2.synonyms.explain import MatchTable, coverage

#: the three statistics of a reference entry, in PairStats order
_STAT_FIELDS = 3
_PRECISION, _RECALL, _FMEASURE = (itemgetter(Score._fields.index(f)) for f in ("precision", "recall", "fmeasure"))


def _float_array(vals: Any) -> array:
    """``vals`` (a float64 buffer or a list of numbers) as an ``array('d')``."""
    if isinstance(vals, list):
        return array("d", vals)
    out = array("d")
    out.frombytes(memoryview(vals).cast("B"))
    return out


def _whole(part: array) -> list[Any]:
    """The values of a count column: ints, or the floats as they are when one
    is not a whole number (the column then becomes ``'d'``)."""
    values = part.tolist()
    return [int(v) for v in values] if all(v.is_integer() for v in values) else values


def _grow(col: array, values: Iterable[Any]) -> array:
    """``col`` extended by ``values``: an ``'i'`` column becomes ``'q'`` for a
    count beyond 32 bits and ``'d'`` for a non-integer value (returned; the
    caller keeps the column it gets back)."""
    values = list(values)
    if col.typecode != "d":
        if all(type(v) is int for v in values):
            size = len(col)
            try:
                col.extend(values)
                return col
            except OverflowError:
                del col[size:]  # undo the values extended before the one that did not fit
                if col.typecode == "i":
                    return _grow(array("q", col), values)
                raise
        col = array("d", col)
    col.extend(values)
    return col


class PairColumns:
    """Per pair and measure: P, R, F and (optionally) the statistics, as flat arrays."""

    def __init__(self, names: Sequence[str], keep_stats: bool = True):
        self.names = tuple(names)
        self.n = 0
        #: per measure: recall, precision and F of each pair, in input order
        self.recall = {m: array("d") for m in self.names}
        self.precision = {m: array("d") for m in self.names}
        self.fmeasure = {m: array("d") for m in self.names}
        self.keep_stats = keep_stats
        #: per measure: hit, ref_total, cand_total of each reference entry
        self._stats: dict[str, list[array]] = {m: [array("i") for _ in range(_STAT_FIELDS)]
                                                for m in self.names}
        #: entry offsets of the pairs (None while every pair has one reference)
        self._ref_starts: array | None = None
        self._entries = 0

    def __len__(self) -> int:
        return self.n

    def __eq__(self, other: object) -> bool:
        """Equal when every pair has the same scores (and statistics, when both keep them)."""
        if not isinstance(other, PairColumns):
            return NotImplemented
        if self.names != other.names or len(self) != len(other):
            return False
        same = all(self.scores(i) == other.scores(i) for i in range(len(self)))
        if same and self.keep_stats and other.keep_stats:
            same = all(self.stats(i) == other.stats(i) for i in range(len(self)))
        return same

    __hash__ = None  # type: ignore[assignment]

    # -- filling --------------------------------------------------------
    def add_scores(self, scores: Sequence[dict[str, Score]]) -> None:
        for m in self.names:
            per = list(map(itemgetter(m), scores))  # Score tuples: (precision, recall, fmeasure)
            self.precision[m].extend(map(_PRECISION, per))
            self.recall[m].extend(map(_RECALL, per))
            self.fmeasure[m].extend(map(_FMEASURE, per))
        self.n += len(scores)

    def _add_counts(self, counts: Sequence[int]) -> None:
        """Pair entry counts (references per pair) of the pairs just added."""
        if self._ref_starts is None and any(c != 1 for c in counts):
            start = self._entries
            self._ref_starts = array("q", range(start + 1))
        if self._ref_starts is not None:
            starts = self._ref_starts
            for c in counts:
                starts.append(starts[-1] + c)
        self._entries += sum(counts)

    def add_prf(self, values: bytes, npairs: int) -> None:
        """P, R and F of ``npairs`` pairs as :func:`rouge2.stats.prf.prf_values`
        lays them out (float64, three per pair and measure): the same floats
        as :meth:`add_scores` of their :class:`Score` objects, without them."""
        flat = array("d")
        flat.frombytes(values)
        step = 3 * len(self.names)
        for k, m in enumerate(self.names):
            self.precision[m].extend(flat[3 * k::step])
            self.recall[m].extend(flat[3 * k + 1::step])
            self.fmeasure[m].extend(flat[3 * k + 2::step])
        self.n += npairs

    def add_flat(self, vals: Any, ref_starts: Sequence[int], ints: Sequence[bool]) -> None:
        """The statistics of a batch chunk: ``vals`` (float64) laid out as
        :class:`~rouge2.scoring.batch.StatsChunk` lays them (four values per
        entry and measure), ``ints[k]``: measure ``k`` counts in integers."""
        if not self.keep_stats:
            return
        m = len(self.names)
        step = 4 * m
        floats = _float_array(vals)
        for k, name in enumerate(self.names):
            cols = self._stats[name]
            for f in range(_STAT_FIELDS):
                col = cols[f]
                packed = int_column(floats, 4 * k + f, step) if ints[k] and col.typecode == "i" else None
                if packed is not None:
                    col.frombytes(packed)
                else:
                    part = floats[4 * k + f::step]
                    cols[f] = _grow(col, part.tolist() if not ints[k] else _whole(part))
        self._add_counts([ref_starts[p + 1] - ref_starts[p] for p in range(len(ref_starts) - 1)])

    def add_objects(self, stats: Sequence[dict[str, list[PairStats]]]) -> None:
        """The statistics of pairs scored one by one (``{name: [PairStats per reference]}``)."""
        if not self.keep_stats:
            return
        for name in self.names:
            cols = self._stats[name]
            for f in range(_STAT_FIELDS):
                cols[f] = _grow(cols[f], [s[f] for per in stats for s in per[name]])
        self._add_counts([len(per[self.names[0]]) for per in stats] if self.names else [])

    # -- reading --------------------------------------------------------
    def scores(self, i: int) -> dict[str, Score]:
        """Pair ``i``'s ``{measure: Score}`` (the floats it was scored with)."""
        return {m: Score(self.precision[m][i], self.recall[m][i], self.fmeasure[m][i]) for m in self.names}

    def stats(self, i: int) -> dict[str, list[PairStats]]:
        """Pair ``i``'s ``{measure: [PairStats against each reference]}``."""
        if not self.keep_stats:
            raise ValueError("these columns were filled without statistics (keep_stats=False)")
        starts = self._ref_starts
        e0, e1 = (i, i + 1) if starts is None else (starts[i], starts[i + 1])
        make = tuple.__new__
        return {m: [make(PairStats, (h[e], r[e], c[e])) for e in range(e0, e1)]
                for m, (h, r, c) in self._stats.items()}


def _chunks(pairs: Iterable[tuple[Any, Any]], size: int) -> Iterator[list]:
    it = iter(pairs)
    while True:
        chunk = list(islice(it, size))
        if not chunk:
            return
        yield chunk


class CorpusStream:
    """Scores chunks of pairs into :class:`PairColumns` with one scorer.

    ``sink(scores, stats)``, when given, receives each chunk's per-pair
    ``{name: Score}`` and ``{name: [PairStats]}`` dicts in order.  With
    ``explain``, pairs are scored one by one noting the synonym pairs each
    measure's matching used (:meth:`explained`; docs/synonym-experiments.md)."""

    def __init__(self, scorer, measures: Any = None, keep_stats: bool = True,
                 sink: Callable[[list, list], None] | None = None, explain: bool = False):
        self.scorer = scorer
        self.plan = batch_plan(scorer, measures)
        self.columns = PairColumns(list(scorer.measures), keep_stats)
        self.sink = sink
        self._ints = [not isinstance(m, WLCS) for m in scorer.measures.values()]
        self.explain = explain
        #: pairs scored at a time by :meth:`feed` (the module's CHUNK when made)
        self.chunk = CHUNK
        #: the synonym matches used (None unless explaining a scorer with synonyms)
        self.matches = MatchTable() if explain and scorer.relation is not None and scorer.synonyms is not None \
            else None
        self._words: set[str] = set()

    def add(self, pairs: list) -> None:
        """Score ``pairs`` (a list of ``(candidate, references)``) and append them."""
        self._append(pairs, self._counted(pairs))

    def _counted(self, pairs: list) -> Any:
        """The batch kernels' :class:`~rouge2.scoring.batch.Chunk` of ``pairs``
        (None: they go the per-pair way); safe to run in several threads."""
        if self.matches is not None or self.plan is None:
            return None
        return self.plan.chunk(pairs)

    def _append(self, pairs: list, res: Any) -> None:
        """Append ``pairs`` scored from ``res`` (or pair by pair when None)."""
        scorer, cols, plan = self.scorer, self.columns, self.plan
        if res is None:
            with PYTHON_LOCK:
                if scorer.tagger is not None:
                    scorer.prefetch([*(c for c, _ in pairs),
                                     *(x for _, r in pairs for x in ([r] if isinstance(r, str) else r))])
                scores, stats = self._explained_chunk(pairs) if self.matches is not None else \
                    per_pair_scores(scorer, pairs)
            cols.add_scores(scores)
            cols.add_objects(stats)
        else:
            assert plan is not None
            values = plan.prf_values(res) if self.sink is None else None
            if values is not None:  # no objects: the floats go straight to the columns
                scores = []
                cols.add_prf(values, len(res.ref_starts) - 1)
            else:
                scores = plan.scores(res)
                cols.add_scores(scores)
            if cols.keep_stats:
                cols.add_flat(plan.full_stats(res), res.ref_starts, self._ints)
            stats = plan.stats_dicts(res) if self.sink is not None else []
        if self.sink is not None:
            self.sink(scores, stats)

    def _explained_chunk(self, pairs: list) -> tuple[list[dict[str, Score]], list[dict[str, list[PairStats]]]]:
        """``pairs`` scored one by one, their synonym matches noted (``example_task``:
        the pair's 1-based number in the stream)."""
        assert self.matches is not None
        scorer, table = self.scorer, self.matches
        scores, stats = [], []
        first = len(self.columns) + 1
        for i, (c, r) in enumerate(pairs):
            per_measure, matches, seen = scorer.explained_stats(c, r)
            self._words.update(seen)
            for m, log in matches.items():
                table.add(None, m, log, str(first + i), "")
            sc, st = scorer.combined(per_measure)
            scores.append(sc)
            stats.append(st)
        return scores, stats

    def explained(self) -> dict[str, Any]:
        """The :class:`~rouge2.scoring.evaluate.Evaluation` fields ``synonym_matches`` and
        ``synonym_coverage`` (empty when nothing could fire; none without ``explain``)."""
        if not self.explain:
            return {}
        if self.matches is None:
            return {"synonym_matches": [], "synonym_coverage": []}
        return {"synonym_matches": self.matches.rows(measures=list(self.scorer.measures)),
                "synonym_coverage": coverage(self.scorer.synonyms, self._words, self.matches.pairs(None))}

    def feed(self, pairs: Iterable[tuple[Any, Any]], chunk: int | None = None,
             tick: Callable[[int], None] | None = None, threads: int = 1) -> PairColumns:
        """Score every pair of ``pairs`` (any iterable; held ``chunk`` pairs at a
        time, default :data:`~rouge2.scoring.batch.CHUNK`; ``threads`` chunks
        counted at a time, appended in order: the same numbers)."""
        return self.feed_chunks(_chunks(pairs, chunk or self.chunk), tick, threads)

    def feed_chunks(self, chunks: Iterable[list], tick: Callable[[int], None] | None = None,
                    threads: int = 1) -> PairColumns:
        """:meth:`feed` of pairs that come as lists (chunks), each scored as one."""
        def counted(part: list) -> tuple[list, Any]:
            return part, self._counted(part)

        for part, res in ordered_map(counted, chunks, threads):
            self._append(part, res)
            if tick is not None:
                tick(len(part))
        return self.columns
