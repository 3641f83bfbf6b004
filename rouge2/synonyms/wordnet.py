"""WordNet 3.0 synonyms, from the prebuilt resource shipped with rouge2.

The resource ``resources/wordnet/synonyms-wn30.tsv.gz`` is built by
``resources/build_wordnet_synonyms.py``; ``resources/wordnet/README.md``
states the selection rule (Ganesan 2018, section 2.1: nouns - synsets,
hypernyms, hyponyms; verbs - synsets, hypernyms, troponyms; both limited to
words with a tag count greater than 3; adjectives - synsets and similar-to
satellites) and the resulting counts.

The file is read once per process, on the first question asked, and shared
by every :class:`WordNetMatcher`.  Loading makes the relation symmetric: for
every line ``a<TAB>pos<TAB>... b ...`` both ``b`` is added to ``a``'s
neighbours and ``a`` to ``b``'s (the shipped file is already symmetric; this
keeps the guarantee for any file given with ``path=``).
"""

from __future__ import annotations

import gzip
import threading
from pathlib import Path

from rouge2.data import read_resource, resource_sha256
from rouge2.errors import UserError
from rouge2.files import read_bytes
from rouge2.synonyms.base import SYNONYM_SOURCES, SynonymMatcher, coarse_pos
from rouge2.synonyms.lemmas import morphy_data

__all__ = ["RESOURCE", "RULE_ID", "WordNetMatcher"]

RESOURCE = ("wordnet", "synonyms-wn30.tsv.gz")
RULE_ID = "r1"
_POS = ("n", "v", "a")
_EMPTY: frozenset[str] = frozenset()

_lock = threading.Lock()
_cache: dict[str, dict[str, dict[str, frozenset[str]]]] = {}


def parse_resource(data: bytes, origin: str) -> dict[str, dict[str, frozenset[str]]]:
    """``pos -> word -> neighbours`` from the (decompressed) resource text, symmetrised."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{origin}: not UTF-8 ({exc.reason} at byte {exc.start}); rebuild it") from exc
    table: dict[str, dict[str, set[str]]] = {p: {} for p in _POS}
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3 or parts[1] not in table:
            raise UserError(
                f"{origin}:{lineno}: expected 'word<TAB>n|v|a<TAB>synonyms'; rebuild the resource "
                "with resources/build_wordnet_synonyms.py"
            )
        word, pos, syns = parts
        word = word.lower()
        rel = table[pos]
        mine = rel.setdefault(word, set())
        for syn in syns.split():
            syn = syn.lower()
            if syn == word:
                continue
            mine.add(syn)
            rel.setdefault(syn, set()).add(word)  # symmetric closure
    return {p: {w: frozenset(s) for w, s in rel.items() if s} for p, rel in table.items()}


def _load(path: str | None) -> dict[str, dict[str, frozenset[str]]]:
    key = path or ""
    table = _cache.get(key)
    if table is not None:
        return table
    with _lock:
        table = _cache.get(key)
        if table is None:
            if path is None:
                raw = read_resource(*RESOURCE)
                origin = "/".join(RESOURCE)
            else:
                raw = read_bytes(path, "WordNet synonym resource")
                origin = str(path)
            try:
                data = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
            except (OSError, EOFError) as exc:
                raise UserError(f"{origin}: damaged gzip data ({exc}); reinstall rouge2") from exc
            table = parse_resource(data, origin)
            _cache[key] = table
    return table


class WordNetMatcher(SynonymMatcher):
    """Synonyms from WordNet 3.0 (nouns, verbs, adjectives).

    ``matches(a, b, pos)`` is true when ``a == b`` or the two words are
    related under ``pos`` (a Penn tag or ``n``/``v``/``a``); with
    ``pos=None`` a relation under any part of speech counts.  Adverbs and
    other tags have no WordNet synonyms here.

    ``lemmas`` (default true): the words are also taken through their base
    forms *of the same part of speech* (WordNet's morphy,
    :mod:`rouge2.synonyms.lemmas`): ``a ~ b`` under ``p`` when some form of
    ``a`` as ``p`` and some form of ``b`` as ``p`` are related as ``p``.
    ``screens ~ displays`` (nouns), ``bought ~ purchased`` (verbs),
    ``cheaper ~ inexpensive`` (adjectives).

    ``path`` replaces the shipped resource with another file in the same
    format (plain or gzip); it is meant for tests and experiments.
    """

    def __init__(self, path: str | Path | None = None, lemmas: bool = True):
        self._path = None if path is None else str(path)
        self.lemmas = bool(lemmas)
        self._form_cache: dict[str, tuple[tuple[str, ...], ...]] = {}
        self.name = "wordnet-3.0" if path is None else f"wordnet-file:{Path(path).name}"
        self.version = RULE_ID

    @property
    def table(self) -> dict[str, dict[str, frozenset[str]]]:
        """``pos -> word -> neighbours`` (loaded on first use)."""
        return _load(self._path)

    def _parts(self, pos: str | None) -> tuple[int, ...]:
        """Indexes into ``_POS`` of the parts of speech ``pos`` allows."""
        cpos = coarse_pos(pos)
        if cpos is None:
            return (0, 1, 2)
        return (_POS.index(cpos),) if cpos in _POS else ()

    def _word_forms(self, word: str) -> tuple[tuple[str, ...], ...]:
        """The word's forms as a noun, a verb and an adjective (cached)."""
        cache = self._form_cache
        got = cache.get(word)
        if got is None:
            if self.lemmas:
                forms = morphy_data().forms
                got = (forms(word, "n"), forms(word, "v"), forms(word, "a"))
            else:
                one = (word,)
                got = (one, one, one)
            if len(cache) >= 200_000:
                cache.clear()
            cache[word] = got
        return got

    def neighbors(self, word: str, pos: str | None = None) -> frozenset[str]:
        table = _load(self._path)
        word = word.lower()
        found = []
        forms = self._word_forms(word)
        for i in self._parts(pos):
            rel = table[_POS[i]]
            for f in forms[i]:
                got = rel.get(f)
                if got:
                    found.append(got)
        if not found:
            return _EMPTY
        if len(found) == 1 and word not in found[0]:
            return found[0]
        out = frozenset().union(*found)
        return out - {word} if word in out else out

    def _related(self, a: str, b: str, pos: str | None) -> bool:
        # A direct look-up, without building the union of neighbour sets.
        table = _load(self._path)
        forms_a = self._word_forms(a)
        forms_b = self._word_forms(b)
        for i in self._parts(pos):
            rel = table[_POS[i]]
            fb = forms_b[i]
            for x in forms_a[i]:
                near = rel.get(x)
                if near and any(y in near for y in fb):
                    return True
        return False

    def lookup(self, pool, pos: str | None = None):
        """Words of ``pool`` related to a word: the pool is indexed by its words' forms once."""
        table = _load(self._path)
        parts = self._parts(pos)
        word_forms = self._word_forms
        by_form: dict[int, dict[str, list[str]]] = {i: {} for i in parts}
        for t in pool:
            forms = word_forms(t)
            for i in parts:
                idx = by_form[i]
                for y in forms[i]:
                    idx.setdefault(y, []).append(t)

        def related(a: str) -> set[str]:
            out: set[str] = set()
            forms = word_forms(a)
            for i in parts:
                rel = table[_POS[i]]
                idx = by_form[i]
                for x in forms[i]:
                    near = rel.get(x)
                    if not near:
                        continue
                    if len(near) <= len(idx):
                        for n in near:
                            got = idx.get(n)
                            if got:
                                out.update(got)
                    else:
                        for y, ts in idx.items():
                            if y in near:
                                out.update(ts)
            return out

        return related


_singletons: dict[bool, WordNetMatcher] = {}


def wordnet_synonyms(lemmas: bool = True) -> WordNetMatcher:
    """The shipped WordNet matcher, one per ``lemmas`` setting and process."""
    got = _singletons.get(lemmas)
    if got is None:
        got = _singletons[lemmas] = WordNetMatcher(lemmas=lemmas)
    return got


SYNONYM_SOURCES.add("wordnet", wordnet_synonyms, "WordNet 3.0 as the ROUGE 2.0 paper selects it (shipped)",
                    aliases=("true", "wordnet-3.0", "wn", "wn30"),
                    fingerprint=lambda name: f"wordnet-3.0@{RULE_ID}:{resource_sha256(*RESOURCE)}")
