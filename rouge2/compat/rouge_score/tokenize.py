"""``rouge_score.tokenize`` (0.1.2): the default tokenizer as a function.

The definition lives in :mod:`rouge2.analysis.rouge_score_text`; this module
keeps rouge-score's names for code that imports them.
"""

from __future__ import annotations

import re

from rouge2.analysis.rouge_score_text import (
    NON_ALPHANUM_PATTERN,
    VALID_TOKEN_PATTERN,
    nltk_porter_stem,
    rouge_score_tokens,
)

__all__ = [
    "NON_ALPHANUM_PATTERN",
    "NON_ALPHANUM_RE",
    "SPACES_PATTERN",
    "SPACES_RE",
    "VALID_TOKEN_PATTERN",
    "VALID_TOKEN_RE",
    "nltk_porter_stem",
    "tokenize",
]

NON_ALPHANUM_RE = re.compile(NON_ALPHANUM_PATTERN)
SPACES_PATTERN = r"\s+"
SPACES_RE = re.compile(SPACES_PATTERN)
VALID_TOKEN_RE = re.compile(VALID_TOKEN_PATTERN)


def _is_default_porter(stemmer) -> bool:
    """Whether ``stemmer`` is nltk's PorterStemmer in its default mode (cached path)."""
    try:
        from nltk.stem.porter import PorterStemmer  # lazy: nltk takes seconds to import
    except ImportError:  # pragma: no cover - nltk is a dependency
        return False
    return type(stemmer) is PorterStemmer and stemmer.mode == PorterStemmer.NLTK_EXTENSIONS


def tokenize(text, stemmer):
    """Tokens of ``text`` as rouge-score makes them; ``stemmer`` has ``.stem(word)`` or is None."""
    if not stemmer:
        return rouge_score_tokens(text, False)
    if _is_default_porter(stemmer):
        return rouge_score_tokens(text, True)
    return rouge_score_tokens(text, stemmer.stem)
