"""Scoring for ``rouge2 rouge155``: the script's evaluation loop.

For every system (sorted IDs with ``-a``), every measure in the script's
order (ROUGE-1..N, L unless ``-x``, W-<w> with ``-w``, S/SU with ``-2``)
and every evaluation, the system summary is scored against each model
summary, the per-model statistics are combined (``-f A`` sums them,
``-f B`` keeps the best model, the first one on ties), and the
per-evaluation R, P, F are rounded like the script (``%7.5f``; F from the
rounded R and P).  Averages and intervals come from
:func:`rouge2.stats.bootstrap.script_averages`.

Every distinct file is read and analysed once per run (once per worker
process with ``--jobs``), however many systems and measures use it.  When
the options allow the batch path (no ``-l``/``-b`` limit; see
:func:`rouge2.scoring.batch.batch_plan`), a system's statistics under every
measure and evaluation are counted at its first unit, in one go, and its
other units only combine them.

Known differences from ROUGE-1.5.5.pl (where the script dies or is
undefined):

* ROUGE-W with an empty model summary: the script stops with "Illegal
  division by zero"; rouge2 scores that model 0 (recall 0) and goes on.
* ``-r 0`` (no resamples): the script divides by zero; rouge2 reports a
  one-line error.
* "readText: PATH -> empty text" warnings are printed once per file, not
  every time the script re-reads the file.
* Per-evaluation lines whose evaluation IDs tie on their leading number
  (e.g. "1a" and "1b") are printed in string order; the script's order is
  then random.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from rouge2.config.rouge155_args import Options
from rouge2.errors import UserError
from rouge2.io.formats155 import flat_text_undefined, read_sentences
from rouge2.io.report155 import format_results
from rouge2.io.rouge155 import Settings
from rouge2.measures import canonical_measure
from rouge2.measures.base import PairStats
from rouge2.measures.lcs import WLCS
from rouge2.run import parallel
from rouge2.run.parallel import Workers
from rouge2.scoring.batch import CHUNK, batch_plan
from rouge2.scoring.options import Options as LibraryOptions
from rouge2.scoring.scorer import Scorer
from rouge2.stats.bootstrap import script_averages
from rouge2.stats.combine import combine, combined_stats, entry_stats
from rouge2.stats.prf import Score


def measure_plan(o: Options) -> list[tuple[str, str]]:
    """(report tag, measure name) in the script's order."""
    plan = []
    for n in range(1, o.ngram_max + 1):
        plan.append((f"ROUGE-{n}", f"rouge-{n}"))
    if o.compute_lcs:
        plan.append(("ROUGE-L", "rouge-l"))
    if o.weight is not None:
        plan.append((f"ROUGE-W-{o.weight_text}", f"rouge-w-{o.weight!r}"))
    if o.skip_distance is not None:
        sd = o.skip_distance
        if sd >= 0:
            # the script pairs words j > i with j <= i + sd + 1
            gap = str(math.floor(sd)) if not math.isinf(sd) else "*"
            s = (f"ROUGE-S{o.skip_text}", f"rouge-s{gap}")
            su = (f"ROUGE-SU{o.skip_text}", f"rouge-su{gap}")
            if o.su_only:
                plan.append(su)
            elif o.s_and_su:
                plan += [s, su]
            else:
                plan.append(s)
        else:
            if o.su_only:
                plan.append(("ROUGE-SU*", "rouge-su*"))
            else:
                plan.append(("ROUGE-S*", "rouge-s*"))
                if o.s_and_su:
                    plan.append(("ROUGE-SU*", "rouge-su*"))
    return plan


def library_options(o: Options) -> LibraryOptions:
    """The library options this command line stands for (every door shares them)."""
    if o.language != "none":  # --language: the preset's tokenizer; -m, -s its stemmer and list
        preset: dict = {"language": o.language, "stem": bool(o.stem), "stopwords": bool(o.remove_stopwords)}
    else:
        preset = {"tokenizer": "rouge155", "stem": "rouge155" if o.stem else "none",
                  "stopwords": "smart" if o.remove_stopwords else "none"}
    return LibraryOptions.make(
        **preset,
        word_limit=o.word_limit,
        byte_limit=o.byte_limit,
        multi_reference="best" if o.score_mode == "B" else "pooled",
        alpha=o.alpha,
        rounding="rouge155",
    )


class Engine:
    """Runs one ``rouge155`` invocation, emitting report lines as it goes."""

    def __init__(
        self,
        options: Options,
        settings: Settings,
        emit: Callable[[str], None],
        warn: Callable[[str], None],
    ):
        self.o = options
        self.settings = settings
        self.emit = emit
        self.warn = warn
        plan = measure_plan(options)
        self.options = library_options(options)
        self.scorer = Scorer([name for _, name in plan], options=self.options)
        self.plan = [(tag, self.scorer.measures[canonical_measure(name)]) for tag, name in plan]
        self._texts: dict = {}
        #: per text key, its sentences as one line-per-sentence str for the
        #: batch path (None: a sentence holds a line break)
        self._raw: dict = {}
        self._batch = batch_plan(self.scorer, byte_text=True)
        if self._batch is not None:
            self._batch.warn_foreign = False  # the analyzer does not warn for these texts either
        #: (system, its batch statistics) of the last system counted
        self._system_stats: tuple | None = None
        self._missing_warned: set = set()
        self._empty_warned: set = set()

    # -- inputs ------------------------------------------------------------
    def text(self, shown: str, resolved: str, fmt: str | None):
        key = (resolved, (fmt or "").upper())
        hit = self._texts.get(key)
        if hit is None:
            sentences = read_sentences(resolved, fmt, shown)
            if shown not in self._empty_warned and flat_text_undefined(
                sentences, self.o.word_limit, self.o.byte_limit
            ):
                self._empty_warned.add(shown)
                self.warn(f"readText: {shown} -> empty text")
            hit = self._texts[key] = self.scorer.analyzer.analyze_sentences(sentences, byte_text=True)
            if self._batch is not None:
                # the batch path splits the text at line breaks and drops blank lines
                self._raw[key] = None if any("\n" in x or not x.strip() for x in sentences) \
                    else "\n".join(sentences)
        return hit

    def raw_text(self, shown: str, resolved: str, fmt: str | None) -> str | None:
        """:meth:`text`'s sentences as one str, a sentence a line (None: not possible)."""
        self.text(shown, resolved, fmt)
        return self._raw.get((resolved, (fmt or "").upper()))

    def peer_ids(self) -> list[str]:
        if self.o.all_systems:
            return sorted(self.settings.peer_ids)
        assert self.o.system_id is not None  # the options require one system without -a
        return [self.o.system_id]

    # -- scoring -------------------------------------------------------------
    def evaluate(self, measure, peer, models) -> tuple[PairStats, Score]:
        """The combined statistics and the rounded score of one evaluation."""
        pairs = [measure.stats_and_key(peer, m) for m in models]
        return self.combined(measure, [p[0] for p in pairs], [p[1] for p in pairs])

    def combined(self, measure, per_ref, keys) -> tuple[PairStats, Score]:
        """The combined statistics and the rounded score of one evaluation
        from the statistics and ``-f B`` keys against each model."""
        mode = self.options.multi_reference
        stats = combined_stats(measure, per_ref, mode, keys)
        return stats, combine(measure, per_ref, mode, self.options.alpha, keys, "rouge155")

    def system_stats(self, peer_id: str) -> list | None:
        """Through the batch path: per evaluation (None where the system has
        none), per measure of ``self.scorer``, ``(statistics, keys)`` against
        each model, as :meth:`evaluate` computes them; None when a text
        cannot go through it (the per-pair path then scores the system).
        Inputs are read, and warned about, in the order the per-pair path
        reads them."""
        plan = self._batch
        if plan is None:
            return None
        if self._system_stats is not None and self._system_stats[0] == peer_id:
            return self._system_stats[1]
        where: list = []
        pairs: list = []
        for ev in self.settings.evaluations:
            inputs = self.evaluation_inputs(ev, peer_id, raw=True)
            if inputs is None:
                where.append(None)
                continue
            peer, models = inputs
            if peer is None or any(m is None for m in models):
                return None
            where.append(len(pairs))
            pairs.append((peer, models))
        measures = plan.measures
        m = len(measures)
        ints = [not isinstance(x, WLCS) for x in measures]
        per_pair: list = []
        for start in range(0, len(pairs), CHUNK):
            res = plan.chunk_stats(pairs, start, min(start + CHUNK, len(pairs)))
            if res is None:
                return None
            stats, ref_starts = res
            for p in range(len(ref_starts) - 1):
                entry = []
                for k, meas in enumerate(measures):
                    per_ref, keys = [], []
                    for e in range(ref_starts[p], ref_starts[p + 1]):
                        st, base = entry_stats(stats, e, m, k)
                        if ints[k]:
                            st = PairStats(int(st.hit), int(st.ref_total), int(st.cand_total))
                        per_ref.append(st)
                        keys.append(meas.key_from(st, base))
                    entry.append((per_ref, keys))
                per_pair.append(entry)
        out = [None if i is None else per_pair[i] for i in where]
        self._system_stats = (peer_id, out)
        return out

    def evaluation_inputs(self, ev, peer_id, raw: bool = False):
        """(peer text, model texts) for one evaluation, or None if the system
        has no summary there (the script warns once); with ``raw``, the
        texts as :meth:`raw_text` gives them."""
        st = self.settings
        if peer_id not in ev.peers:
            key = (ev.id, peer_id)
            if key not in self._missing_warned:
                self._missing_warned.add(key)
                self.warn(
                    f"*ROUGE Warning: test instance for peer {peer_id} does not exist for evaluation {ev.id}"
                )
            return None
        model_files = []
        for path in st.model_paths(ev):
            resolved = st.resolve(path)
            if resolved is None:
                raise UserError(f"Cannot find model summary: {path}")
            model_files.append((path, resolved))
        peer_path = st.peer_path(ev, peer_id)
        peer_resolved = st.resolve(peer_path)
        if peer_resolved is None:
            raise UserError(f"Cannot open system summary: {peer_path}")
        text = self.raw_text if raw else self.text
        peer = text(peer_path, peer_resolved, ev.input_format)
        models = [text(p, r, ev.input_format) for p, r in model_files]
        return peer, models

    def units(self) -> list[tuple[str, str, object]]:
        """(system, report tag, measure) in report order: the work units."""
        return [(peer_id, tag, measure) for peer_id in self.peer_ids() for tag, measure in self.plan]

    def unit_lines(self, peer_id: str, tag: str, measure) -> list[str]:
        """Score one system under one measure over every evaluation; the
        report lines (warnings go to ``warn`` as they arise)."""
        o = self.o
        scores: dict = {}
        batched = self.system_stats(peer_id)
        k = None if batched is None or self._batch is None else self._batch.measures.index(measure)
        for i, ev in enumerate(self.settings.evaluations):
            if batched is not None:
                if batched[i] is None:
                    continue
                stats, score = self.combined(measure, *batched[i][k])
            else:
                inputs = self.evaluation_inputs(ev, peer_id)
                if inputs is None:
                    continue
                peer, models = inputs
                stats, score = self.evaluate(measure, peer, models)
            values: tuple[str, str, str] | tuple[float, float, float]
            if o.average_mode == 0:
                values = ("%7.5f" % score.recall, "%7.5f" % score.precision,
                          "%7.5f" % score.fmeasure)
            else:
                values = (stats.ref_total, stats.cand_total, stats.hit)
            scores.setdefault(f"{ev.id}.{peer_id}", values)
        numeric = {k: tuple(float(x) for x in v) for k, v in scores.items()}
        averages = script_averages(
            numeric, o.resamples, o.confidence, o.average_mode, o.alpha
        )
        return list(format_results(
            peer_id, tag, averages, scores, o.confidence_text, o.average_mode, o.print_per_eval
        ))

    def run(self, jobs: int = 1) -> None:
        """Emit the report.  With ``jobs`` > 1 the (system, measure) units run
        in worker processes, in chunks of consecutive units; their lines and
        warnings are emitted in unit order, each warning once, so the report
        and the warnings are the same as in one process."""
        units = self.units()
        workers = Workers(jobs, (self.o, self.settings), initializer=_init_engine)
        scorings = len(units) * len(self.settings.evaluations)
        if not workers.parallel or len(units) < 2 or scorings < parallel.MIN_PARALLEL_SCORINGS:
            for unit in units:
                for line in self.unit_lines(*unit):
                    self.emit(line)
            return
        size = workers.chunk_size(len(units))
        warned: set[str] = set()
        with workers:
            pool = workers.pool()
            futures = [pool.submit(_engine_chunk, i, min(i + size, len(units)))
                       for i in range(0, len(units), size)]
            try:
                for fut in futures:
                    for warnings, lines, error in fut.result():
                        for w in warnings:
                            if w not in warned:
                                warned.add(w)
                                self.warn(w)
                        if error is not None:  # after the warnings the unit gave before it
                            raise error
                        for line in lines:
                            self.emit(line)
            finally:
                for fut in futures:
                    fut.cancel()


# Worker-process side of ``--jobs`` (top-level, so the spawn start method can pickle them).
_ENGINE: Engine | None = None
_WARNINGS: list[str] = []


def _init_engine(options: Options, settings: Settings) -> None:
    global _ENGINE
    _ENGINE = Engine(options, settings, emit=lambda line: None, warn=_WARNINGS.append)


def _engine_chunk(start: int, stop: int) -> list[tuple[list[str], list[str], UserError | None]]:
    """Units ``start`` to ``stop`` of the report: per unit its warnings (each
    first one within the chunk; the main process drops repeats across
    chunks), its lines, and the user error that stopped it (the chunk stops
    there too)."""
    assert _ENGINE is not None
    _ENGINE._missing_warned.clear()
    _ENGINE._empty_warned.clear()
    _ENGINE._system_stats = None  # a chunk reads (and warns about) its inputs itself
    units = _ENGINE.units()
    out: list[tuple[list[str], list[str], UserError | None]] = []
    for unit in units[start:stop]:
        del _WARNINGS[:]
        try:
            lines = _ENGINE.unit_lines(*unit)
        except UserError as exc:
            out.append((list(_WARNINGS), [], exc))
            break
        out.append((list(_WARNINGS), lines, None))
    return out
