"""A synonym relation resolved once per vocabulary, into integer word ids.

The batch path (:mod:`rouge2.scoring.batch`) scores texts as raw word ids
(a process-wide vocabulary of the kernels: ``raw_words(start)`` lists the
words of ids ``start, start + 1, ...``).  :class:`WordRelation` asks a
:class:`~rouge2.synonyms.base.SynonymMatcher` about each word once, as it
enters the vocabulary, and keeps the answers as integer lists the kernels
read without Python:

``offsets`` (int64, one more than the words covered) and ``targets``
(int32): the words related to word ``a`` *with a smaller id* are
``targets[offsets[a]:offsets[a + 1]]``.  Each related pair is stored once,
under its larger id, so the lists only ever grow at the end; a pair of
texts finds every related pair among its words by walking the lists of its
own words (both ends are in the texts).

"Related" is the matcher's answer for any part of speech (``pos=None``),
through :meth:`~rouge2.synonyms.base.SynonymMatcher.lookup`, as the
per-pair path asks it (:func:`~rouge2.synonyms.matching.relation_for`);
stem equality is not part of it (the batch path has each word's stem as
its final id).  A new word is looked up in the words before it through a
few indexes of the vocabulary (each built by ``lookup(pool)``): an index
for each run of words, merged when two runs are about the same size
(Bentley and Saxe's logarithmic method), so each word is indexed
O(log vocabulary) times and a look-up asks O(log vocabulary) indexes.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Callable, Iterable
from typing import Any

from rouge2.synonyms.base import SynonymMatcher
from rouge2.synonyms.combine import UnionMatcher
from rouge2.synonyms.dictionary import DictionaryMatcher
from rouge2.synonyms.wordnet import WordNetMatcher

__all__ = ["WordRelation", "indexable", "shared_relation"]

#: an index of a run of the vocabulary: word -> raw id, and the matcher's look-up in it
_Level = tuple[dict[str, int], Callable[[str], Iterable[str]]]


class WordRelation:
    """A matcher's relation over the raw word ids of one set of kernels,
    grown as the vocabulary grows, safe to use from several threads."""

    def __init__(self, matcher: SynonymMatcher):
        self.matcher = matcher
        self.offsets = array("q", [0])
        self.targets = array("i")
        self.lock = threading.Lock()
        self._levels: list[_Level] = []
        self._snapshot: tuple[memoryview, memoryview] | None = None

    def covering(self, kernels: Any, nwords: int) -> tuple[memoryview, memoryview]:
        """``(offsets, targets)`` covering raw ids below ``nwords`` (at
        least), as read-only snapshots that later growth leaves alone."""
        with self.lock:
            have = len(self.offsets) - 1
            if have < nwords:
                self._grow(kernels.raw_words(have), have)
                self._snapshot = None
            if self._snapshot is None:
                self._snapshot = (memoryview(self.offsets.tobytes()).cast("q"),
                                  memoryview(self.targets.tobytes()).cast("i"))
            return self._snapshot

    def related_below(self, a: int) -> list[int]:
        """The raw ids below ``a`` related to word ``a`` (for tests)."""
        return list(self.targets[self.offsets[a]:self.offsets[a + 1]])

    def _grow(self, words: list[str], start: int) -> None:
        """The lists of the new words ``words`` (raw ids ``start``, ...)."""
        lookup = self.matcher.lookup
        fresh = {w: start + i for i, w in enumerate(words)}
        look_fresh = lookup(fresh, None)
        for i, w in enumerate(words):
            a = start + i
            found = {ids[b] for ids, look in self._levels for b in look(w)}
            found.update(j for j in map(fresh.__getitem__, look_fresh(w)) if j < a)
            self.targets.extend(sorted(found))
            self.offsets.append(len(self.targets))
        levels = self._levels
        levels.append((fresh, look_fresh))
        while len(levels) >= 2 and len(levels[-2][0]) <= 2 * len(levels[-1][0]):
            merged = {**levels[-2][0], **levels[-1][0]}
            levels[-2:] = [(merged, lookup(merged, None))]


def _matcher_key(m: SynonymMatcher) -> Any:
    """What identifies a matcher's relation across scorers: its data for the
    shipped kinds (a dictionary file by the hash of its bytes, inline groups
    by their relation), else the object."""
    if type(m) is WordNetMatcher and m._path is None:
        return ("wordnet", m.lemmas)
    if type(m) is DictionaryMatcher and m.path is not None:  # a file: the hash of its bytes
        return ("dictionary", m.version, m.lemmas)
    if type(m) is DictionaryMatcher:  # inline groups (few words): the relation itself
        g = m.groups
        return ("inline", m.lemmas, frozenset((w, g.neighbors(w)) for w in g.words()))
    if type(m) is UnionMatcher:
        keys = tuple(_matcher_key(x) for x in m.members)
        return ("union", keys) if all(isinstance(k, tuple) for k in keys) else m
    return m


def indexable(m: SynonymMatcher) -> bool:
    """Whether ``m``'s look-ups cost about the number of related words, not
    the size of the pool (a :class:`WordRelation` then costs about the
    vocabulary): the shipped matchers, and any matcher without lemmas or
    with its own :meth:`~rouge2.synonyms.base.SynonymMatcher.lookup`."""
    if type(m) is UnionMatcher:
        return all(indexable(x) for x in m.members)
    return isinstance(m, (WordNetMatcher, DictionaryMatcher)) or not m.lemmas \
        or type(m).lookup is not SynonymMatcher.lookup


#: relations shared by plans with the same kernels and synonym data, most
#: recent last: a loop of score_corpus calls looks each word up once
_RELATIONS: dict = {}
_RELATIONS_KEPT = 4
_RELATIONS_LOCK = threading.Lock()


def shared_relation(kernels: Any, matcher: SynonymMatcher) -> WordRelation:
    """The :class:`WordRelation` of ``matcher`` over ``kernels``' vocabulary."""
    key = (id(kernels), _matcher_key(matcher))
    with _RELATIONS_LOCK:
        found = _RELATIONS.pop(key, None)
        if found is None:
            found = WordRelation(matcher)
            if len(_RELATIONS) >= _RELATIONS_KEPT:
                del _RELATIONS[next(iter(_RELATIONS))]
        _RELATIONS[key] = found
    return found
