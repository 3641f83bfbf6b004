"""How a text is split into sentences (ROUGE-L and ROUGE-W align sentence by sentence).

``lines``
    each line is a sentence; blank lines are dropped.  This is the SPL
    format ROUGE-1.5.5 reads and rouge2's default: put one sentence a line.
``splitter``
    a small rule-based splitter, no data needed: a sentence ends with a
    token ending in ``.``, ``!`` or ``?`` (closing quotes and brackets may
    follow) unless the token is a known abbreviation or a single-letter
    initial; line breaks also end sentences.
``none``
    the whole text is one sentence (line breaks are spaces).

N-grams and skip-bigrams run across sentence boundaries whatever the
setting, as in ROUGE-1.5.5; only ROUGE-L and ROUGE-W (summary-level) depend
on it.
"""

from __future__ import annotations

from collections.abc import Callable

from rouge2.registry import Registry

_ABBREVIATIONS = frozenset([
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "vs", "etc", "e.g", "i.e", "fig", "no",
    "vol", "gen", "col", "lt", "sgt", "capt", "rev", "jan", "feb", "mar", "apr", "jun", "jul", "aug",
    "sep", "sept", "oct", "nov", "dec", "inc", "ltd", "co", "corp", "u.s", "u.k",
])
_CLOSERS = "\"'”’)]}»"


def rule_sentences(text: str) -> list[str]:
    """A small rule-based splitter: a sentence ends with a token ending in
    ``.``, ``!`` or ``?`` (closing quotes/brackets allowed after it) unless
    the token is a known abbreviation or a single-letter initial.  Tokens are
    whitespace-separated; line breaks also end sentences."""
    out: list[str] = []
    for line in text.splitlines():
        current: list[str] = []
        for token in line.split():
            current.append(token)
            core = token.rstrip(_CLOSERS)
            if not core or core[-1] not in ".!?":
                continue
            if core[-1] == ".":
                word = core[:-1].lstrip(_CLOSERS + "(\"'“‘").lower()
                if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                    continue
            out.append(" ".join(current))
            current = []
        if current:
            out.append(" ".join(current))
    return out


def line_sentences(text: str) -> list[str]:
    """Non-blank lines (the SPL format)."""
    if "\n" not in text:  # one line: the common case, without a split
        return [text] if text.strip() else []
    return [line for line in text.split("\n") if line.strip()]


def one_sentence(text: str) -> list[str]:
    """The whole text as one sentence."""
    joined = " ".join(text.split())
    return [joined] if joined else []


SENTENCES: Registry[Callable[[str], list[str]]] = Registry("sentence splitting")
SENTENCES.add("lines", line_sentences, "one sentence a line (blank lines dropped)")
SENTENCES.add("splitter", rule_sentences, "a rule-based splitter at . ! ? (abbreviations kept)",
              aliases=("rules",))
SENTENCES.add("none", one_sentence, "the whole text is one sentence", aliases=("whole",))


def split_sentences(text: str, mode: str = "lines") -> list[str]:
    """The sentences of ``text`` under ``mode`` (a name of :data:`SENTENCES`)."""
    return SENTENCES.get(mode)(text)
