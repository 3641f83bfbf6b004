"""Drop-in for the ``rouge`` metric of Hugging Face ``evaluate``.

Replace::

    import evaluate
    rouge = evaluate.load("rouge")
    results = rouge.compute(predictions=predictions, references=references)

with::

    from rouge2.compat import evaluate as rouge
    results = rouge.compute(predictions=predictions, references=references)

What the metric does (its script ``metrics/rouge/rouge.py`` in the
``huggingface/evaluate`` repository, a thin wrapper around rouge-score):

* ``rouge_types`` defaults to ``["rouge1", "rouge2", "rougeL", "rougeLsum"]``;
* ``references`` is a list of strings, or a list of lists of strings when
  ``references[0]`` is a list (then each prediction is scored with
  ``RougeScorer.score_multi``: per type, the reference with the highest F);
* ``tokenizer`` is a *function* text -> tokens (the metric wraps it into an
  object with a ``tokenize`` method);
* no sentence splitting is done: ``rougeLsum`` splits at ``"\\n"`` only, so
  texts without newlines get ``rougeLsum == rougeL``;
* ``use_aggregator=True`` (default): a rouge-score ``BootstrapAggregator``
  over the per-prediction scores, and for each type the ``mid.fmeasure``
  (a ``numpy.float64``: the median of 1000 bootstrap means of F, see
  :mod:`rouge2.compat.rouge_score.scoring`);
* ``use_aggregator=False``: for each type, the list of per-prediction F
  values (floats, or the int 0 where rouge-score returns it).

Seeding.  The metric object seeds numpy's global generator with its own
``seed`` around every ``compute`` (and restores the state afterwards):
``evaluate.load("rouge", seed=s)`` uses ``s``; without it, the seed is a
number read from numpy's global state when the metric is loaded, so it
changes from process to process.  Here ``seed`` (default 0) plays that
part: ``compute(..., seed=s)`` equals ``evaluate.load("rouge",
seed=s).compute(...)``.  ``seed=None`` draws from numpy's global generator
as it stands, as rouge-score itself does.
"""

from __future__ import annotations

from rouge2.compat.errors import CompatTypeError, CompatValueError
from rouge2.compat.rouge_score import rouge_scorer, scoring

__all__ = ["DEFAULT_ROUGE_TYPES", "compute"]

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


class _FunctionTokenizer:
    """A text -> tokens function seen as an object with ``tokenize`` (as the metric wraps it)."""

    def __init__(self, func):
        self.func = func

    def tokenize(self, text):
        return self.func(text)


def _check_inputs(predictions, references):
    if isinstance(predictions, str) or isinstance(references, str):
        raise CompatTypeError(
            "predictions and references must be lists (one entry per prediction), not single strings"
        )
    predictions = list(predictions)
    references = list(references)
    if len(predictions) != len(references):
        raise CompatValueError(
            f"Mismatch in the number of predictions ({len(predictions)}) and references ({len(references)})"
        )
    if not predictions:
        raise CompatValueError("no predictions given: compute needs at least one prediction and its reference")
    multi = isinstance(references[0], (list, tuple))
    for i, (pred, ref) in enumerate(zip(predictions, references)):
        if not isinstance(pred, str):
            raise CompatTypeError(f"predictions[{i}] must be a string, not {type(pred).__name__}")
        if multi:
            if not isinstance(ref, (list, tuple)):
                raise CompatTypeError(
                    f"references[{i}] is a {type(ref).__name__} but references[0] is a list: "
                    "give every prediction a list of reference strings, or every one a single string"
                )
            if not ref:
                raise CompatValueError(f"references[{i}] is an empty list: give at least one reference")
            for j, r in enumerate(ref):
                if not isinstance(r, str):
                    raise CompatTypeError(f"references[{i}][{j}] must be a string, not {type(r).__name__}")
        elif not isinstance(ref, str):
            raise CompatTypeError(
                f"references[{i}] must be a string (or every reference a list of strings), not {type(ref).__name__}"
            )
    return predictions, references, multi


def compute(
    predictions,
    references,
    rouge_types=None,
    use_aggregator=True,
    use_stemmer=False,
    tokenizer=None,
    *,
    seed=0,
):
    """The ``rouge`` metric of ``evaluate``: ``{type: mid F}`` or ``{type: [F, ...]}``.

    ``predictions``: list of strings.  ``references``: list of strings, or
    list of lists of strings (multiple references per prediction).
    ``rouge_types``: default rouge1, rouge2, rougeL, rougeLsum.
    ``use_stemmer``: nltk's Porter stemmer, as rouge-score applies it.
    ``tokenizer``: a function text -> list of tokens (an object with a
    ``tokenize`` method is accepted too).  ``seed``: of the bootstrap
    aggregator, as ``evaluate.load("rouge", seed=seed)`` (None: numpy's global
    generator as it stands, as rouge-score does).
    """
    predictions, references, multi = _check_inputs(predictions, references)
    if rouge_types is None:
        rouge_types = list(DEFAULT_ROUGE_TYPES)
    if tokenizer is not None:
        if callable(tokenizer):
            tokenizer = _FunctionTokenizer(tokenizer)
        elif not callable(getattr(tokenizer, "tokenize", None)):
            raise CompatTypeError(
                f"tokenizer must be a function text -> tokens, not {type(tokenizer).__name__}"
            )
    scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer)
    score_one = scorer.score_multi if multi else scorer.score
    per_prediction = [score_one(ref, pred) for ref, pred in zip(references, predictions)]
    if use_aggregator:
        aggregator = scoring.BootstrapAggregator(seed=seed)
        for scores in per_prediction:
            aggregator.add_scores(scores)
        return {name: agg.mid.fmeasure for name, agg in aggregator.aggregate().items()}
    return {name: [scores[name].fmeasure for scores in per_prediction] for name in per_prediction[0]}
