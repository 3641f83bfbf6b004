"""Drop-in for Google's rouge-score 0.1.2, float for float.

Change ``from rouge_score import rouge_scorer, scoring`` to
``from rouge2.compat.rouge_score import rouge_scorer, scoring``; the modules
``rouge_scorer``, ``scoring``, ``tokenize`` and ``tokenizers`` have
rouge-score's names and give its numbers (``==``), with rouge2's counting
kernels.  ``scoring.BootstrapAggregator`` takes an extra ``seed`` (default 0)
so its intervals are reproducible.  See docs/migrating.md.
"""

from rouge2.compat.rouge_score import rouge_scorer, scoring, tokenize, tokenizers

__all__ = ["rouge_scorer", "scoring", "tokenize", "tokenizers"]
