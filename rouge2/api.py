"""The Python API: ``score`` for one pair, ``score_corpus`` for many.

Build a :class:`Scorer` once and call it per pair when scoring in a loop;
``score_corpus`` does that for you and analyses every distinct text once.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from rouge2.aggregate import Score, combine, normalize_mode, resolve_alpha
from rouge2.analysis.analyzer import Analyzer
from rouge2.errors import UserError
from rouge2.measures import parse_measure
from rouge2.measures.base import PairStats

DEFAULT_MEASURES = ("rouge-1", "rouge-2", "rouge-l")

_OPTIONS = (
    "stem",
    "stopwords",
    "multi_reference",
    "alpha",
    "beta",
    "tokenizer",
    "word_limit",
    "byte_limit",
    "synonyms",
    "tagger",
)


def make_stemmer(stem):
    """A token -> stem function for the ``stem`` option (None for no stemming)."""
    if stem is None or stem is False:
        return None, 4
    if callable(stem):
        return stem, 1
    if stem is True or str(stem).lower() in ("rouge155", "porter-rouge155", "true", "yes"):
        from rouge2.analysis.stem import rouge155_stem

        return rouge155_stem, 4
    text = str(stem).lower()
    if text.startswith("snowball:") or text.startswith("snowball-"):
        from rouge2.analysis.stem import snowball_stemmer

        return snowball_stemmer(text.split(":", 1)[-1].split("-", 1)[-1]), 1
    raise UserError(
        f"unknown stem option {stem!r}: use False, True (ROUGE-1.5.5 stemmer) or 'snowball:<language>'"
    )


def make_stopwords(spec):
    if spec is None or spec is False:
        return None
    if isinstance(spec, (set, frozenset, list, tuple)):
        return frozenset(spec)
    from rouge2.analysis.stopwords import load_stopwords

    return load_stopwords(spec)


class Scorer:
    """Settings and measures prepared once; call :meth:`score` per pair."""

    def __init__(self, measures: Sequence[str] = DEFAULT_MEASURES, **options):
        unknown = sorted(set(options) - set(_OPTIONS))
        if unknown:
            raise UserError(
                f"unknown option {unknown[0]!r}: rouge2 options are {', '.join(_OPTIONS)}"
            )
        if isinstance(measures, str):
            measures = [measures]
        if not measures:
            raise UserError("no measures given: name at least one, e.g. 'rouge-1'")
        self.options = dict(options)
        stemmer, stem_min = make_stemmer(options.get("stem", False))
        self.analyzer = Analyzer(
            tokenizer=options.get("tokenizer", "rouge155"),
            stemmer=stemmer,
            stopwords=make_stopwords(options.get("stopwords", False)),
            word_limit=options.get("word_limit", 0) or 0,
            byte_limit=options.get("byte_limit", 0) or 0,
            stem_min_length=stem_min,
        )
        self.mode = normalize_mode(options.get("multi_reference", "pooled"))
        self.alpha = resolve_alpha(options.get("alpha"), options.get("beta"))
        measure_options = {}
        for key in ("synonyms", "tagger"):
            if options.get(key) not in (None, False):
                measure_options[key] = options[key]
        self.measures = {}
        for name in measures:
            m = parse_measure(name, **measure_options) if measure_options else parse_measure(name)
            self.measures[str(name)] = m
        for m in self.measures.values():
            prepare = getattr(m, "prepare", None)
            if prepare is not None:
                prepare(self.analyzer)

    def analyze(self, text):
        return self.analyzer.analyze(text)

    def pair_stats(self, candidate, references) -> dict[str, list[tuple[PairStats, float]]]:
        """Per measure: (statistics, -f B key) against each reference, in order."""
        if isinstance(references, str):
            references = [references]
        cand = self.analyzer.analyze(candidate, cache=False)
        refs = [self.analyze(r) for r in references]
        return {
            name: [m.stats_and_key(cand, r) for r in refs] for name, m in self.measures.items()
        }

    def score(self, candidate, references) -> dict[str, Score]:
        if isinstance(references, str):
            references = (references,)
        analyze = self.analyzer.analyze
        cand = analyze(candidate, cache=False)
        alpha = self.alpha
        out = {}
        if len(references) == 1:
            # Every multi-reference mode agrees on a single reference.
            ref = analyze(references[0])
            for name, m in self.measures.items():
                s = m.stats(cand, ref)
                p = m.precision(s)
                r = m.recall(s)
                d = (1.0 - alpha) * p + alpha * r
                out[name] = Score(p, r, p * r / d if d > 0 else 0.0)
            return out
        refs = [analyze(r) for r in references]
        mode = self.mode
        for name, m in self.measures.items():
            if mode == "best":
                pairs = [m.stats_and_key(cand, r) for r in refs]
                out[name] = combine(m, [p[0] for p in pairs], mode, alpha, [p[1] for p in pairs])
            else:
                out[name] = combine(m, [m.stats(cand, r) for r in refs], mode, alpha)
        return out


def score(candidate: str, references, measures: Sequence[str] = DEFAULT_MEASURES, **options):
    """Score one candidate against one reference or a list of references.

    Returns a dict from measure name to :class:`~rouge2.aggregate.Score`.
    """
    return Scorer(measures, **options).score(candidate, references)


def score_corpus(pairs: Iterable, measures: Sequence[str] = DEFAULT_MEASURES, **options):
    """Score many ``(candidate, references)`` pairs; one dict per pair, in order."""
    scorer = Scorer(measures, **options)
    return [scorer.score(c, r) for c, r in pairs]


def corpus_stats(pairs: Iterable, measures: Sequence[str] = DEFAULT_MEASURES, **options):
    """Per pair, per measure: the list of PairStats against each reference."""
    scorer = Scorer(measures, **options)
    out = []
    for c, r in pairs:
        stats = scorer.pair_stats(c, r)
        out.append({name: [s for s, _ in v] for name, v in stats.items()})
    return out
