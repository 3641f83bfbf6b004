"""rouge2: ROUGE exactly as ROUGE-1.5.5 scores it, plus the ROUGE 2.0 measures.

>>> import rouge2
>>> rouge2.score("the cat sat", "the cat sat down")["rouge-1"].recall
0.75

``import rouge2`` loads only this module, the version and the error class:
each public name below is imported from the module that implements it the
first time it is used (a module ``__getattr__``, PEP 562), so a script, the
``rouge2`` command and the rouge-score drop-in do not pay for the scoring
engine, the statistics or the registries before they need them.
"""

from __future__ import annotations

import importlib

from rouge2._version import __version__
from rouge2.errors import UserError

TYPE_CHECKING = False  # typing's constant without importing typing (mypy reads it the same way)
if TYPE_CHECKING:  # what the lazy names are, for type checkers and IDEs
    from rouge2.scoring.aspects import aspect_coverage
    from rouge2.scoring.batch import StatsChunk
    from rouge2.scoring.evaluate import Evaluation, MultiReferenceNote, evaluate
    from rouge2.scoring.options import Options
    from rouge2.scoring.scorer import Scorer, corpus_stats, iter_corpus_stats, score, score_corpus
    from rouge2.stats.prf import Score

#: public name -> the module that defines it (imported on first access)
_LAZY = {
    "aspect_coverage": "rouge2.scoring.aspects",
    "Evaluation": "rouge2.scoring.evaluate",
    "evaluate": "rouge2.scoring.evaluate",
    "MultiReferenceNote": "rouge2.scoring.evaluate",
    "Options": "rouge2.scoring.options",
    "Score": "rouge2.stats.prf",
    "Scorer": "rouge2.scoring.scorer",
    "StatsChunk": "rouge2.scoring.batch",
    "corpus_stats": "rouge2.scoring.scorer",
    "iter_corpus_stats": "rouge2.scoring.scorer",
    "score": "rouge2.scoring.scorer",
    "score_corpus": "rouge2.scoring.scorer",
}

__all__ = [
    "Evaluation",
    "MultiReferenceNote",
    "Options",
    "Score",
    "Scorer",
    "StatsChunk",
    "UserError",
    "__version__",
    "aspect_coverage",
    "corpus_stats",
    "evaluate",
    "iter_corpus_stats",
    "score",
    "score_corpus",
]


def __getattr__(name: str) -> object:
    """Import a public name's module on first access and keep the name here."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'rouge2' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
