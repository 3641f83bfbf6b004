"""Drop-in for Google's rouge-score 0.1.2, float for float.

Change ``from rouge_score import rouge_scorer, scoring`` to
``from rouge2.compat.rouge_score import rouge_scorer, scoring``; the modules
``rouge_scorer``, ``scoring``, ``tokenize`` and ``tokenizers`` have
rouge-score's names and give its numbers (``==``), with rouge2's counting
kernels.  ``scoring.BootstrapAggregator`` takes an extra ``seed`` (default 0)
so its intervals are reproducible.  See docs/migrating.md.
"""

import importlib

from rouge2.compat.rouge_score import rouge_scorer, tokenize, tokenizers

__all__ = ["rouge_scorer", "scoring", "tokenize", "tokenizers"]


def __getattr__(name: str) -> object:
    """``scoring`` (its aggregator needs numpy) is imported on first access, so scoring pairs
    does not load numpy; ``from rouge2.compat.rouge_score import scoring`` imports it directly."""
    if name == "scoring":
        return importlib.import_module("rouge2.compat.rouge_score.scoring")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
