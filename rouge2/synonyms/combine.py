"""Combining synonym sources, and :func:`load_synonyms`.

A :class:`UnionMatcher` relates two words when any of its members does: a
domain dictionary *on top of* WordNet is ``load_synonyms(["wordnet",
"domain.txt"])``; a dictionary *instead of* WordNet is
``load_synonyms("domain.txt")``.  Union keeps the matcher contract: it is
symmetric and reflexive because every member is.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from rouge2.data import sha256_file
from rouge2.errors import UserError
from rouge2.files import check_regular
from rouge2.synonyms.base import SYNONYM_SOURCES, SynonymMatcher
from rouge2.synonyms.dictionary import DictionaryMatcher

__all__ = ["SYNONYM_SOURCES", "SynonymSpec", "UnionMatcher", "canonical_synonyms", "load_synonyms"]

#: What ``load_synonyms`` accepts (see its docstring).
SynonymSpec = bool | None | str | os.PathLike | SynonymMatcher | Sequence



class UnionMatcher(SynonymMatcher):
    """Words match when any member matcher says they do."""

    def __init__(self, matchers: Iterable[SynonymMatcher]):
        flat: list[SynonymMatcher] = []
        for m in matchers:
            # Flatten nested unions and drop repeats, keeping first-seen order.
            for member in (m.members if isinstance(m, UnionMatcher) else (m,)):
                if all(member is not seen for seen in flat):
                    flat.append(member)
        if not flat:
            raise ValueError("UnionMatcher needs at least one matcher")
        self.members: tuple[SynonymMatcher, ...] = tuple(flat)
        self.name = "+".join(m.name for m in flat)
        self.version = "+".join(m.version for m in flat)

    @property
    def signature(self) -> str:
        return "+".join(m.signature for m in self.members)

    def neighbors(self, word: str, pos: str | None = None) -> frozenset[str]:
        sets = [m.neighbors(word, pos) for m in self.members]
        sets = [s for s in sets if s]
        if not sets:
            return frozenset()
        if len(sets) == 1:
            return sets[0]
        return frozenset().union(*sets)

    def matches(self, a: str, b: str, pos: str | None = None) -> bool:
        if a == b:
            return True
        return any(m.matches(a, b, pos) for m in self.members)

    @property
    def lemmas(self) -> bool:  # type: ignore[override]
        """True when any member is lemma-aware."""
        return any(m.lemmas for m in self.members)

    def lookup(self, pool, pos: str | None = None):
        looks = [m.lookup(pool, pos) for m in self.members]

        def related(a: str) -> set[str]:
            out: set[str] = set()
            for look in looks:
                out.update(look(a))
            return out

        return related


def _one(item, lemmas: bool) -> SynonymMatcher:
    """One source: a matcher as is; a registered name through its loader;
    any other text (or path) a dictionary file."""
    if isinstance(item, SynonymMatcher):
        return item
    if item is True:
        item = "wordnet"
    if isinstance(item, os.PathLike):
        return DictionaryMatcher(item, lemmas=lemmas)
    if not isinstance(item, str):
        raise SYNONYM_SOURCES.unknown(item, ", false, a dictionary file path, or a list of these")
    if not item.strip():
        raise UserError("empty synonym source; give 'wordnet' or a dictionary file path")
    name = SYNONYM_SOURCES.find(item)
    if name is None:
        return DictionaryMatcher(item, lemmas=lemmas)
    return SYNONYM_SOURCES.get(name)(lemmas)


def load_synonyms(spec, lemmas: bool = True) -> SynonymMatcher | None:
    """The matcher for a ``synonyms`` option, or ``None`` for no synonyms.

    ``spec`` is one of

    * ``False`` or ``None``: no synonyms (returns ``None``);
    * ``True`` or ``"wordnet"``: the shipped WordNet 3.0 resource;
    * a path (``str`` or ``os.PathLike``): that dictionary file *instead of*
      WordNet (to use a file literally named ``wordnet``, write ``./wordnet``);
    * a :class:`SynonymMatcher`: used as is;
    * a list or tuple of the above, combined by union (``["wordnet",
      "domain.txt"]`` puts a domain file on top of WordNet).  Items that are
      themselves lists or tuples of words are inline synonym groups (as the
      YAML config allows: ``[[screen, display], [cheap, inexpensive]]``); they
      form one inline dictionary.  An empty list means no synonyms.

    ``lemmas`` (default true) makes every source loaded here lemma-aware:
    inflected words match when their base forms are synonyms
    (``screens ~ displays``, ``bought ~ purchased``); see
    :mod:`rouge2.synonyms.lemmas`.  ``lemmas=False`` compares the words as
    they are.  A :class:`SynonymMatcher` given as is keeps its own setting.
    """
    if not isinstance(lemmas, bool):
        raise UserError(f"synonym option 'lemmas' must be true or false, got {lemmas!r}")
    if spec is None or spec is False:
        return None
    if not isinstance(spec, (list, tuple)):
        return _one(spec, lemmas)
    matchers: list[SynonymMatcher] = []
    groups: list = []
    for item in spec:
        if item is None or item is False:
            continue
        if isinstance(item, (list, tuple)):
            groups.append(item)
        else:
            matchers.append(_one(item, lemmas))
    if groups:
        matchers.append(DictionaryMatcher.from_groups(groups, lemmas=lemmas))
    if not matchers:
        return None
    if len(matchers) == 1:
        return matchers[0]
    return UnionMatcher(matchers)


def _match_file(name: str) -> str | None:
    text = name.strip()
    if not text.lower().startswith("file:") or len(text) == len("file:"):
        return None
    return "file:" + str(Path(text[len("file:"):]).expanduser().resolve())


@SYNONYM_SOURCES.register_family("file:<path>", _match_file,
                                 "a dictionary file: one group of synonyms a line (docs/synonyms.md)",
                                 fingerprint=lambda name: sha256_file(name[len("file:"):]),
                                 capabilities={"path": True})
def _dictionary_file(canonical: str):
    path = canonical[len("file:"):]
    return lambda lemmas=True: DictionaryMatcher(path, lemmas=lemmas)


def _source_name(text: str) -> str:
    """The canonical name of one named source; any other text is a
    dictionary file path (``file:<absolute path>``), which must exist."""
    if not text.strip():
        raise UserError("empty synonym source; give 'wordnet' or a dictionary file path")
    name = SYNONYM_SOURCES.find(text)
    if name is None:
        name = SYNONYM_SOURCES.canonical("file:" + text)
    if SYNONYM_SOURCES.capability(name, "path"):
        p = Path(name[len("file:"):])
        if not p.is_file():
            if p.exists():  # a folder, a FIFO, a device: says which
                check_regular(p, "synonym dictionary")
            raise SYNONYM_SOURCES.unknown(text, " or the path of an existing dictionary file")
    return name


def canonical_synonyms(spec) -> tuple:
    """The canonical form of a ``synonyms`` setting: a tuple of sources.

    Each source is ``"wordnet"``, ``"file:<absolute path>"`` or a tuple of
    words (one inline group); ``()`` means no synonyms.  Files must exist.
    A :class:`SynonymMatcher` is kept as it is.
    """
    if spec is None or spec is False:
        return ()
    items = list(spec) if isinstance(spec, (list, tuple)) else [spec]
    out: list = []
    for item in items:
        if item is None or item is False:
            continue
        if item is True:
            out.append("wordnet")
        elif isinstance(item, SynonymMatcher):
            out.append(item)
        elif isinstance(item, (list, tuple)):
            words = tuple(str(w).strip() for w in item if str(w).strip())
            if len(words) < 2:
                raise UserError(f"a synonym group needs at least two words, got {list(item)!r}")
            out.append(words)
        elif isinstance(item, (str, os.PathLike)):
            out.append(_source_name(os.fspath(item)))
        else:
            raise SYNONYM_SOURCES.unknown(item, ", a dictionary file path, or a list of these")
    return tuple(dict.fromkeys(out))
