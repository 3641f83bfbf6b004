"""Text analysis: sentence splitting, tokenizers, the script's length limits, stemmers, stopwords.

The names below are imported from their modules on first access (PEP 562),
so a module of this package (the rouge-score drop-in's tokenizer and
stemmer, say) can be imported without the analyzer and the registries.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing's constant without importing typing (mypy reads it the same way)
if TYPE_CHECKING:
    from rouge2.analysis.analyzer import AnalyzedText, Analyzer
    from rouge2.analysis.sentences import split_sentences

_LAZY = {
    "AnalyzedText": "rouge2.analysis.analyzer",
    "Analyzer": "rouge2.analysis.analyzer",
    "split_sentences": "rouge2.analysis.sentences",
}

__all__ = ["AnalyzedText", "Analyzer", "split_sentences"]


def __getattr__(name: str) -> object:
    """Import a public name's module on first access and keep the name here."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'rouge2.analysis' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
