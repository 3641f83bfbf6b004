"""The :class:`SynonymMatcher` interface and the part-of-speech argument.

A matcher answers one question: may word ``a`` in one text count as word
``b`` in the other?  The answer is

* symmetric: ``matches(a, b, pos) == matches(b, a, pos)``;
* reflexive: a word always matches itself;
* not transitive: ``a ~ b`` and ``b ~ c`` do not make ``a ~ c``.

Words are compared as lowercased surface forms.  The measure layer passes
the *unstemmed* lowercased tokens (``AnalyzedText.surface``), never stems:
synonym resources list words, and "docum" is in none of them.  Exact
(identity) matches are decided on whatever the measure counts (stems, when
stemming is on); the matcher is consulted only for synonym edges.

**Lemma-aware matchers** (``lemmas=True``, the default of
:func:`~rouge2.synonyms.load_synonyms`) also relate inflected forms: two
words are related when some form of one and some form of the other are
synonyms in the data, a word's forms being the word itself and its WordNet
base forms (:mod:`rouge2.synonyms.lemmas`): ``screens ~ displays`` because
``screen ~ display``.  Two words whose only link is a shared base form
(``screens``, ``screen``) are *not* related: the data never relates a word
to itself, and making inflections of one word match is the stemmer's job.

``pos`` is the part of speech both words are taken in: a Penn Treebank tag
(``NN``, ``VBD``, ``JJS``, ...), a coarse WordNet code (``n``, ``v``, ``a``;
``s`` is read as ``a``, ``r`` as adverb) or ``None`` for "any part of
speech".  A tag outside the noun, verb and adjective families (``DT``, ``IN``,
``RB`` ...) still lets identical words match, and lets entries of user
dictionaries (which carry no part of speech) match, but finds no WordNet
synonyms.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable

from rouge2.registry import Registry
from rouge2.synonyms.lemmas import morphy_data

__all__ = ["ANY", "SYNONYM_SOURCES", "SynonymMatcher", "coarse_pos"]

#: Named synonym sources, each registered beside its code (``wordnet`` in
#: wordnet.py, ``file:<path>`` in combine.py; plugins: entry points
#: ``rouge2.synonym_sources``).  A source is a loader ``f(lemmas: bool) ->
#: SynonymMatcher``; a family's factory gives one for its canonical name.
SYNONYM_SOURCES: Registry = Registry("synonym source", packages=("rouge2.synonyms",),
                                     group="rouge2.synonym_sources")

ANY = None  # pos value meaning "any part of speech"

_COARSE_CODES = {"n": "n", "v": "v", "a": "a", "s": "a", "r": "r", "j": "a"}
# Universal POS tags (spaCy's token.pos_), accepted for convenience.
_UNIVERSAL = {"NOUN": "n", "PROPN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}


def coarse_pos(pos: str | None) -> str | None:
    """Coarse code for a ``pos`` argument.

    Returns ``None`` for ``None`` (any part of speech), ``'n'``, ``'v'``,
    ``'a'`` or ``'r'`` for nouns, verbs, adjectives and adverbs, and ``''``
    for any other tag (a part of speech WordNet has no synonyms for).

    >>> [coarse_pos(t) for t in (None, "NNS", "VBD", "JJ", "n", "s", "MD", "DT")]
    [None, 'n', 'v', 'a', 'n', 'a', '', '']
    """
    if pos is None:
        return None
    low = pos.lower()
    if low in _COARSE_CODES:
        return _COARSE_CODES[low]
    up = pos.upper()
    if up in _UNIVERSAL:
        return _UNIVERSAL[up]
    if up.startswith("NN"):
        return "n" if up in ("NN", "NNS", "NNP", "NNPS") else ""
    if up in ("VB", "VBD", "VBG", "VBN", "VBP", "VBZ"):
        return "v"
    if up in ("JJ", "JJR", "JJS"):
        return "a"
    if up in ("RB", "RBR", "RBS"):
        return "r"
    return ""


class SynonymMatcher(ABC):
    """Decides whether two words may match as synonyms.

    Subclasses implement :meth:`neighbors`; :meth:`matches` follows from it.
    ``name`` and ``version`` go into the reproducibility signature
    (:attr:`signature`), so two runs with the same signature used the same
    synonym data.

    :meth:`lookup` answers the question the measures ask most: which words
    of a given pool (a reference's words) are related to a word?  The
    default uses :meth:`neighbors`; matchers whose neighbour sets can be
    large or cannot be listed (lemma-aware ones) override it.
    """

    name: str = "synonyms"
    version: str = "0"
    #: whether inflected forms reach the data through their base forms
    lemmas: bool = False

    @abstractmethod
    def neighbors(self, word: str, pos: str | None = None) -> frozenset[str]:
        """Words of the data related to lowercased ``word`` under ``pos`` (never ``word`` itself).

        For a lemma-aware matcher these are the words the data relates to
        ``word`` or to one of its base forms; their inflected forms match
        ``word`` too but are not listed.
        """

    def forms(self, word: str, pos: str | None = None) -> tuple[str, ...]:
        """``word`` followed by its base forms under ``pos`` (just ``(word,)`` without lemmas)."""
        if not self.lemmas:
            return (word,)
        cpos = coarse_pos(pos)
        if cpos == "":
            return (word,)
        return morphy_data().forms(word, cpos)

    def lookup(self, pool: Collection[str], pos: str | None = None) -> Callable[[str], Iterable[str]]:
        """A function giving, for a lowercased word, the words of ``pool`` related to it.

        The result may include the word itself when it is in ``pool``.  Build
        it once per pool; every call then costs about the number of related
        words, not the size of the pool.
        """
        members: Collection[str] = pool if isinstance(pool, (set, frozenset, dict, type({}.keys()))) else set(pool)
        neighbors = self.neighbors
        tok = self.matches

        def related(a: str) -> Iterable[str]:
            near = neighbors(a, pos)
            if not self.lemmas:
                if len(near) <= len(members):
                    return [t for t in near if t in members]
                return [t for t in members if t in near]
            return [t for t in members if tok(a, t, pos)]

        return related

    def matches(self, a: str, b: str, pos: str | None = None) -> bool:
        """True when ``a`` and ``b`` are the same word or synonyms under ``pos``."""
        if a == b:
            return True
        a = a.lower()
        b = b.lower()
        if a == b:
            return True
        return self._related(a, b, pos)

    def _related(self, a: str, b: str, pos: str | None) -> bool:
        """Whether distinct lowercased words are synonyms (subclasses may answer faster)."""
        return b in self.neighbors(a, pos)

    @property
    def signature(self) -> str:
        """``name@version``, e.g. ``wordnet-3.0@r1``; ``/lemmas`` is appended for a lemma-aware matcher."""
        return f"{self.name}@{self.version}" + ("/lemmas" if self.lemmas else "")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.signature}>"
