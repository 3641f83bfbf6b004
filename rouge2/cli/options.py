"""The analysis and scoring flags, shared by every sub-command that scores.

Each flag is the library option of the same name (``--multi-reference`` is
``multi_reference``) and its value goes, as written, to
:meth:`rouge2.scoring.options.Options.make`, so the command line accepts and
rejects exactly what the Python API and the YAML config do, with the same
messages.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from rouge2.limits import usable_cores
from rouge2.scoring.options import REGISTRY_OPTIONS, Options

_UNSET = None


def _names(option: str) -> str:
    """The names an option takes, from its registry (``rouge2 components`` has their summaries)."""
    return f"one of: {REGISTRY_OPTIONS[option].choices()}"


def add_option_flags(parser: argparse.ArgumentParser) -> None:
    """Add ``--tokenizer``, ``--stem``, ... (every :class:`Options` field) to ``parser``."""
    g = parser.add_argument_group("analysis and scoring options (rouge2 docs options; every name with "
                                  "its summary: rouge2 components)")
    g.add_argument("--language", metavar="CODE",
                   help="ISO 639-1 code (zh, de, ...): that language's preset of tokenizer, stemmer, "
                        "stopword list and tagger; other flags override it (rouge2 docs languages)")
    g.add_argument("--tokenizer", metavar="NAME", help=f"{_names('tokenizer')} (default rouge155)")
    g.add_argument("--sentences", metavar="MODE",
                   help=f"how a text splits into sentences for ROUGE-L/W: {_names('sentences')} (default lines)")
    g.add_argument("--stem", nargs="?", const=True, metavar="NAME",
                   help=f"stem tokens (alone: rouge155, ROUGE-1.5.5's -m, or the --language preset's); "
                        f"{_names('stem')}")
    g.add_argument("--stopwords", nargs="?", const=True, metavar="LIST",
                   help=f"remove stopwords (alone: smart, ROUGE-1.5.5's -s, or the --language preset's); "
                        f"{_names('stopwords')}")
    g.add_argument("--word-limit", metavar="N", help="keep the first N words of each text (-l)")
    g.add_argument("--byte-limit", metavar="N", help="keep the first N bytes of each text (-b)")
    g.add_argument("--synonyms", nargs="*", metavar="SOURCE",
                   help=f"match synonyms (alone: wordnet); sources: {_names('synonyms')}, or a "
                        f"dictionary file path")
    g.add_argument("--no-synonym-lemmas", dest="synonym_lemmas", action="store_const", const=False,
                   default=None, help="match synonyms on the words as written only, not on their "
                                      "base forms (screens ~ displays)")
    g.add_argument("--tagger", metavar="NAME",
                   help=f"part-of-speech tagger for topic measures: {_names('tagger')} (default spacy)")
    g.add_argument("--topic-auxiliaries", action="store_const", const=True, default=None,
                   help="count verb-tagged auxiliaries (is, was, has) as topic words")
    g.add_argument("--topic-weights", metavar="NAME",
                   help="none or idf: weigh topic words (aspects) by their inverse document frequency "
                        "over the references, so generic words count less (rouge2 docs topics)")
    g.add_argument("--aspects", metavar="PATH",
                   help="an aspect lexicon: a folder of <aspect>.txt files ('weight word' lines), a .yaml "
                        "or a .tsv file; for rouge-aspect and the per-aspect table (rouge2 docs aspects)")
    g.add_argument("--aspect-top", metavar="N", help="keep each aspect's N words of largest weight")
    g.add_argument("--aspect-min-mentions", metavar="N",
                   help="lexicon hits that make an aspect mentioned (default 1)")
    g.add_argument("--aspect-assign", metavar="MODE",
                   help="sentence (default): a sentence's hits count for its most-hit aspect; word: "
                        "for every aspect that lists the word")
    g.add_argument("--multi-reference", metavar="MODE",
                   help=f"combining several references: {_names('multi_reference')} (default pooled)")
    f = g.add_mutually_exclusive_group()
    f.add_argument("--alpha", metavar="A", help="F = PR/((1-A)P + AR), default 0.5 (F1)")
    f.add_argument("--beta", metavar="B", help="F-beta (alpha = 1/(1+B^2))")
    g.add_argument("--rounding", metavar="MODE",
                   help=f"{_names('rounding')}: rouge155 rounds R and P to 5 decimals per pair "
                        f"and F from them, as ROUGE-1.5.5 prints")


def per_core_count(unit: str) -> Callable[[str], int]:
    """An argparse type: a whole number of ``unit`` (threads, processes), 0
    meaning one per usable CPU core."""
    def count(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number of {unit}, got {text!r}") from None
        if n < 0:
            raise argparse.ArgumentTypeError(f"expected 0 (one per core) or more, got {n}")
        return n or usable_cores()
    return count


def add_threads_flag(parser: argparse.ArgumentParser) -> None:
    """Add ``--threads N`` (not an option of the scores: the results are the same)."""
    parser.add_argument("--threads", type=per_core_count("threads"), default=1, metavar="N",
                        help="score N chunks of pairs at a time, in threads of this process (the C "
                             "kernels run without the GIL; results identical to one thread; "
                             "0 = one per usable CPU core; default 1)")


def option_values(args: argparse.Namespace) -> dict[str, Any]:
    """The option flags given on the command line, as ``Options.make`` keywords."""
    values: dict[str, Any] = {}
    for key in ("language", "tokenizer", "sentences", "stem", "stopwords", "word_limit", "byte_limit",
                "synonym_lemmas", "tagger", "topic_auxiliaries", "topic_weights", "aspects", "aspect_top",
                "aspect_min_mentions", "aspect_assign", "multi_reference", "alpha", "beta", "rounding"):
        value = getattr(args, key, _UNSET)
        if value is not _UNSET:
            values[key] = value
    syn = getattr(args, "synonyms", _UNSET)
    if syn is not _UNSET:
        values["synonyms"] = list(syn) if syn else ["wordnet"]
    return values


def options_from_args(args: argparse.Namespace, base: Options | None = None) -> Options:
    """:class:`Options` from the flags (on top of ``base``)."""
    return Options.make(base, **option_values(args))
