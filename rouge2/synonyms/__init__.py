"""Synonym layer of ROUGE-{N|Topic|TopicUniq}+Synonyms (Ganesan 2018, section 2.1).

* :class:`SynonymMatcher` (:mod:`.base`): ``matches(a, b, pos=None)``,
  symmetric, a word always matches itself; ``name``/``version``/``signature``
  for reproducibility signatures.
* :class:`WordNetMatcher` (:mod:`.wordnet`): the shipped WordNet 3.0 resource
  (``resources/wordnet/``), loaded once, on first use.
* :class:`DictionaryMatcher` (:mod:`.dictionary`): user dictionary files,
  stored as group ids and stars (linear in the file's size).
* :class:`UnionMatcher` and :func:`load_synonyms` (:mod:`.combine`): a domain
  file on top of WordNet, or instead of it.
* :func:`max_matching` (:mod:`.matching`): the clipped, order-independent
  matching every measure uses with synonyms; :func:`ordered_matching`, the
  same maximum taken in reference order (ROUGE-W's runs need positions).
* :mod:`.lemmas`: WordNet 3.0's morphy, the base forms behind lemma-aware
  matching (``load_synonyms(spec, lemmas=True)``, the default).

Matching works on lowercased surface words; the measure layer passes the
unstemmed forms (``AnalyzedText.surface``) and, when stemming is on, the
stemmer as the ``key`` of :func:`relation_for`.

The names below are imported from their modules on first access (PEP 562):
settings that only name a synonym source (``scoring.options``) do not load
the matching machinery and the dictionaries.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing's constant without importing typing (mypy reads it the same way)
if TYPE_CHECKING:
    from rouge2.synonyms.base import SynonymMatcher, coarse_pos
    from rouge2.synonyms.combine import UnionMatcher, load_synonyms
    from rouge2.synonyms.dictionary import DictionaryMatcher, parse_dictionary
    from rouge2.synonyms.matching import PositionwiseRelation, max_matching, ordered_matching, relation_for
    from rouge2.synonyms.wordnet import WordNetMatcher

_LAZY = {
    "SynonymMatcher": "base", "coarse_pos": "base",
    "UnionMatcher": "combine", "load_synonyms": "combine",
    "DictionaryMatcher": "dictionary", "parse_dictionary": "dictionary",
    "PositionwiseRelation": "matching", "max_matching": "matching", "ordered_matching": "matching",
    "relation_for": "matching",
    "WordNetMatcher": "wordnet",
}

__all__ = [
    "DictionaryMatcher",
    "PositionwiseRelation",
    "SynonymMatcher",
    "UnionMatcher",
    "WordNetMatcher",
    "coarse_pos",
    "load_synonyms",
    "max_matching",
    "ordered_matching",
    "parse_dictionary",
    "relation_for",
]


def __getattr__(name: str) -> object:
    """Import a public name's module on first access and keep the name here."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'rouge2.synonyms' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"rouge2.synonyms.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
