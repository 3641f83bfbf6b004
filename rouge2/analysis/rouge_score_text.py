"""The text analysis of Google's rouge-score 0.1.2, as plain functions.

rouge-score (``rouge_score/tokenize.py``) turns a text into tokens in four
steps; :func:`rouge_score_tokens` gives the same list for every input:

1. ``str.lower()``: full Unicode lowercasing, so a few non-ASCII characters
   become ASCII letters (the Kelvin sign ``K`` becomes ``k``; ``İ``
   becomes ``i`` followed by a combining dot, which then splits the word).
   A ``bytes`` text is lowercased as bytes (ASCII only) and then decoded as
   UTF-8, as rouge-score does.
2. Every run of characters outside ``[a-z0-9]`` separates tokens; nothing
   else survives (non-Latin scripts give no tokens at all).
3. With stemming, each token longer than 3 characters goes through nltk's
   ``PorterStemmer()`` in its default ``NLTK_EXTENSIONS`` mode
   (:mod:`rouge2.analysis.porter_nltk` gives its stems without importing
   nltk); shorter tokens are kept as they are.
4. A token is kept only if it matches ``^[a-z0-9]+$`` (``re.match``, so a
   trailing newline would pass); this drops the empty strings and anything a
   custom stemmer made invalid.

This differs from ROUGE-1.5.5 (:mod:`rouge2.analysis.tokenize`), which works
on ASCII bytes, and from its stemmer (:mod:`rouge2.analysis.stem`); see
docs/differences.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from rouge2.analysis.porter_nltk import nltk_porter_stem

__all__ = [
    "NON_ALPHANUM_PATTERN",
    "VALID_TOKEN_PATTERN",
    "is_valid_rouge_score_token",
    "nltk_porter_stem",
    "rouge_score_stem",
    "rouge_score_tokens",
    "rouge_score_words",
]

#: what separates tokens once the text is lowercased (rouge-score's pattern)
NON_ALPHANUM_PATTERN = r"[^a-z0-9]+"
#: what a kept token must match with ``re.match`` (rouge-score's pattern)
VALID_TOKEN_PATTERN = r"^[a-z0-9]+$"

_WORD = re.compile(r"[a-z0-9]+")
_valid = re.compile(VALID_TOKEN_PATTERN).match


def rouge_score_words(text: str | bytes) -> list[str]:
    """Steps 1-2: the lowercased ``[a-z0-9]`` runs of ``text``, before stemming."""
    if isinstance(text, bytes):
        # bytes.lower() touches ASCII only; the decode is UTF-8, strict.
        return _WORD.findall(text.lower().decode("utf-8"))
    return _WORD.findall(text.lower())


def is_valid_rouge_score_token(token) -> bool:
    """Step 4: whether rouge-score keeps ``token``."""
    return isinstance(token, str) and _valid(token) is not None


@lru_cache(maxsize=1 << 18)
def rouge_score_stem(word: str) -> str | None:
    """Steps 3-4 for one word with the default stemmer: its stem, or None if dropped."""
    if len(word) > 3:
        word = nltk_porter_stem(word)
    return word if _valid(word) else None


def rouge_score_tokens(
    text: str | bytes, stem: bool | Callable[[str], str] | None = False
) -> list[str]:
    """The tokens rouge-score 0.1.2 makes of ``text``.

    ``stem`` is False (no stemming), True (nltk's Porter stemmer, as
    ``use_stemmer=True`` does) or a function word -> stem (what rouge-score
    does with any stemmer object's ``.stem``), applied to tokens longer than
    3 characters only.
    """
    words = rouge_score_words(text)
    if not stem:
        return words  # findall yields only valid tokens
    out: list[str] = []
    if stem is True:
        append = out.append
        for w in words:
            s = rouge_score_stem(w)
            if s is not None:
                append(s)
        return out
    for w in words:
        if len(w) > 3:
            s = stem(w)
            if isinstance(s, bytes):
                s = s.decode("utf-8")
            elif not isinstance(s, str):
                raise TypeError(f"the stemmer returned {type(s).__name__} for {w!r}, not str")
            w = s
        if _valid(w):
            out.append(w)
    return out
