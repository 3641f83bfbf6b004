"""Finding a lexicon's aspects in analysed texts.

Entries are analysed like every text of the run: tokenized with the run's
tokenizer, stopwords removed, stemmed.  A text is matched sentence by
sentence (the rule-based splitter's sentences, :func:`aspect_units`, each
analysed the same way): an entry *occurs* at a token position when its
tokens equal the sentence's tokens there, one by one (a phrase does not
cross a sentence boundary).

``assign`` decides which aspects a sentence's occurrences count for:

* ``sentence`` (the default): only the aspect(s) with the most occurrences
  in that sentence (all of them on a tie).  A word several aspects list
  ("nice", "hotel", "clean" in SPACE's seeds) then counts for the aspect the
  sentence is about, as opinion summarizers assign sentences to aspects
  with seed words (Angelidis et al. 2021, QT);
* ``word``: every occurrence counts for every aspect that lists the word.

Options:

* ``lemmas``: a token also matches through its base forms (WordNet's morphy,
  English; ``rooms`` ~ ``room`` without stemming), the entry word's too;
* ``relation``: a synonym relation (the run's synonyms): a one-word entry
  also matches a token related to it.

An aspect's *hits* in a text are the occurrences of its entries (a token
that is an entry of two aspects counts for both); its *words* are the
distinct entries that occur.  Every text is matched once per matcher
(cached on the :class:`~rouge2.analysis.analyzer.AnalyzedText`).
"""

from __future__ import annotations

import itertools
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rouge2.analysis.sentences import rule_sentences
from rouge2.aspects.lexicon import Lexicon
from rouge2.synonyms.lemmas import morphy_data

_MATCHERS = itertools.count()

#: how a sentence's hits are given to aspects: ``sentence``, only to the
#: aspect(s) with the most hits in the sentence; ``word``, each hit to every
#: aspect that lists the word
ASSIGN = ("sentence", "word")


@dataclass(frozen=True)
class AspectWord:
    """One analysed entry: the unit the aspect analysis counts."""

    aspect: str
    key: tuple[str, ...]   # the entry's analysed tokens
    text: str              # as written in the lexicon
    weight: float


@dataclass(frozen=True)
class TextAspects:
    """What a matcher found in one text."""

    #: aspect -> number of occurrences of its entries
    hits: dict[str, int]
    #: aspect -> distinct words (indexes into :attr:`AspectMatcher.words`) that occur
    words: dict[str, frozenset[int]]

    def mentioned(self, min_mentions: int = 1) -> frozenset[str]:
        """The aspects with at least ``min_mentions`` hits."""
        return frozenset(a for a, n in self.hits.items() if n >= min_mentions)


class AspectMatcher:
    """A lexicon prepared for one analyzer: finds aspects in analysed texts.

    ``top``: each aspect's ``top`` entries of largest weight (0: all).
    An aspect left with no entry after analysis (every word a stopword, say)
    is an *empty aspect*: a warning names it, and it is never mentioned.
    """

    def __init__(self, lexicon: Lexicon, analyzer: Any, *, top: int = 0, lemmas: bool = False,
                 relation: Any = None, assign: str = "sentence"):
        self.lexicon = lexicon.top(top) if top else lexicon
        self.analyzer = analyzer
        self.lemmas = bool(lemmas)
        self.relation = relation
        if assign not in ASSIGN:
            raise ValueError(f"assign must be one of {ASSIGN}, not {assign!r}")
        self.assign = assign
        self.aspects: tuple[str, ...] = self.lexicon.aspects
        self.words: list[AspectWord] = []
        self._index: dict[str, list[int]] = {}   # first token key -> word ids
        self._single_surface: dict[str, list[int]] = {}  # one-word entries by surface form
        self._build()
        self.empty = tuple(a for a in self.aspects if not any(w.aspect == a for w in self.words))
        if self.empty:
            warnings.warn(f"aspects {', '.join(self.empty)} of {self.lexicon.name} have no word left "
                          f"after the run's analysis (stopwords, tokenizer); they are never mentioned",
                          UserWarning, stacklevel=3)
        self._related_memo: dict[str, tuple[int, ...]] = {}
        self._related_in: Callable[[str], Any] | None = None
        #: this matcher's key in a text's feature cache (never reused, unlike id())
        self._token = next(_MATCHERS)

    # -- preparing the entries -------------------------------------------------
    def _analyse(self, text: str) -> tuple[list[str], list[str]]:
        a = self.analyzer
        return a._finish(a._tokenize(text))

    def _build(self) -> None:
        seen: dict[tuple[str, tuple[str, ...]], int] = {}
        #: per word, per position: the keys it stands for (its lemma forms)
        self._word_forms: list[tuple[frozenset[str], ...]] = []
        for entry in self.lexicon.entries:
            key, surface = self._analyse(entry.text)
            if not key:
                continue
            k = (entry.aspect, tuple(key))
            if k in seen:  # two spellings of one analysed word ("room", "rooms" stemmed)
                w = self.words[seen[k]]
                if entry.weight > w.weight:
                    self.words[seen[k]] = AspectWord(w.aspect, w.key, w.text, entry.weight)
                continue
            seen[k] = len(self.words)
            self.words.append(AspectWord(entry.aspect, tuple(key), entry.text, entry.weight))
            self._word_forms.append(tuple(frozenset(self._forms(t, s)) for t, s in zip(key, surface)))
            if len(key) == 1:
                self._single_surface.setdefault(surface[0], []).append(len(self.words) - 1)
        for i, forms in enumerate(self._word_forms):
            for first in forms[0]:
                self._index.setdefault(first, []).append(i)

    def _forms(self, key: str, surface: str) -> tuple[str, ...]:
        """The keys a token stands for: its analysed form, and with lemmas the
        base forms of its surface form, each analysed (stemmed) the same way."""
        if not self.lemmas:
            return (key,)
        stem = self.analyzer.stem_token
        return tuple(dict.fromkeys([key, *(stem(f) for f in morphy_data().forms(surface))]))

    # -- matching ------------------------------------------------------------------
    def find(self, text: Any) -> TextAspects:
        """The aspects of an analysed text (computed once per text and matcher)."""
        return text.feature(("aspects", self._token), self._find)

    def _find(self, text: Any) -> TextAspects:
        hits: Counter = Counter()
        words: dict[str, set[int]] = {}
        for sentence in aspect_units(text):
            tokens, surface = self._analyse(sentence)
            keys = [self._forms(t, w) for t, w in zip(tokens, surface)]
            found = [wid for pos in range(len(tokens)) for wid in self._at(keys, surface, pos, len(tokens))]
            if self.assign == "sentence" and found:
                per = Counter(self.words[w].aspect for w in found)
                most = max(per.values())
                found = [w for w in found if per[self.words[w].aspect] == most]
            for wid in found:
                w = self.words[wid]
                hits[w.aspect] += 1
                words.setdefault(w.aspect, set()).add(wid)
        return TextAspects(dict(hits), {a: frozenset(ws) for a, ws in words.items()})

    def _at(self, keys: Sequence[tuple[str, ...]], surface: Sequence[str], pos: int, end: int) -> set[int]:
        """The words occurring at token ``pos`` (within the sentence ending at ``end``)."""
        found: set[int] = set()
        for k in keys[pos]:
            for wid in self._index.get(k, ()):
                forms = self._word_forms[wid]
                if pos + len(forms) <= end and all(not forms[j].isdisjoint(keys[pos + j])
                                                   for j in range(1, len(forms))):
                    found.add(wid)
        if self.relation is not None:
            found.update(self._related(surface[pos]))
        return found

    def _related(self, token: str) -> tuple[int, ...]:
        """One-word entries related to ``token`` through the synonym relation."""
        got = self._related_memo.get(token)
        if got is None:
            if self._related_in is None:
                pool = set(self._single_surface)
                rel = self.relation
                look = getattr(rel, "lookup", None)
                self._related_in = look(pool) if look is not None else (
                    lambda a: [w for w in pool if rel.tok(a, w)])
            got = tuple(wid for w in self._related_in(token) for wid in self._single_surface.get(w, ()))
            if len(self._related_memo) > 200_000:
                self._related_memo.clear()
            self._related_memo[token] = got
        return got


def aspect_units(text: Any) -> list[str]:
    """The sentences of an analysed text that entries are matched in: the
    rule-based splitter's sentences (the tagger's units too, whatever the
    run's ``sentences`` setting) of the raw text a length limit keeps."""
    raw = text.tag_source if text.tag_source is not None else (text.source or " ".join(text.surface))
    return rule_sentences(raw)


__all__ = ["ASSIGN", "AspectMatcher", "AspectWord", "TextAspects", "aspect_units"]
