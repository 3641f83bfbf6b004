"""The Python API: ``score`` for one pair, ``score_corpus`` for many.

Build a :class:`Scorer` once and call it per pair when scoring in a loop;
``score_corpus`` does that for you and analyses every distinct text once.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from rouge2.stats.combine import combine, normalize_mode, resolve_alpha
from rouge2.stats.prf import Score
from rouge2.analysis.analyzer import Analyzer
from rouge2.errors import UserError
from rouge2.measures import parse_measure
from rouge2.measures.base import PairStats

DEFAULT_MEASURES = ("rouge-1", "rouge-2", "rouge-l")

_new_score = tuple.__new__  # Score(p, r, f) without the NamedTuple's Python-level __new__

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
        self.measures = {str(name): parse_measure(name) for name in measures}
        self.synonyms = None
        spec = options.get("synonyms", False)
        if spec not in (None, False):
            from rouge2.synonyms import load_synonyms
            from rouge2.synonyms.matching import relation_for

            self.synonyms = load_synonyms(spec)
            if self.synonyms is not None:
                key = self.analyzer.stem_token if self.analyzer.stems else None
                relation = relation_for(self.synonyms, None, key=key)
                for m in self.measures.values():
                    m.use_synonyms(relation)
        self.tagger = None
        if any(m.needs_tagger for m in self.measures.values()):
            from rouge2.pos.tagger import load_tagger

            self.tagger = load_tagger(options.get("tagger"))
            for m in self.measures.values():
                if m.needs_tagger:
                    m.prepare(self.analyzer, self.tagger)

    def prefetch(self, texts) -> None:
        """Tag many texts in batches up front (each distinct text once)."""
        if self.tagger is not None:
            distinct = list(dict.fromkeys(t for t in texts if isinstance(t, str)))
            for i in range(0, len(distinct), 512):
                self.tagger.tag_many(distinct[i : i + 512])

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
            w_p = 1.0 - alpha  # weight of precision in the F denominator
            for name, m in self.measures.items():
                s = m.stats(cand, ref)
                if m.plain_ratios:  # Measure.precision and Measure.recall, inlined
                    hit, ref_total, cand_total = s
                    p = hit / cand_total if cand_total else 0.0
                    r = hit / ref_total if ref_total else 0.0
                else:
                    p = m.precision(s)
                    r = m.recall(s)
                d = w_p * p + alpha * r
                out[name] = _new_score(Score, (p, r, p * r / d if d > 0 else 0.0))
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

    Returns a dict from measure name to :class:`~rouge2.stats.combine.Score`.
    """
    return Scorer(measures, **options).score(candidate, references)


def score_corpus(pairs: Iterable, measures: Sequence[str] = DEFAULT_MEASURES, **options):
    """Score many ``(candidate, references)`` pairs; one dict per pair, in order."""
    scorer = Scorer(measures, **options)
    if scorer.tagger is not None:
        pairs = list(pairs)
        scorer.prefetch(
            [c for c, _ in pairs] + [x for _, r in pairs for x in ([r] if isinstance(r, str) else r)]
        )
    return [scorer.score(c, r) for c, r in pairs]


def corpus_stats(pairs: Iterable, measures: Sequence[str] = DEFAULT_MEASURES, **options):
    """Per pair, per measure: the list of PairStats against each reference."""
    scorer = Scorer(measures, **options)
    out = []
    for c, r in pairs:
        stats = scorer.pair_stats(c, r)
        out.append({name: [s for s, _ in v] for name, v in stats.items()})
    return out
