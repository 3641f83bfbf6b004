"""Tokenizers: the ROUGE-1.5.5 byte rules and a Unicode-aware profile.

``rouge155`` reproduces what ROUGE-1.5.5.pl does to a line of text: ASCII
letters are lowercased, ``-`` becomes a token of its own (which the script then
drops, because kept tokens must start with ``[a-z0-9$]``), and every other
byte outside ``[A-Za-z0-9-]`` separates tokens.  Non-ASCII text therefore
vanishes, exactly as in the original.

``unicode`` keeps letters, combining marks and digits of any script (and the
zero-width joiners some scripts write inside words), case-folds them, and
splits on everything else; use it for languages other than English.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import lru_cache

from rouge2.kernels import rouge155_tokens
from rouge2.registry import Registry

_ASCII_WORD = re.compile(r"[a-z0-9]+")




@lru_cache(maxsize=1)
def _unicode_word_pattern() -> re.Pattern[str]:
    """Regex for runs of letters, marks, digits and in-word joiners (built once)."""
    ranges: list[tuple[int, int]] = []
    start = None
    for cp in range(sys.maxunicode + 1):
        cat = unicodedata.category(chr(cp))
        keep = cat[0] in "LMN" or cp in (0x200C, 0x200D)
        if keep and start is None:
            start = cp
        elif not keep and start is not None:
            ranges.append((start, cp - 1))
            start = None
    if start is not None:
        ranges.append((start, sys.maxunicode))
    parts = []
    for lo, hi in ranges:
        if lo == hi:
            parts.append(re.escape(chr(lo)))
        else:
            parts.append(f"{re.escape(chr(lo))}-{re.escape(chr(hi))}")
    return re.compile("[" + "".join(parts) + "]+")


def unicode_tokens(text: str) -> list[str]:
    """Case-folded runs of letters, marks and digits of any script (NFC first)."""
    text = unicodedata.normalize("NFC", text).casefold()
    if text.isascii():
        return _ASCII_WORD.findall(text)
    tokens = _unicode_word_pattern().findall(text)
    # A joiner is kept only inside a word, never as a token of its own.
    out = []
    for tok in tokens:
        tok = tok.strip("\u200c\u200d")
        if tok:
            out.append(tok)
    return out


#: tokenizers by name (plugins: entry points ``rouge2.tokenizers``)
TOKENIZERS: Registry = Registry("tokenizer", group="rouge2.tokenizers")
TOKENIZERS.add("rouge155", rouge155_tokens,
               "ROUGE-1.5.5's rules: ASCII letters and digits, lowercased; other text vanishes",
               aliases=("rouge-1.5.5",))
TOKENIZERS.add("unicode", unicode_tokens,
               "letters, marks and digits of any script, NFC, case-folded",
               fingerprint=lambda name: f"unicode {unicodedata.unidata_version}")


def get_tokenizer(name: str):
    """The tokenizer function registered under ``name``."""
    return TOKENIZERS.get(name)
