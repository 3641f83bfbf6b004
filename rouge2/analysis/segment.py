"""Word segmenters for languages written without spaces (optional extras).

Each segmenter is a tokenizer (registered in
:data:`rouge2.analysis.tokenize.TOKENIZERS`): text in, words out. The words
are normalized like the ``unicode`` tokenizer's (NFC, case-folded), and
pieces without a letter or digit (spaces, punctuation) are dropped.

=============  ======================================  ===================
name           package (pinned, in the extra)          extra
=============  ======================================  ===================
``jieba``      jieba 0.42.1, default dictionary, HMM   ``rouge2[zh]``
``sudachi``    sudachipy 0.7.0 + sudachidict-core,     ``rouge2[ja]``
               split mode A (short units)
``pythainlp``  pythainlp 5.4.0, ``newmm`` engine       ``rouge2[th]``
``kiwi``       kiwipiepy 0.24.1 + kiwipiepy-model      ``rouge2[ko]``
               (morphemes)
=============  ======================================  ===================

Every package reads only the dictionary or model it ships: nothing is
downloaded. A missing package is a one-line :class:`UserError` naming the
extra; a segmenter that fails on a text is a one-line error giving the line
of the text and the character where that line starts.
"""

from __future__ import annotations

import importlib
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from rouge2.errors import UserError

__all__ = ["SEGMENTERS", "Segmenter", "segmenter_origin"]


@dataclass(frozen=True)
class Segmenter:
    """One word segmenter: its packages (for messages and the signature) and how to build it."""

    name: str
    language: str
    extra: str
    packages: tuple[str, ...]
    build: Callable[[], Callable[[str], list[str]]]
    summary: str


def _need(segmenter: str, module: str):
    extra = SEGMENTERS[segmenter].extra
    try:
        return importlib.import_module(module)
    except ImportError:
        raise UserError(f"tokenizer {segmenter!r} needs the {extra!r} extra, which is not installed: "
                        f"pip install 'rouge2[{extra}]'") from None


def _jieba() -> Callable[[str], list[str]]:
    jieba = _need("jieba", "jieba")
    import logging

    jieba.setLogLevel(logging.WARNING)  # jieba logs its dictionary loading at INFO
    return lambda text: jieba.lcut(text, HMM=True)


def _sudachi() -> Callable[[str], list[str]]:
    sudachipy = _need("sudachi", "sudachipy")
    _need("sudachi", "sudachidict_core")
    tokenizer = sudachipy.Dictionary(dict="core").tokenizer(mode=sudachipy.SplitMode.A)
    return lambda text: [m.surface() for m in tokenizer.tokenize(text)]


def _pythainlp() -> Callable[[str], list[str]]:
    tokenize = _need("pythainlp", "pythainlp.tokenize")
    return lambda text: tokenize.word_tokenize(text, engine="newmm", keep_whitespace=False)


def _kiwi() -> Callable[[str], list[str]]:
    kiwipiepy = _need("kiwi", "kiwipiepy")
    _need("kiwi", "kiwipiepy_model")
    kiwi = kiwipiepy.Kiwi()
    return lambda text: [t.form for t in kiwi.tokenize(text)]


SEGMENTERS: dict[str, Segmenter] = {
    s.name: s for s in (
        Segmenter("jieba", "zh", "zh", ("jieba",), _jieba,
                  "Chinese words from jieba (rouge2[zh])"),
        Segmenter("sudachi", "ja", "ja", ("sudachipy", "sudachidict-core"), _sudachi,
                  "Japanese short-unit words from SudachiPy with its core dictionary (rouge2[ja])"),
        Segmenter("pythainlp", "th", "th", ("pythainlp",), _pythainlp,
                  "Thai words from PyThaiNLP's newmm segmenter (rouge2[th])"),
        Segmenter("kiwi", "ko", "ko", ("kiwipiepy", "kiwipiepy-model"), _kiwi,
                  "Korean morphemes from Kiwi (rouge2[ko])"),
    )
}


@cache
def _loaded(name: str) -> Callable[[str], list[str]]:
    return SEGMENTERS[name].build()


def _word(piece: str) -> str | None:
    word = unicodedata.normalize("NFC", piece.strip()).casefold()
    if any(unicodedata.category(ch)[0] in "LN" for ch in word):
        return word
    return None


def segment(name: str, text: str) -> list[str]:
    """The words of ``text`` by segmenter ``name``, line by line (see the module docstring)."""
    split = _loaded(name)
    out: list[str] = []
    offset = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            try:
                pieces = split(line)
            except Exception as exc:  # a third-party failure becomes one line
                raise UserError(f"tokenizer {name!r} failed on line {number} of a text (character "
                                f"{offset + 1}, starting {line[:30]!r}): {type(exc).__name__}: {exc}") from None
            out.extend(w for w in map(_word, pieces) if w is not None)
        offset += len(line) + 1
    return out


def segmenter(name: str) -> Callable[[str], list[str]]:
    """The tokenizer function of segmenter ``name`` (its package is imported on first use)."""
    def tokens(text: str) -> list[str]:
        return segment(name, text)
    tokens.__name__ = f"{name}_tokens"
    return tokens


def segmenter_origin(name: str) -> str:
    """``"jieba 0.42.1"``: the packages and versions a segmenter's tokens depend on."""
    from importlib.metadata import PackageNotFoundError, version

    parts = []
    for package in SEGMENTERS[name].packages:
        try:
            parts.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            parts.append(f"{package} (not installed)")
    return ", ".join(parts)
