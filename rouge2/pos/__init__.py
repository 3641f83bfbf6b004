"""POS layer for ROUGE-Topic and ROUGE-TopicUniq.

* :mod:`rouge2.pos.tagger`: :class:`Tagger` (``tag_many(texts) -> [[(word, tag)]]``
  plus ``name``/``version`` for signatures), :class:`SpacyTagger`,
  :class:`PretaggedTagger`, :func:`load_tagger`.
  ``annotate_many(texts) -> [[(word, tag, universal tag)]]`` adds the
  Universal Dependencies part of speech.
* :mod:`rouge2.pos.topics`: :class:`TopicSelector` (``nn|jj`` or ``noun|adj``
  specs, the tag families of Ganesan 2018, Table 3, auxiliaries left out of
  verb topics), :func:`upos_of` (Penn -> universal tag) and :func:`coarse_pos`
  for the synonym layer.

spaCy is imported only when a :class:`SpacyTagger` first tags or loads.
"""

from rouge2.pos.tagger import (
    DEFAULT_MODELS,
    PretaggedTagger,
    SpacyTagger,
    Tagger,
    default_model,
    load_tagger,
)
from rouge2.pos.topics import (
    FAMILIES,
    PENN_TAGS,
    UPOS_TAGS,
    TopicSelector,
    coarse_pos,
    parse_topics,
    upos_of,
)

__all__ = [
    "DEFAULT_MODELS",
    "FAMILIES",
    "PENN_TAGS",
    "UPOS_TAGS",
    "PretaggedTagger",
    "SpacyTagger",
    "Tagger",
    "TopicSelector",
    "coarse_pos",
    "default_model",
    "load_tagger",
    "parse_topics",
    "upos_of",
]
