"""``rouge_score.tokenizers`` (0.1.2): tokenizer objects for ``RougeScorer``.

Any object with a ``tokenize(text) -> list`` method can be passed as
``RougeScorer(..., tokenizer=obj)``; subclassing :class:`Tokenizer` is not
required.
"""

from __future__ import annotations

import abc

from rouge2.analysis.rouge_score_text import rouge_score_tokens

__all__ = ["DefaultTokenizer", "Tokenizer"]


class Tokenizer(abc.ABC):
    """Base class of tokenizers: subclasses implement ``tokenize(text)``."""

    @abc.abstractmethod
    def tokenize(self, text):
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """rouge-score's tokenizer: lowercase ``[a-z0-9]`` runs, optionally Porter-stemmed."""

    def __init__(self, use_stemmer=False):
        self.use_stemmer = bool(use_stemmer)

    def tokenize(self, text):
        return rouge_score_tokens(text, self.use_stemmer)
