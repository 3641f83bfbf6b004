"""rouge2: ROUGE exactly as ROUGE-1.5.5 scores it, plus the ROUGE 2.0 measures.

>>> import rouge2
>>> rouge2.score("the cat sat", "the cat sat down")["rouge-1"].recall
0.75
"""

from rouge2._version import __version__
from rouge2.errors import UserError
from rouge2.scoring.aspects import aspect_coverage
from rouge2.scoring.batch import StatsChunk
from rouge2.scoring.evaluate import Evaluation, MultiReferenceNote, evaluate
from rouge2.scoring.options import Options
from rouge2.scoring.scorer import Scorer, corpus_stats, iter_corpus_stats, score, score_corpus
from rouge2.stats.prf import Score

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
