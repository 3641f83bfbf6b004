"""Text analysis: tokenizers, the script's length limits, stemmers, stopwords."""

from rouge2.analysis.analyzer import Analyzer, AnalyzedText, split_sentences

__all__ = ["Analyzer", "AnalyzedText", "split_sentences"]
