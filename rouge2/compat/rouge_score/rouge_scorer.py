"""``rouge_score.rouge_scorer`` (0.1.2): :class:`RougeScorer`, same floats.

``RougeScorer(rouge_types).score(target, prediction)`` returns, per rouge
type, the ``Score(precision, recall, fmeasure)`` rouge-score returns, equal
as floats (``==``) and of the same Python types, on every input.  The
definitions, as read from rouge-score's source:

``rouge1`` ... ``rouge9``
    ``hits`` = Σ over distinct n-grams of min(count in target, count in
    prediction); precision = hits / max(prediction n-grams, 1), recall =
    hits / max(target n-grams, 1).
``rougeL``
    LCS of the two token lists (newlines are ordinary whitespace);
    precision = LCS / prediction tokens, recall = LCS / target tokens; the
    int ``Score(0, 0, 0)`` when either text has no tokens.
``rougeLsum``
    Both texts are split into sentences at ``"\\n"`` (or with
    ``nltk.sent_tokenize`` when ``split_summaries=True``), empty strings
    dropped.  For each target sentence, in order, the union of the target
    positions on one LCS with each prediction sentence (the LCS traceback
    that prefers a diagonal step on equal tokens, then "up", i.e. an earlier
    target position, on ties) gives candidate tokens; each counts as a hit
    while both the target's and the prediction's remaining counts of that
    token are positive, and then decrements both.  precision = hits /
    prediction tokens, recall = hits / target tokens; the int
    ``Score(0, 0, 0)`` when either side has no sentence or no token.
F-measure
    ``2 * p * r / (p + r)`` if ``p + r > 0`` else ``0.0``.
``score_multi``
    The score against each target; per type, the first target with the
    highest F.

Counting goes through :mod:`rouge2.kernels` (C when built): tokens are
interned as ints, then ``ngram_hits``, ``lcs_length`` and ``union_lcs_hit``
(ROUGE-1.5.5's summary-level LCS, which is rougeLsum's) do the work.

Differences from rouge-score, all on mistakes: a bad rouge type raises
``ValueError`` (a :class:`rouge2.UserError` too) when the scorer is built,
not at the first ``score``; ``rouge_types`` given as one string, and
``score_multi`` with no targets or with a string for ``targets``, get a
clear error instead of scoring characters or failing inside numpy.
"""

from __future__ import annotations

import re

from rouge2.analysis.rouge_score_text import rouge_score_tokens
from rouge2.compat.errors import CompatTextTypeError, CompatTypeError, CompatValueError, SentenceDataMissing
from rouge2.compat.rouge_score import scoring, tokenizers
from rouge2.kernels import lcs_length, ngram_hits, token_ids, union_lcs_hit

__all__ = ["RougeScorer"]

# rouge-score accepts a rouge-N name with re.match(r"rouge[0-9]$", name):
# one digit, and (through "$") an optional trailing newline.
_ROUGE_N = re.compile(r"rouge[0-9]\n?\Z")

_Score = scoring.Score
_fmeasure = scoring.fmeasure


def _parse_types(rouge_types) -> tuple:
    """((name, n), ...) for the rouge types; n = 0 for rougeL, -1 for rougeLsum."""
    if isinstance(rouge_types, (str, bytes)):
        raise CompatValueError(
            f"rouge_types must be a list of names such as ['rouge1', 'rougeL'], not the string {rouge_types!r}"
        )
    try:
        names = list(rouge_types)
    except TypeError:
        raise CompatTypeError(
            f"rouge_types must be a list of names such as ['rouge1', 'rougeL'], not {type(rouge_types).__name__}"
        ) from None
    plan = []
    for name in names:
        if not isinstance(name, str):
            raise CompatTypeError(f"rouge type {name!r} is not a string: use names such as 'rouge1' or 'rougeL'")
        if name == "rougeL":
            plan.append((name, 0))
        elif name == "rougeLsum":
            plan.append((name, -1))
        elif _ROUGE_N.match(name):
            n = int(name[5:])
            if n <= 0:
                raise CompatValueError(f"rougen requires positive n: {name!r}")
            plan.append((name, n))
        else:
            raise CompatValueError(
                f"Invalid rouge type: {name!r} (valid: rouge1 ... rouge9, rougeL, rougeLsum)"
            )
    return tuple(plan)


def _as_text(text, what: str) -> str:
    if isinstance(text, str):
        return text
    if isinstance(text, bytes):
        return text.decode("utf-8")
    raise CompatTextTypeError(f"the {what} must be a string, not {type(text).__name__}")


def _sent_tokenize(text):
    import nltk  # lazy: nltk takes seconds to import; only split_summaries=True needs it

    try:
        return nltk.sent_tokenize(text)
    except LookupError as exc:
        found = re.search(r"Resource\W+(\w+)", str(exc))
        resource = found.group(1) if found else "punkt_tab"
        raise SentenceDataMissing(
            f"split_summaries=True splits sentences with nltk.sent_tokenize, which needs nltk's "
            f"{resource!r} data; install it once with 'python -m nltk.downloader {resource}' "
            f"(rouge2 never downloads data itself), or put one sentence per line and use split_summaries=False"
        ) from None


def _ngram_score(t_ids, p_ids, n: int):
    hits = ngram_hits(p_ids, t_ids, n)
    t_count = len(t_ids) - n + 1
    p_count = len(p_ids) - n + 1
    precision = hits / max(p_count, 1)
    recall = hits / max(t_count, 1)
    return _Score(precision, recall, _fmeasure(precision, recall))


def _lcs_score(t_ids, p_ids):
    if not t_ids or not p_ids:
        return _Score(0, 0, 0)
    lcs = lcs_length(t_ids, p_ids)
    precision = lcs / len(p_ids)
    recall = lcs / len(t_ids)
    return _Score(precision, recall, _fmeasure(precision, recall))


def _summary_lcs_score(ref_sents, cand_sents):
    if not ref_sents or not cand_sents:
        return _Score(0, 0, 0)
    ref = [t for s in ref_sents for t in s]
    cand = [t for s in cand_sents for t in s]
    if not ref or not cand:
        return _Score(0, 0, 0)
    hits = union_lcs_hit(cand, cand_sents, ref, ref_sents)
    recall = hits / len(ref)
    precision = hits / len(cand)
    return _Score(precision, recall, _fmeasure(precision, recall))


class RougeScorer(scoring.BaseScorer):
    """rouge-score's ``RougeScorer``: the same arguments, methods and floats.

    ``rouge_types``: names among ``rouge1`` ... ``rouge9``, ``rougeL``,
    ``rougeLsum``.  ``use_stemmer``: nltk's Porter stemmer on tokens longer
    than 3 characters (default tokenizer only).  ``split_summaries``: split
    ``rougeLsum`` sentences with ``nltk.sent_tokenize`` (needs nltk's Punkt
    data installed) instead of at newlines.  ``tokenizer``: any object with
    ``tokenize(text) -> list of tokens``, used instead of the default.
    """

    def __init__(self, rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None):
        self._plan = _parse_types(rouge_types)
        self._plan_key = tuple(rouge_types)
        self.rouge_types = rouge_types
        if tokenizer is None or tokenizer is False:
            tokenizer = tokenizers.DefaultTokenizer(use_stemmer)
        elif not callable(getattr(tokenizer, "tokenize", None)):
            raise CompatTypeError(
                f"tokenizer must be an object with a tokenize(text) method, not {type(tokenizer).__name__}"
            )
        self._tokenizer = tokenizer
        self._split_summaries = split_summaries

    # -- helpers ---------------------------------------------------------

    def _types(self) -> tuple:
        """The parsed rouge types (re-parsed if ``self.rouge_types`` was changed)."""
        key = tuple(self.rouge_types)
        if key != self._plan_key:
            self._plan = _parse_types(self.rouge_types)
            self._plan_key = key
        return self._plan

    def _tokenize(self, text, what: str):
        tok = self._tokenizer
        if type(tok) is tokenizers.DefaultTokenizer:
            if not isinstance(text, (str, bytes)):
                raise CompatTextTypeError(f"the {what} must be a string, not {type(text).__name__}")
            return rouge_score_tokens(text, tok.use_stemmer)
        return tok.tokenize(text)

    def _sentences(self, text, what: str) -> list:
        if self._split_summaries:
            sents = _sent_tokenize(text)
        else:
            sents = _as_text(text, what).split("\n")
        return [s for s in sents if len(s)]

    # -- API -------------------------------------------------------------

    def score(self, target, prediction) -> dict:
        """Scores of ``prediction`` against ``target`` (note the order), by rouge type."""
        plan = self._types()
        vocab: dict = {}
        if len(plan) == 1 and plan[0][1] == -1:
            t_ids = p_ids = None  # rougeLsum alone: whole texts are not tokenized
        else:
            t_ids = token_ids(self._tokenize(target, "target"), vocab)
            p_ids = token_ids(self._tokenize(prediction, "prediction"), vocab)
        result = {}
        for name, n in plan:
            if n > 0:
                result[name] = _ngram_score(t_ids, p_ids, n)
            elif n == 0:
                result[name] = _lcs_score(t_ids, p_ids)
            else:
                if name in result:
                    continue
                t_sents = [
                    token_ids(self._tokenize(s, "target"), vocab)
                    for s in self._sentences(target, "target")
                ]
                p_sents = [
                    token_ids(self._tokenize(s, "prediction"), vocab)
                    for s in self._sentences(prediction, "prediction")
                ]
                result[name] = _summary_lcs_score(t_sents, p_sents)
        return result

    def score_multi(self, targets, prediction) -> dict:
        """Per rouge type, the score against the first target with the highest F."""
        if isinstance(targets, (str, bytes)):
            raise CompatTypeError(
                "score_multi takes a list of targets, not one string: use score(target, prediction)"
            )
        per_target = [self.score(t, prediction) for t in targets]
        if not per_target:
            raise CompatValueError("score_multi needs at least one target, got none")
        best = {}
        for name, _ in self._types():
            top = per_target[0][name]
            for scores in per_target[1:]:
                if scores[name].fmeasure > top.fmeasure:
                    top = scores[name]
            best[name] = top
        return best

    def score_batch(self, targets, predictions) -> list:
        """``[score(t, p) for t, p in zip(targets, predictions)]``, lengths checked.

        A list (or tuple) in ``targets`` is scored with :meth:`score_multi`.
        """
        targets = list(targets)
        predictions = list(predictions)
        if len(targets) != len(predictions):
            raise CompatValueError(
                f"score_batch got {len(targets)} targets but {len(predictions)} predictions; "
                "give one target (or list of targets) per prediction"
            )
        out = []
        for target, prediction in zip(targets, predictions):
            if isinstance(target, (list, tuple)):
                out.append(self.score_multi(target, prediction))
            else:
                out.append(self.score(target, prediction))
        return out
