"""Drop-in for the ``rouge`` metric of Hugging Face ``evaluate``.

Replace::

    import evaluate
    rouge = evaluate.load("rouge")
    results = rouge.compute(predictions=predictions, references=references)

with::

    from rouge2.compat import evaluate
    rouge = evaluate.load("rouge")
    results = rouge.compute(predictions=predictions, references=references)

(or call ``evaluate.compute(...)`` directly).  The object :func:`load`
returns has the metric's ``add(prediction=..., reference=...)``,
``add_batch(predictions=..., references=...)`` and ``compute(**kwargs)``:
``compute`` scores what was added (plus any ``predictions=`` and
``references=`` it is given), then forgets it, as the metric does.

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
as it stands, as rouge-score itself does.  ``load("rouge", seed=s)`` gives
an object whose ``compute`` uses ``s`` (default 0); ``load("rouge",
seed=None)`` reads its seed from numpy's global state at load, as the
metric does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rouge2.compat.errors import CompatTypeError, CompatValueError
from rouge2.compat.rouge_score import rouge_scorer, scoring

__all__ = ["DEFAULT_ROUGE_TYPES", "Rouge", "compute", "load"]

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


#: the names ``evaluate.load`` knows the metric by
METRIC_NAMES = ("rouge", "evaluate-metric/rouge")
#: ``evaluate.load`` keywords that only say where and how the metric keeps its
#: inputs (cache files, downloads); they change no number, so they are accepted
_STORAGE_KEYWORDS = ("cache_dir", "keep_in_memory", "experiment_id", "download_config", "download_mode",
                     "revision", "module_type", "timeout", "max_concurrent_cache_files", "hash")


class Rouge:
    """What ``evaluate.load("rouge")`` returns: inputs are added with
    :meth:`add` and :meth:`add_batch`, and :meth:`compute` scores all of them
    (with the metric's keyword arguments), then starts afresh.

    The first input decides whether references are single strings or lists
    of strings, as the metric's first input does; a later input of the other
    kind is an error naming it.
    """

    name = "rouge"

    def __init__(self, seed=0):
        self.seed = seed
        self._predictions: list = []
        self._references: list = []
        self._multi: bool | None = None

    def __len__(self) -> int:
        """The number of predictions added and not yet computed."""
        return len(self._predictions)

    def __repr__(self) -> str:
        return f"<rouge2.compat.evaluate.Rouge (the 'rouge' metric), seed {self.seed}, stored examples: {len(self)}>"

    def _store(self, predictions, references) -> None:
        predictions, references, multi = _check_inputs(predictions, references)
        if self._multi is not None and multi != self._multi:
            had = "lists of strings" if self._multi else "strings"
            raise CompatValueError(f"references[0] of this batch is {'a list' if multi else 'a string'} but the "
                                   f"references added before are {had}: give every prediction the same kind "
                                   f"of reference (a string, or a list of strings)")
        self._multi = multi
        self._predictions.extend(predictions)
        self._references.extend(references)

    def add(self, *, prediction=None, reference=None) -> None:
        """Add one prediction (a string) and its reference (a string, or a list of strings)."""
        self._store([prediction], [reference])

    def add_batch(self, *, predictions=None, references=None) -> None:
        """Add a batch: a list of predictions and one reference (or list of references) each."""
        self._store(predictions, references)

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Score everything added (and ``predictions``/``references`` if given) with the
        metric's keywords (``rouge_types``, ``use_aggregator``, ``use_stemmer``,
        ``tokenizer``); the stored inputs are then cleared."""
        if "seed" in kwargs:
            raise CompatTypeError("compute() takes no seed here: give it when loading, load('rouge', seed=...)")
        if predictions is not None or references is not None:
            if predictions is None or references is None:
                raise CompatValueError("give both predictions= and references= to compute (or neither, to "
                                       "score what add and add_batch stored)")
            self.add_batch(predictions=predictions, references=references)
        if not self._predictions:
            raise CompatValueError("nothing to compute: call add or add_batch at least once before compute, "
                                   "or pass predictions= and references=")
        stored = self._predictions, self._references
        self._predictions, self._references, self._multi = [], [], None
        return compute(*stored, seed=self.seed, **kwargs)


def load(path, config_name=None, *, seed=0, num_process=1, process_id=0, **kwargs):
    """``evaluate.load("rouge")``: a :class:`Rouge` metric object.

    ``seed`` (default 0) seeds the bootstrap aggregator of every
    ``compute``; ``None`` reads a seed from numpy's global state now, as the
    metric does when loaded without one.  Only the ``rouge`` metric is
    provided; the storage keywords of ``evaluate.load`` (``cache_dir``,
    ``keep_in_memory``, ``experiment_id``, ...) are accepted and change
    nothing; distributed evaluation (``num_process > 1``) is not supported.
    """
    if path not in METRIC_NAMES:
        raise CompatValueError(f"rouge2.compat.evaluate provides the 'rouge' metric only, not {path!r}; "
                               f"use the evaluate package for other metrics")
    if config_name not in (None, "default"):
        raise CompatValueError(f"the rouge metric has one config, 'default', not {config_name!r}")
    unknown = sorted(k for k in kwargs if k not in _STORAGE_KEYWORDS)
    if unknown:
        raise CompatTypeError(f"load() got unexpected keyword argument(s): {', '.join(unknown)}")
    if num_process != 1 or process_id != 0:
        raise CompatValueError("distributed evaluation (num_process, process_id) is not supported: "
                               "gather the predictions and references in one process, then compute")
    if seed is None:  # what the metric does when loaded without a seed
        state: Any = np.random.get_state()
        keys, pos = state[1], state[2]
        seed = int(keys[pos] if pos < 624 else keys[0])
    return Rouge(seed=seed)
