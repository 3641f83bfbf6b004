"""``rouge_score.tokenize`` (0.1.2): the default tokenizer as a function.

The definition lives in :mod:`rouge2.analysis.rouge_score_text`; this module
keeps rouge-score's names for code that imports them.
"""

from __future__ import annotations

import re
import sys

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
    """Whether ``stemmer`` is nltk's PorterStemmer in its default mode (then rouge2's
    copy of it stems, memoized).  nltk is not imported here: a caller holding
    one of its stemmers has imported it already."""
    porter = sys.modules.get("nltk.stem.porter")
    stemmer_type = getattr(porter, "PorterStemmer", None)
    return (stemmer_type is not None and type(stemmer) is stemmer_type
            and stemmer.mode == stemmer_type.NLTK_EXTENSIONS)


def tokenize(text, stemmer):
    """Tokens of ``text`` as rouge-score makes them; ``stemmer`` has ``.stem(word)`` or is None."""
    if not stemmer:
        return rouge_score_tokens(text, False)
    if _is_default_porter(stemmer):
        return rouge_score_tokens(text, True)
    return rouge_score_tokens(text, stemmer.stem)
