"""Scoring for ``rouge2 rouge155``: the script's evaluation loop.

For every system (sorted IDs with ``-a``), every measure in the script's
order (ROUGE-1..N, L unless ``-x``, W-<w> with ``-w``, S/SU with ``-2``)
and every evaluation, the system summary is scored against each model
summary, the per-model statistics are combined (``-f A`` sums them,
``-f B`` keeps the best model, the first one on ties), and the
per-evaluation R, P, F are rounded like the script (``%7.5f``; F from the
rounded R and P).  Averages and intervals come from
:func:`rouge2.stats.bootstrap.script_averages`.

Every distinct file is read and analysed once per run, however many
systems and measures use it.

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
from typing import Callable

from rouge2.stats.bootstrap import script_averages
from rouge2.errors import UserError
from rouge2.measures import parse_measure
from rouge2.measures.base import PairStats
from rouge2.config.rouge155_args import Options
from rouge2.io.formats155 import flat_text_undefined, read_sentences
from rouge2.io.report155 import format_results
from rouge2.io.rouge155 import Settings


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
            gap = str(int(math.floor(sd))) if not math.isinf(sd) else "*"
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


def make_analyzer(o: Options):
    """An object with ``analyze(raw_sentences) -> AnalyzedText`` applying the
    script's lowercasing, limits, tokenization, stopwords and stemming."""
    try:
        from rouge2.analysis.analyzer import Rouge155Analyzer  # type: ignore[attr-defined]
    except ImportError:
        Rouge155Analyzer = None
    if Rouge155Analyzer is not None:
        return Rouge155Analyzer(
            stem=o.stem,
            remove_stopwords=o.remove_stopwords,
            word_limit=o.word_limit,
            byte_limit=o.byte_limit,
        )
    from rouge2.analysis.analyzer import Analyzer
    from rouge2.analysis.stem import rouge155_stem
    from rouge2.analysis.stopwords import load_stopwords

    generic = Analyzer(
        tokenizer="rouge155",
        stemmer=rouge155_stem if o.stem else None,
        stopwords=load_stopwords("smart") if o.remove_stopwords else None,
        word_limit=o.word_limit,
        byte_limit=o.byte_limit,
        stem_min_length=4,
        cache=False,
    )

    class _Adapter:
        def analyze(self, raw_sentences):
            return generic.analyze_sentences(list(raw_sentences), byte_text=True)

    return _Adapter()


def per_eval_values(measure, stats: PairStats, alpha: float) -> tuple[str, str, str]:
    """The script's rounded R, P and F of one evaluation."""
    r = measure.recall(stats) if stats.ref_total != 0 else 0
    p = measure.precision(stats) if stats.cand_total != 0 else 0
    rs, ps = "%7.5f" % r, "%7.5f" % p
    rn, pn = float(rs), float(ps)
    d = (1 - alpha) * pn + alpha * rn
    f = (pn * rn) / d if d > 0 else 0
    return rs, ps, "%7.5f" % f


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
        self.analyzer = make_analyzer(options)
        self._texts: dict = {}
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
            hit = self._texts[key] = self.analyzer.analyze(sentences)
        return hit

    def peer_ids(self) -> list[str]:
        if self.o.all_systems:
            return sorted(self.settings.peer_ids)
        return [self.o.system_id]

    # -- scoring -------------------------------------------------------------
    def combine(self, measure, peer, models) -> PairStats:
        if not models:
            return PairStats(0, 0, 0)
        if self.o.score_mode == "B":
            best_key = -1.0
            chosen = PairStats(0, 0, 0)
            with_key = getattr(measure, "stats_and_key", None)
            for model in models:
                if with_key is not None:
                    s, key = with_key(peer, model)
                else:
                    s = measure.stats(peer, model)
                    key = measure.best_key(s)
                if key > best_key:
                    best_key, chosen = key, s
            return chosen
        hit = ref = cand = 0
        for model in models:
            s = measure.stats(peer, model)
            hit += s.hit
            ref += s.ref_total
            cand += s.cand_total
        return PairStats(hit, ref, cand)

    def evaluation_inputs(self, ev, peer_id):
        """(peer text, model texts) for one evaluation, or None if the system
        has no summary there (the script warns once)."""
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
        peer = self.text(peer_path, peer_resolved, ev.input_format)
        models = [self.text(p, r, ev.input_format) for p, r in model_files]
        return peer, models

    def run(self) -> None:
        o = self.o
        plan = [(tag, parse_measure(name)) for tag, name in measure_plan(o)]
        for peer_id in self.peer_ids():
            for tag, measure in plan:
                scores: dict = {}
                for ev in self.settings.evaluations:
                    inputs = self.evaluation_inputs(ev, peer_id)
                    if inputs is None:
                        continue
                    peer, models = inputs
                    stats = self.combine(measure, peer, models)
                    if o.average_mode == 0:
                        values = per_eval_values(measure, stats, o.alpha)
                    else:
                        values = (stats.ref_total, stats.cand_total, stats.hit)
                    scores.setdefault(f"{ev.id}.{peer_id}", values)
                numeric = {k: tuple(float(x) for x in v) for k, v in scores.items()}
                averages = script_averages(
                    numeric, o.resamples, o.confidence, o.average_mode, o.alpha
                )
                for line in format_results(
                    peer_id, tag, averages, scores, o.confidence_text, o.average_mode, o.print_per_eval
                ):
                    self.emit(line)
