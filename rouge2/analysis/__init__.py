"""Text analysis: sentence splitting, tokenizers, the script's length limits, stemmers, stopwords."""

from rouge2.analysis.analyzer import AnalyzedText, Analyzer
from rouge2.analysis.sentences import split_sentences

__all__ = ["AnalyzedText", "Analyzer", "split_sentences"]
