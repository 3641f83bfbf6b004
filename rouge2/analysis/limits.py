"""ROUGE-1.5.5's length limits (``-l`` words, ``-b`` bytes), quirks included.

The script truncates a summary twice, in two slightly different ways: once
for the flat text that n-grams and skip-bigrams are counted on (``readText``)
and once for the sentence list that ROUGE-L and ROUGE-W align
(``readText_LCS``).  Both count words with Perl's ``split(/\\s+/)`` on the
raw lowercased sentence *before* punctuation is removed, and the sentence
path for the byte limit never advances its byte counter, so every sentence
shorter than the limit is kept whole.  rouge2 reproduces both, because papers
report numbers computed this way.  Texts here are byte strings decoded as
latin-1, so ``len`` counts bytes as the script does.
"""

from __future__ import annotations

import re

_WS = re.compile(r"\s+", re.ASCII)


def perl_split(s: str) -> list[str]:
    """Perl's ``split(/\\s+/, s)``: a leading empty field, no trailing ones."""
    parts = _WS.split(s)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def flat_text(sentences: list[str], word_limit: int = 0, byte_limit: int = 0) -> str:
    """The text n-grams are counted on (the script's ``readText``)."""
    if not word_limit and not byte_limit:
        return " ".join(sentences)
    out = ""
    used = 0
    if word_limit:
        for s in sentences:
            words = perl_split(s)
            if used + len(words) < word_limit:
                out += (" " + s) if used else s
                used += len(words)
            else:
                if used > 0:
                    out += " "
                out += " ".join(words[: word_limit - used])
                break
        return out
    for s in sentences:
        if used + len(s) < byte_limit:
            out += (" " + s) if used else s
            used += len(s)
        else:
            if used > 0:
                out += " "
            out += s[: byte_limit - used]
            break
    return out


def lcs_sentences(sentences: list[str], word_limit: int = 0, byte_limit: int = 0) -> list[str]:
    """The sentences ROUGE-L/W align (the script's ``readText_LCS``)."""
    if not word_limit and not byte_limit:
        return list(sentences)
    out: list[str] = []
    if word_limit:
        used = 0
        for s in sentences:
            words = perl_split(s)
            if used + len(words) < word_limit:
                used += len(words)
                out.append(s)
            else:
                out.append(" ".join(words[: word_limit - used]))
                break
        return out
    for s in sentences:
        # The script never adds to its byte counter here: each sentence is
        # compared with the whole limit on its own.
        if len(s) < byte_limit:
            out.append(s)
        else:
            out.append(s[:byte_limit])
            break
    return out
