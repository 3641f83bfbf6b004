"""One typed options object, built by every door.

The Python API (``rouge2.score(..., stem=True)``), the ``rouge2`` command-line
flags (``--stem``), the YAML config (``preprocess: {stem: true}``), the
ROUGE-1.5.5 flags (``-m``) and the Java ``rouge.properties`` import all end
in an :class:`Options`: each value is validated once, here, through the
registries of the layer that defines it, and stored in its canonical
spelling.  The reproducibility signature is computed from it.

=================  ==========================================  ==================
option             values                                      default
=================  ==========================================  ==================
language           ``none`` or an ISO 639-1 code: a preset of    ``none``
                   tokenizer, stem, stopwords (for ``True``)
                   and tagger (:mod:`rouge2.analysis.languages`)
tokenizer          ``rouge155``, ``unicode``, ``character``,   ``rouge155``
                   a segmenter
sentences          ``lines``, ``splitter``, ``none``           ``lines``
stem               ``none``, ``rouge155`` (``True``),          ``none``
                   ``snowball:<language>``, a callable
stopwords          ``none``, ``smart`` (``True``),             ``none``
                   ``rouge2-java``, ``spacy:<lang>``, a file
                   path, a collection of words
word_limit         words kept per text (ROUGE-1.5.5 ``-l``)    0 (no limit)
byte_limit         bytes kept per text (ROUGE-1.5.5 ``-b``)    0 (no limit)
synonyms           ``False``, ``True``/``wordnet``, a file     none
                   path, inline groups, a list of these
synonym_lemmas     inflected forms match when their base       ``True``
                   forms are synonyms (screens ~ displays)
tagger             ``spacy``, ``spacy:<pipeline>``,            ``spacy``
                   ``pretagged``, a Tagger (topic measures)
topic_auxiliaries  verb-tagged auxiliaries (is, was, has) are  ``False``
                   topic words (topic measures)
topic_weights      ``none``, ``idf`` (topic and aspect         ``none``
                   measures: generic words weigh less)
aspects            an aspect lexicon: a folder of              ``none``
                   ``<aspect>.txt``, a YAML or TSV file,
                   ``<format>:<path>``, a mapping
aspect_top         entries kept per aspect (largest weight)    0 (all)
aspect_min_mentions  hits that make an aspect mentioned        1
aspect_lemmas      lexicon words match inflected forms         ``False``
aspect_synonyms    lexicon words match the run's synonyms      ``False``
aspect_assign      ``sentence``: a sentence's hits count for     ``sentence``
                   its most-hit aspect(s); ``word``: for every
                   aspect listing the word
multi_reference    ``pooled``, ``best``, ``average``, ``max-f``  ``pooled``
alpha / beta       F = PR/((1-α)P + αR); α = 1/(1+β²)          α = 0.5
rounding           ``none``, ``rouge155``                      ``none``
=================  ==========================================  ==================
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

from rouge2.analysis.languages import LANGUAGES, apply_preset
from rouge2.analysis.sentences import SENTENCES
from rouge2.analysis.stem import STEMMERS
from rouge2.analysis.stopwords import STOPWORDS, canonical_stopwords
from rouge2.analysis.tokenize import TOKENIZERS
from rouge2.aspects.lexicon import LEXICON_FORMATS, canonical_lexicon
from rouge2.aspects.match import ASSIGN
from rouge2.errors import UserError
from rouge2.measures.weights import TOPIC_WEIGHTS
from rouge2.pos.tagger import TAGGERS, Tagger
from rouge2.registry import Registry, suggest
from rouge2.stats.combine import MULTI_REFERENCE
from rouge2.stats.prf import ROUNDING
from rouge2.synonyms.base import SYNONYM_SOURCES
from rouge2.synonyms.combine import canonical_synonyms


@dataclass(frozen=True)
class Options:
    """Analysis and scoring options, each in its canonical form (see the module docs)."""

    tokenizer: str = "rouge155"
    sentences: str = "lines"
    stem: Any = "none"
    stopwords: Any = "none"
    word_limit: int = 0
    byte_limit: int = 0
    synonyms: tuple[Any, ...] = ()
    synonym_lemmas: bool = True
    tagger: Any = "spacy"
    topic_auxiliaries: bool = False
    topic_weights: str = "none"
    aspects: Any = "none"
    aspect_top: int = 0
    aspect_min_mentions: int = 1
    aspect_lemmas: bool = False
    aspect_synonyms: bool = False
    aspect_assign: str = "sentence"
    multi_reference: str = "pooled"
    alpha: float = 0.5
    rounding: str = "none"
    language: str = "none"

    # -- building ----------------------------------------------------------
    @classmethod
    def make(cls, options: Options | None = None, **kwargs: Any) -> Options:
        """Options from keyword arguments (on top of ``options`` when given).

        Every value is validated and made canonical; a mistake raises
        :class:`~rouge2.errors.UserError` naming the option.
        """
        base = options if options is not None else cls()
        unknown = [k for k in kwargs if k not in OPTION_NAMES and k != "beta"]
        if unknown:
            key = unknown[0]
            raise UserError(f"unknown option {key!r}{suggest(key, OPTION_NAMES + ('beta',))}; "
                            f"rouge2 options are {', '.join(OPTION_NAMES)}, beta")
        if "alpha" in kwargs and "beta" in kwargs and kwargs["alpha"] is not None \
                and kwargs["beta"] is not None:
            raise UserError("give alpha or beta, not both (alpha = 1 / (1 + beta^2))")
        kwargs = _with_language(base, kwargs)
        values: dict[str, Any] = {}
        for key, value in kwargs.items():
            if key == "beta":
                if value is not None:
                    values["alpha"] = alpha_from_beta(value)
                continue
            if key == "alpha" and value is None:
                continue
            values[key] = normalize(key, value)
        result = replace(base, **values)
        result.check()
        return result

    def check(self) -> None:
        """Checks across options."""
        if self.word_limit and self.byte_limit:
            raise UserError("give word_limit or byte_limit, not both "
                            "(ROUGE-1.5.5's -l and -b exclude each other)")

    def with_(self, **kwargs: Any) -> Options:
        """A copy with some options changed (validated like :meth:`make`)."""
        return Options.make(self, **kwargs)

    # -- reading -----------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """Every option as plain JSON data (custom objects by their repr)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "language" and self.language == "none":
                continue  # signatures without a language stay as they were
            out[f.name] = _plain(getattr(self, f.name))
        return out

    @property
    def stems(self) -> bool:
        return bool(self.stem != "none")


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Options))


def alpha_from_beta(beta: Any) -> float:
    """α for F-β: 1/(1+β²); β must be a finite number >= 0."""
    b = _number("beta", beta)
    if b < 0:
        raise UserError(f"beta: must be 0 or more (1 = F1), got {beta!r}")
    return 1.0 / (1.0 + b * b)


def normalize(key: str, value: Any) -> Any:
    """The canonical value of option ``key`` (a :class:`UserError` naming it otherwise)."""
    try:
        return _NORMALIZERS[key](value)
    except UserError as exc:
        msg = str(exc)
        raise UserError(msg if msg.startswith(f"{key}:") else f"{key}: {msg}") from None


def _with_language(base: Options, kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` with the language preset's options filled in (when a language is given).

    A preset fills the options not given (``stem=True`` and
    ``stopwords=True`` mean the preset's stemmer and list); without
    ``language`` in ``kwargs`` nothing changes.
    """
    if kwargs.get("language") is None:
        return _switched_on_base_language(base, kwargs)
    language = normalize("language", kwargs["language"])
    switched_on = {k for k in ("stem", "stopwords") if kwargs.get(k) is True}
    given = {k: v for k, v in kwargs.items() if k != "language" and k not in switched_on}
    # options already set on ``base`` (not at their defaults) count as given
    for key in ("tokenizer", "stem", "tagger"):
        if key not in given and getattr(base, key) != getattr(Options, key):
            given[key] = getattr(base, key)
    return {**apply_preset(language, given, switched_on), "language": language}


def _switched_on_base_language(base: Options, kwargs: dict[str, Any]) -> dict[str, Any]:
    """``stem=True``/``stopwords=True`` on top of options that have a language: the preset's."""
    switched_on = {k for k in ("stem", "stopwords") if kwargs.get(k) is True}
    if base.language == "none" or not switched_on:
        return kwargs
    preset = apply_preset(base.language, {}, switched_on)
    return {**kwargs, **{k: preset[k] for k in switched_on}}


def _language(value: Any) -> str:
    if value is None or value is False:
        return "none"
    if not isinstance(value, str):
        raise LANGUAGES.unknown(value)
    code = value.strip().replace("_", "-").split("-", 1)[0] if value.strip() else value
    return LANGUAGES.canonical(code)


def _number(key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            value = float(value) if isinstance(value, str) else value
        except ValueError:
            pass
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UserError(f"{key}: must be a number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise UserError(f"{key}: must be a finite number, got {value!r}")
    return float(value)


def _name(registry: Registry[Any], key: str) -> Callable[[Any], str]:
    def norm(value: Any) -> str:
        if not isinstance(value, str):
            raise UserError(f"expected a name, got {value!r} ({type(value).__name__}); "
                            f"use one of: {registry.choices()}")
        return str(registry.canonical(value))
    return norm


def _stem(value: Any) -> Any:
    if value is None or value is False:
        return "none"
    if value is True:
        return "rouge155"
    if callable(value):
        return value
    if not isinstance(value, str):
        raise STEMMERS.unknown(value)
    return STEMMERS.canonical(value)


def _stopwords(value: Any) -> Any:
    if isinstance(value, (set, frozenset, list, tuple)):
        words = frozenset(value)
        if not all(isinstance(w, str) for w in words):
            raise UserError("a stopword collection must hold words (text)")
        return words
    return canonical_stopwords(value)


def _limit(key: str) -> Callable[[Any], int]:
    def norm(value: Any) -> int:
        if value is None or value is False:
            return 0
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                raise UserError(f"expected a whole number of {key.split('_')[0]}s (0: no limit), "
                                f"got {value!r}")
        if value < 0:
            raise UserError(f"expected 0 (no limit) or more, got {value}")
        return int(value)
    return norm


def _count(key: str, minimum: int) -> Callable[[Any], int]:
    def norm(value: Any) -> int:
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise UserError(f"expected a whole number, {minimum} or more, got {value!r}")
        return value
    return norm


def _choice(key: str, choices: tuple[str, ...]) -> Callable[[Any], str]:
    def norm(value: Any) -> str:
        text = value.strip().lower() if isinstance(value, str) else value
        if text not in choices:
            raise UserError(f"expected one of {', '.join(choices)}, got {value!r}")
        return text
    return norm


def _alpha(value: Any) -> float:
    a = _number("alpha", value)
    if not 0.0 <= a <= 1.0:
        raise UserError(f"alpha: must be a number from 0 to 1 (0.5 = F1), got {value!r}")
    return a


def _tagger(value: Any) -> Any:
    if value is None:
        return "spacy"
    if isinstance(value, Tagger):
        return value
    return _name(TAGGERS, "tagger")(value)


def _bool(key: str) -> Callable[[Any], bool]:
    def norm(value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "yes", "on", "1"):
            return True
        if isinstance(value, str) and value.strip().lower() in ("false", "no", "off", "0"):
            return False
        raise UserError(f"expected true or false, got {value!r}")
    return norm


#: The options whose values name components, and the registry of each.  The
#: normalizers, the signature (every component's identity) and the help
#: texts read this table; an option added here is recorded in every signature.
REGISTRY_OPTIONS: dict[str, Registry[Any]] = {
    "tokenizer": TOKENIZERS,
    "sentences": SENTENCES,
    "stem": STEMMERS,
    "stopwords": STOPWORDS,
    "synonyms": SYNONYM_SOURCES,
    "tagger": TAGGERS,
    "multi_reference": MULTI_REFERENCE,
    "rounding": ROUNDING,
    "topic_weights": TOPIC_WEIGHTS,
    "aspects": LEXICON_FORMATS,
}

_NORMALIZERS = {
    **{key: _name(registry, key) for key, registry in REGISTRY_OPTIONS.items()},
    "stem": _stem,
    "stopwords": _stopwords,
    "word_limit": _limit("word_limit"),
    "byte_limit": _limit("byte_limit"),
    "synonyms": canonical_synonyms,
    "synonym_lemmas": _bool("synonym_lemmas"),
    "tagger": _tagger,
    "topic_auxiliaries": _bool("topic_auxiliaries"),
    "topic_weights": _name(TOPIC_WEIGHTS, "topic_weights"),
    "aspects": canonical_lexicon,
    "aspect_top": _count("aspect_top", 0),
    "aspect_min_mentions": _count("aspect_min_mentions", 1),
    "aspect_lemmas": _bool("aspect_lemmas"),
    "aspect_synonyms": _bool("aspect_synonyms"),
    "aspect_assign": _choice("aspect_assign", ASSIGN),
    "alpha": _alpha,
    "language": _language,
}


def _plain(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    name = f"custom:{getattr(value, '__qualname__', type(value).__name__)}"
    signature = getattr(value, "signature", None)  # a lexicon given as an object: its data hash
    return f"{name}@{signature}" if isinstance(signature, str) else name
