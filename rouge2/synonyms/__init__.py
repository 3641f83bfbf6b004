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
"""

from rouge2.synonyms.base import SynonymMatcher, coarse_pos
from rouge2.synonyms.combine import UnionMatcher, load_synonyms
from rouge2.synonyms.dictionary import DictionaryMatcher, parse_dictionary
from rouge2.synonyms.matching import PositionwiseRelation, max_matching, ordered_matching, relation_for
from rouge2.synonyms.wordnet import WordNetMatcher

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
