"""Base forms of English words, offline: WordNet 3.0's morphy.

Lemma-aware synonyms (the default) let an inflected word reach the synonym
data through its base forms: ``screens`` through ``screen``, ``bought``
through ``buy``, ``cheaper`` through ``cheap``.  The base forms come from
WordNet's morphological processor, *morphy* (WordNet 3.0, ``morphy(7WN)``),
computed from two resources shipped with rouge2 and built by
``resources/build_wordnet_synonyms.py``:

* ``resources/wordnet/lemmas-wn30.tsv.gz``: the single-word lemmas of
  WordNet 3.0 with their parts of speech;
* ``resources/wordnet/exceptions-wn30.tsv.gz``: WordNet 3.0's exception
  lists (``noun.exc``, ``verb.exc``, ``adj.exc``, ``adv.exc``), single words.

Nothing is downloaded.  For a lowercased word ``w`` and a part of speech
``p`` (``n``, ``v``, ``a``, ``r``), :meth:`Morphy.morphy` returns:

1. if ``w`` is on the exception list of ``p``: the bases listed there
   (``bought`` -> ``buy``; ``better`` -> ``good``, ``well``), and nothing
   else;
2. otherwise, for adverbs: nothing (adverbs have only the exception list);
3. otherwise, for nouns ending in ``ss`` or of at most two letters: nothing
   (``boss`` is not a plural);
4. otherwise every result of the detachment rules of ``p`` that is a
   WordNet lemma of ``p`` (one pass; a rule applies when ``w`` ends with its
   suffix)::

       nouns       s->''  ses->s  xes->x  zes->z  ches->ch  shes->sh  men->man  ies->y
       verbs       s->''  ies->y  es->e  es->''  ed->e  ed->''  ing->e  ing->''
       adjectives  er->''  est->''  er->e  est->e

:meth:`Morphy.forms` is the word itself followed by those bases, without
repeats: a word always stands for itself too.

Differences from WordNet's C library, all deliberate: every rule result
that is a lemma is kept, not only the first (as nltk does); the ``-ful``
special case (``boxesful``) and collocations (``_``, ``-``) are not
handled; the word's own entry is always included.
"""

from __future__ import annotations

import gzip
import threading

from rouge2.analysis.english import AUX_INFLECTIONS
from rouge2.data import read_resource, resource_sha256
from rouge2.errors import UserError

__all__ = ["EXCEPTIONS_RESOURCE", "LEMMAS_RESOURCE", "POS_LETTERS", "RULES", "Morphy", "morphy_data"]

LEMMAS_RESOURCE = ("wordnet", "lemmas-wn30.tsv.gz")
EXCEPTIONS_RESOURCE = ("wordnet", "exceptions-wn30.tsv.gz")
POS_LETTERS = ("n", "v", "a", "r")
_POS_INDEX = {p: i for i, p in enumerate(POS_LETTERS)}

RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
          ("shes", "sh"), ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
          ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}

_lock = threading.Lock()
_data: Morphy | None = None


def _read(parts: tuple[str, str]) -> list[str]:
    origin = "/".join(parts)
    raw = read_resource(*parts)
    try:
        return gzip.decompress(raw).decode("utf-8").split("\n")
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise UserError(f"{origin}: damaged resource ({exc}); reinstall rouge2") from None


class Morphy:
    """WordNet's morphy over given lemma and exception lists.

    ``lemmas`` maps a lemma to the string of its part-of-speech letters
    (``"nv"``); ``exceptions`` maps a part of speech to ``inflected ->
    tuple of bases``.  :func:`morphy_data` gives the shipped WordNet 3.0
    instance.
    """

    #: cached results per word; cleared when it grows past this
    cache_limit = 200_000

    def __init__(self, lemmas: dict[str, str], exceptions: dict[str, dict[str, tuple[str, ...]]]):
        self.lemmas = lemmas
        self.exceptions = {p: exceptions.get(p, {}) for p in POS_LETTERS}
        self._cache: dict[str, tuple[tuple[str, ...], ...]] = {}

    def morphy(self, word: str, pos: str) -> tuple[str, ...]:
        """Base forms of lowercased ``word`` as part of speech ``pos`` (n, v, a, r), not ``word`` itself.

        Inflections of the auxiliaries be, have and do (is, was, has, did, ...)
        are not reduced to their verbs: see :mod:`rouge2.analysis.english`.
        """
        if pos == "v" and word in AUX_INFLECTIONS:
            return ()
        exc = self.exceptions[pos].get(word)
        if exc is not None:
            return tuple(b for b in exc if b != word)
        if pos == "r" or (pos == "n" and (len(word) <= 2 or word.endswith("ss"))):
            return ()
        lemmas = self.lemmas
        out: list[str] = []
        for old, new in RULES[pos]:
            if word.endswith(old):
                base = word[: len(word) - len(old)] + new
                if base and base != word and pos in lemmas.get(base, "") and base not in out:
                    out.append(base)
        return tuple(out)

    def _all(self, word: str) -> tuple[tuple[str, ...], ...]:
        """Forms per part of speech (n, v, a, r), then under any part of speech; cached."""
        got = self._cache.get(word)
        if got is None:
            if len(self._cache) >= self.cache_limit:
                self._cache.clear()
            per_pos = [(word,) + self.morphy(word, p) for p in POS_LETTERS]
            out = [word]
            for f in per_pos:
                for b in f[1:]:
                    if b not in out:
                        out.append(b)
            per_pos.append(tuple(out) if len(out) > 1 else per_pos[0])
            got = self._cache[word] = tuple(per_pos)
        return got

    def forms(self, word: str, pos: str | None = None) -> tuple[str, ...]:
        """``word`` and its base forms: as ``pos`` (n, v, a, r), or under any part of speech (``None``).

        >>> m = morphy_data()
        >>> m.forms("bought", "v"), m.forms("screens", "n"), m.forms("better")
        (('bought', 'buy'), ('screens', 'screen'), ('better', 'good', 'well'))
        """
        per_pos = self._cache.get(word)
        if per_pos is None:
            per_pos = self._all(word)
        if pos is not None:
            return per_pos[_POS_INDEX[pos]]
        return per_pos[4]


def parse_morphology(lemma_lines, exception_lines, origin: str = "morphology") -> Morphy:
    """A :class:`Morphy` from the lines of the two resources (see the build script)."""
    lemmas: dict[str, str] = {}
    letters: dict[str, str] = {}  # one shared string per combination of letters
    for lineno, line in enumerate(lemma_lines, 1):
        if not line or line[0] == "#":
            continue
        word, _, pos = line.partition("\t")
        known = letters.get(pos)
        if known is None:
            if not pos or any(p not in POS_LETTERS for p in pos):
                raise UserError(f"{origin}:{lineno}: expected 'lemma<TAB>pos letters'; reinstall rouge2")
            known = letters[pos] = pos
        lemmas[word] = known
    exceptions: dict[str, dict[str, tuple[str, ...]]] = {p: {} for p in POS_LETTERS}
    for lineno, line in enumerate(exception_lines, 1):
        if not line or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3 or parts[1] not in exceptions or not parts[2].split():
            raise UserError(f"{origin}:{lineno}: expected 'inflected<TAB>pos<TAB>bases'; reinstall rouge2")
        table = exceptions[parts[1]]
        table[parts[0]] = tuple(dict.fromkeys(table.get(parts[0], ()) + tuple(parts[2].split())))
    return Morphy(lemmas, exceptions)


def morphy_data() -> Morphy:
    """The shipped WordNet 3.0 morphy, loaded once per process on first use."""
    global _data
    if _data is None:
        with _lock:
            if _data is None:
                _data = parse_morphology(
                    _read(LEMMAS_RESOURCE), _read(EXCEPTIONS_RESOURCE), "resources/wordnet"
                )
    return _data


def morphy_fingerprint() -> str:
    """What the signature records of the morphy data (lemma-aware synonyms)."""
    return f"wordnet-3.0:{resource_sha256(*LEMMAS_RESOURCE)}:{resource_sha256(*EXCEPTIONS_RESOURCE)}"
