"""Turn raw text into the token streams measures count.

An :class:`Analyzer` is built once from the preprocessing settings and then
called on every text; :class:`AnalyzedText` carries the results plus a small
cache of per-measure features (n-gram counts, LCS bit masks), so a reference
shared by sixteen systems is tokenized, stemmed and counted once.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import cast

from rouge2.analysis.languages import preset_for_script
from rouge2.analysis.limits import flat_text, lcs_sentences
from rouge2.analysis.sentences import SENTENCES
from rouge2.analysis.stem import batch_stemmer
from rouge2.analysis.tokenize import get_tokenizer
from rouge2.errors import UserError


class AnalyzedText:
    """The analysed form of one text.

    ``tokens`` is the flat stream N-grams, skip-bigrams and topics use;
    ``sentences`` holds per-sentence tokens for ROUGE-L and ROUGE-W (without
    length limits they concatenate to ``tokens``); ``surface`` is ``tokens``
    before stemming (the synonym layer matches words, not stems); ``tags``
    holds a part-of-speech tag per token when a tagger was used.
    """

    __slots__ = ("features", "sentences", "source", "surface", "tag_source", "tags", "tokens")

    def __init__(self, tokens, sentences, surface=None, tags=None):
        # Lists, shared where possible (a one-sentence text's only sentence
        # *is* its token list); treat them as read-only.
        self.tokens: list[str] = tokens if isinstance(tokens, list) else list(tokens)
        self.sentences: list[list[str]] = [s if isinstance(s, list) else list(s) for s in sentences]
        self.surface: list[str] = self.tokens if surface is None else list(surface)
        self.tags: list[str] | None = None if tags is None else list(tags)
        self.features: dict = {}
        self.source: str | None = None  # the raw text, for taggers
        # The raw text a length limit keeps (None without limits): what taggers see.
        self.tag_source: str | None = None

    def feature(self, key, build: Callable[[AnalyzedText], object]):
        """Per-measure data computed once per text and kept for reuse."""
        try:
            return self.features[key]
        except KeyError:
            value = self.features[key] = build(self)
            return value

    @property
    def is_empty(self) -> bool:
        return not self.tokens

    def __repr__(self) -> str:
        return f"AnalyzedText(tokens={self.tokens!r}, sentences={len(self.sentences)})"


_warned_foreign = False


def warn_if_foreign(sentences: Sequence[str]) -> None:
    """Warn once per process when a text has letters but no ``rouge155`` tokens."""
    global _warned_foreign
    if _warned_foreign:
        return
    foreign = [s for s in sentences if not s.isascii() and any(ch.isalpha() for ch in s)]
    if foreign:
        _warned_foreign = True
        code = preset_for_script("".join(foreign))
        if code is not None:
            advice = (f"for this script use its language preset, language=\"{code}\" "
                      f"(command line: --language {code}; YAML: language: {code}), or tokenizer=\"unicode\"")
        else:
            advice = ("for other languages use their preset, language=\"<ISO 639-1 code>\" (command line: "
                      "--language CODE; YAML: language: CODE), or tokenizer=\"unicode\"")
        warnings.warn(
            "a text has letters but no tokens: the rouge155 tokenizer keeps only ASCII letters and "
            f"digits, as ROUGE-1.5.5 does, so it scores 0; {advice}",
            UserWarning, stacklevel=4)


class Analyzer:
    """Preprocessing settings applied identically to candidates and references.

    The order of operations is the script's: sentence splitting, length
    limits on raw sentences, tokenization, stopword removal (on the
    lowercased word), stemming.
    """

    #: analysed texts kept at most; the cache is emptied when it is full
    CACHE_LIMIT = 200_000

    def __init__(
        self,
        tokenizer: str = "rouge155",
        stemmer: Callable[[str], str] | None = None,
        stopwords: Iterable[str] | None = None,
        word_limit: int = 0,
        byte_limit: int = 0,
        stem_min_length: int = 4,
        cache: bool = True,
        sentences: str = "lines",
    ):
        if word_limit and byte_limit:
            raise UserError("give a length limit in words or in bytes, not both")
        self.tokenizer_name = tokenizer
        self._tokenize = get_tokenizer(tokenizer)
        self.sentences = sentences
        self._split = SENTENCES.get(sentences)
        self._stemmer = stemmer
        self._stopwords = frozenset(stopwords) if stopwords else frozenset()
        self.word_limit = int(word_limit or 0)
        self.byte_limit = int(byte_limit or 0)
        self._stem_min = stem_min_length
        self._stem_memo: dict[str, str] = {}
        # the ROUGE-1.5.5 stemmer stems a whole token list in one (C) call,
        # memoized per distinct token in a bounded memo of its own
        self._stem_many = batch_stemmer(stemmer)
        self._cache: dict | None = {} if cache else None

    # -- token pipeline -------------------------------------------------
    def _finish(self, raw: list[str]) -> tuple[list[str], list[str]]:
        """Remove stopwords and stem; return (tokens, surface forms)."""
        stop = self._stopwords
        if stop:
            raw = [t for t in raw if t not in stop]
        if self._stemmer is None:
            return raw, raw
        if self._stem_many is not None:
            return self._stem_many(raw, self._stem_min), raw
        memo = self._stem_memo
        out = list(map(memo.get, raw))
        if None in out:  # words not stemmed before
            stem = self._stemmer
            smin = self._stem_min
            for i, t in enumerate(raw):
                if out[i] is None:
                    s = memo.get(t)
                    if s is None:
                        s = memo[t] = stem(t) if len(t) >= smin else t
                    out[i] = s
        return cast("list[str]", out), raw  # every None was filled above

    def _as_bytes_text(self, sentences: list[str]) -> list[str]:
        """Sentences as latin-1 strings of their UTF-8 bytes (byte semantics)."""
        return [s if s.isascii() else s.encode("utf-8").decode("latin-1") for s in sentences]

    def _from_bytes_text(self, s: str) -> str:
        if s.isascii() or self.tokenizer_name == "rouge155":
            return s
        return s.encode("latin-1").decode("utf-8", "ignore")

    def analyze_sentences(self, sentences: list[str], byte_text: bool = False) -> AnalyzedText:
        """Analyse a text given as its list of (non-empty) sentence lines.

        ``byte_text`` says the lines are already bytes decoded as latin-1 (as
        the ROUGE-1.5.5 readers produce them), so a byte limit counts them as
        they are.
        """
        tokenize = self._tokenize
        if not self.word_limit and not self.byte_limit:
            if byte_text and self.tokenizer_name != "rouge155":
                sentences = [self._from_bytes_text(s) for s in sentences]  # UTF-8 text, read as bytes
            if len(sentences) == 1:
                toks, surf = self._finish(tokenize(sentences[0]))
                if not toks and not byte_text and self.tokenizer_name == "rouge155":
                    warn_if_foreign(sentences)
                return AnalyzedText(toks, [toks], surf)
            sent_raw = [tokenize(s) for s in sentences]
            sent_tokens = []
            flat: list[str] = []
            flat_surface: list[str] = []
            for raw in sent_raw:
                toks, surf = self._finish(raw)
                sent_tokens.append(toks)
                flat.extend(toks)
                flat_surface.extend(surf)
            if not flat and not byte_text and self.tokenizer_name == "rouge155":
                warn_if_foreign(sentences)
            return AnalyzedText(flat, sent_tokens, flat_surface)
        flat_str, lcs_strs = self._limited(sentences, byte_text)
        flat, surface = self._finish(tokenize(flat_str))
        sent_tokens = [self._finish(tokenize(s))[0] for s in lcs_strs]
        result = AnalyzedText(flat, sent_tokens, surface)
        result.tag_source = flat_str  # topic measures tag only what the limit keeps
        return result

    def _limited(self, sentences: list[str], byte_text: bool) -> tuple[str, list[str]]:
        """The length limits' two cuts of a text's sentences: the flat text
        and the sentences ROUGE-L/W align (:mod:`rouge2.analysis.limits`)."""
        if self.byte_limit and not byte_text:
            sentences = self._as_bytes_text(sentences)
            byte_text = True
        # back from bytes only if the lines are bytes (a word limit alone keeps text)
        as_text = self._from_bytes_text if byte_text else (lambda s: s)
        flat_str = as_text(flat_text(sentences, self.word_limit, self.byte_limit))
        return flat_str, [as_text(s) for s in lcs_sentences(sentences, self.word_limit, self.byte_limit)]

    def raw_streams(self, text: str, byte_text: bool = False) -> tuple[list[str], list[list[str]], bool]:
        """``text``'s tokens before stopwords and stemming, as the batch path
        lays them out (the definition its kernels are tested against): the
        flat tokens, each sentence's tokens, and whether the sentences are
        just the flat tokens cut at sentence ends (no length limit).
        ``byte_text`` as for :meth:`analyze_sentences`."""
        tokenize = self._tokenize
        sentences = self.split(text)
        if not self.word_limit and not self.byte_limit:
            sents = [tokenize(s) for s in sentences]
            return [t for s in sents for t in s], sents, True
        flat_str, lcs_strs = self._limited(sentences, byte_text)
        return tokenize(flat_str), [tokenize(s) for s in lcs_strs], False

    def split(self, text: str | Sequence[str]) -> list[str]:
        """The sentences of ``text``; a list or tuple is taken as its sentences (empty ones dropped)."""
        if isinstance(text, str):
            return self._split(text)
        return [s for s in text if s]

    def analyze(self, text: str | Sequence[str], cache: bool = True) -> AnalyzedText:
        """Analyse ``text`` (split into sentences by the ``sentences`` setting), or a list of sentences.

        With ``cache`` (the default) the result is kept, so a text seen again,
        such as a reference shared by many systems, is not analysed twice.
        """
        if cache and self._cache is not None and isinstance(text, (str, tuple)):
            kept = self._cache
            if len(kept) >= self.CACHE_LIMIT:
                kept.clear()
            hit = kept.get(text)
            if hit is not None:
                return hit
            result = self.analyze_sentences(self.split(text))
            result.source = text if isinstance(text, str) else "\n".join(text)
            kept[text] = result
            return result
        result = self.analyze_sentences(self.split(text))
        result.source = text if isinstance(text, str) else "\n".join(text)
        return result

    def stem_token(self, token: str) -> str:
        """The stem this analyzer gives ``token`` (the token itself without stemming)."""
        if self._stemmer is None or len(token) < self._stem_min:
            return token
        s = self._stem_memo.get(token)
        if s is None:
            s = self._stem_memo[token] = self._stemmer(token)
        return s

    @property
    def stems(self) -> bool:
        return self._stemmer is not None

    def analyze_tagged(self, text: AnalyzedText, tagger) -> list[tuple[str, str, str]]:
        """(stem, word, tag) for each kept token of ``text``, tagged on its raw form.

        The tagger sees the original text (case and punctuation intact); each
        tagged word is then tokenized like every other text, and stopword
        removal and stemming follow, the same way on both sides.
        """
        out = []
        stop = self._stopwords
        tokenize = self._tokenize
        if text.tag_source is not None:
            source = text.tag_source  # a length limit applies to topic words too
        else:
            source = text.source or " ".join(text.surface)
        for word, tag in tagger.tag(source):
            for tok in tokenize(word):
                if tok in stop:
                    continue
                out.append((self.stem_token(tok), tok, tag))
        return out

    def clear_cache(self) -> None:
        if self._cache is not None:
            self._cache.clear()
