"""Aspect lexicons and where their aspects occur (issue 18; docs/aspects.md).

:mod:`rouge2.aspects.lexicon` reads lexicons (the registered formats of
:data:`LEXICON_FORMATS`); :mod:`rouge2.aspects.match` finds their aspects in
analysed texts, after the run's own analysis.  The measure ``rouge-aspect``
(:mod:`rouge2.measures.aspect`) and the per-aspect analysis
(:mod:`rouge2.stats.aspects`) build on them.
"""

from rouge2.aspects.lexicon import (
    LEXICON_FORMATS,
    Lexicon,
    LexiconEntry,
    canonical_lexicon,
    inline_lexicon,
    load_lexicon,
)
from rouge2.aspects.match import AspectMatcher, AspectWord, TextAspects

__all__ = [
    "LEXICON_FORMATS",
    "AspectMatcher",
    "AspectWord",
    "Lexicon",
    "LexiconEntry",
    "TextAspects",
    "canonical_lexicon",
    "inline_lexicon",
    "load_lexicon",
]
