"""Drop-in replacements for other ROUGE packages, giving their numbers exactly.

* :mod:`rouge2.compat.rouge_score`: Google's rouge-score 0.1.2
  (``from rouge2.compat.rouge_score import rouge_scorer, scoring``);
* :mod:`rouge2.compat.evaluate`: the ``rouge`` metric of Hugging Face
  ``evaluate`` (``rouge2.compat.evaluate.compute(predictions=..., references=...)``).

These reproduce the other package's numbers float for float, including its
tokenizer and stemmer, which differ from ROUGE-1.5.5's (rouge2's default);
see docs/migrating.md.
"""
