"""Stopword lists by name or file.

``load_stopwords(spec)`` accepts:

* ``True`` or ``"smart"`` - the SMART common-words list that ROUGE-1.5.5
  uses for its ``-s`` option (every line of the file is an entry, as in the
  script);
* ``"rouge2-java"`` - the default list of the Java ROUGE 2.0 toolkit;
* ``"iso:<code>"`` - the stopwords-iso list for ISO 639-1 language
  ``<code>`` (58 languages, shipped with rouge2: no spaCy needed; entries
  are lowercased with ``str.casefold`` as the ``unicode`` tokenizer does);
* ``"spacy:<lang>"`` - spaCy's stopword list for language ``<lang>``
  (``spacy.lang.<lang>.stop_words.STOP_WORDS``; spaCy is imported only then);
* a path (``str`` or ``os.PathLike``) to a UTF-8 text file with one word per
  line; blank lines and lines whose first non-blank character is ``#`` are
  ignored and surrounding whitespace is stripped;
* ``None`` or ``False`` - no stopwords.

Entries are returned as written.  The script removes a token when its
lowercased form (before stemming) is in the list, so entries should be
lowercase.
"""

from __future__ import annotations

import gzip
import importlib
import json
import os
import re
from functools import cache
from pathlib import Path
from typing import Union

from rouge2.data import read_resource, resource_sha256, sha256_file
from rouge2.errors import UserError
from rouge2.files import check_regular, read_bytes
from rouge2.registry import Registry, suggest

__all__ = ["ISO_LANGUAGES", "STOPWORDS", "canonical_stopwords", "iso_stopwords", "load_stopwords"]

StopwordSpec = Union[bool, str, "os.PathLike[str]", None]


@cache
def _smart() -> frozenset[str]:
    # The script chomps each line and adds it as is.
    text = read_resource("rouge155", "smart_common_words.txt").decode("latin-1")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return frozenset(lines)


@cache
def _rouge2_java() -> frozenset[str]:
    # The Java tool's file has three entries with a stray 0x94 byte after
    # "herse", "itse" and "myse".  The Java tool reads the file as ISO-8859-1
    # (each line trimmed and lowercased), so its entries are "herse\x94" etc.;
    # here the byte becomes U+FFFD.  Neither form can equal a token (tokens
    # hold no control characters or U+FFFD), so in both tools these three
    # entries remove nothing, and "herself", "itself", "myself" are kept.
    text = read_resource("stopwords", "rouge2-java-default.txt").decode(
        "utf-8", errors="replace"
    )
    return frozenset(line for line in text.splitlines() if line)


_LANG = re.compile(r"^[a-z]{2,3}$")


def _spacy_language(lang: str) -> str:
    lang = lang.strip().lower()
    if not _LANG.match(lang):
        raise UserError(
            f"bad spaCy stopword language {lang!r} in 'spacy:{lang}'; "
            "use a spaCy language code such as 'spacy:en' or 'spacy:de'"
        )
    return lang


@cache
def _spacy(lang: str) -> frozenset[str]:
    try:
        importlib.import_module("spacy")
    except ImportError as exc:
        raise UserError(
            f"stopwords 'spacy:{lang}' need spaCy, which the core install leaves out: "
            "pip install 'rouge2[topics]', or choose another list"
        ) from exc
    try:
        module = importlib.import_module(f"spacy.lang.{lang}.stop_words")
    except ImportError as exc:
        raise UserError(
            f"spaCy has no stopword list for language {lang!r} "
            f"('spacy:{lang}'); use a language code spaCy supports, e.g. 'spacy:en'"
        ) from exc
    return frozenset(module.STOP_WORDS)


@cache
def _iso_table() -> dict[str, list[str]]:
    data = read_resource("stopwords", "iso", "stopwords-iso.json.gz")
    return json.loads(gzip.decompress(data).decode("utf-8"))


#: the ISO 639-1 codes of the shipped stopwords-iso lists
ISO_LANGUAGES: tuple[str, ...] = (
    "af", "ar", "bg", "bn", "br", "ca", "cs", "da", "de", "el", "en", "eo", "es", "et", "eu", "fa",
    "fi", "fr", "ga", "gl", "gu", "ha", "he", "hi", "hr", "hu", "hy", "id", "it", "ja", "ko", "ku",
    "la", "lt", "lv", "mr", "ms", "nl", "no", "pl", "pt", "ro", "ru", "sk", "sl", "so", "st", "sv",
    "sw", "th", "tl", "tr", "uk", "ur", "vi", "yo", "zh", "zu",
)


def _iso_language(code: str) -> str:
    lang = code.strip().lower()
    if lang not in ISO_LANGUAGES:
        raise UserError(f"no stopwords-iso list for language {code!r} ('iso:{code}')"
                        f"{suggest(lang, ISO_LANGUAGES)}; use one of the ISO 639-1 codes: "
                        f"{', '.join(ISO_LANGUAGES)}")
    return lang


@cache
def iso_stopwords(code: str) -> frozenset[str]:
    """The stopwords-iso list for ``code``, each entry case-folded (as tokens are)."""
    return frozenset(w.casefold() for w in _iso_table()[_iso_language(code)])


def _from_file(path: Path) -> frozenset[str]:
    data = read_bytes(path, "stopword file")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    words: set[str] = set()
    for number, raw in enumerate(data.splitlines(), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UserError(
                f"stopword file {path}, line {number}: byte 0x{raw[exc.start]:02x} "
                f"at column {exc.start + 1} is not valid UTF-8; save the file as UTF-8"
            ) from None
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        words.add(word)
    return frozenset(words)


def _package_version(package: str) -> str:
    from importlib import metadata  # lazy: costs start-up time; only signatures need it

    try:
        return f"{package} {metadata.version(package)}"
    except metadata.PackageNotFoundError:
        return f"{package} (not installed)"


#: stopword lists by name; ``file:<path>`` names a word-list file
STOPWORDS: Registry = Registry("stopword list")
STOPWORDS.add("none", lambda: frozenset(), "no stopword removal", aliases=("false", "no", "off"))
STOPWORDS.add("smart", _smart, "the SMART list ROUGE-1.5.5 removes with -s",
              aliases=("true", "rouge155"),
              fingerprint=lambda name: resource_sha256("rouge155", "smart_common_words.txt"))
STOPWORDS.add("rouge2-java", _rouge2_java, "the Java ROUGE 2.0 default list", aliases=("java",),
              fingerprint=lambda name: resource_sha256("stopwords", "rouge2-java-default.txt"))
STOPWORDS.add_family("iso:", "iso:<lang>", _iso_language, lambda lang: lambda: iso_stopwords(lang),
                     "the stopwords-iso list for ISO 639-1 code <lang> (58 languages, shipped)",
                     fingerprint=lambda name: resource_sha256("stopwords", "iso", "stopwords-iso.json.gz"))
STOPWORDS.add_family("spacy:", "spacy:<lang>", _spacy_language, lambda lang: lambda: _spacy(lang),
                     "spaCy's stopword list for language <lang>",
                     fingerprint=lambda name: _package_version("spacy"))
STOPWORDS.add_family("file:", "<file path>", lambda path: str(Path(path).expanduser().resolve()),
                     lambda path: lambda: _from_file(Path(path)), "one word a line, # comments",
                     fingerprint=lambda name: sha256_file(name[len("file:"):]), capabilities={"path": True})


def canonical_stopwords(spec: StopwordSpec) -> str:
    """The canonical name of a ``stopwords`` setting.

    ``True``/``False``/``None`` are ``smart``/``none``; a registered name or
    alias is its canonical name; anything else is read as a file path and
    must exist (its canonical name is ``file:<absolute path>``).
    """
    if spec is None or spec is False:
        return "none"
    if spec is True:
        return "smart"
    if isinstance(spec, os.PathLike):
        spec = os.fspath(spec)
    if not isinstance(spec, str):
        raise STOPWORDS.unknown(spec)
    found = STOPWORDS.find(spec)
    if found is not None:
        return found
    path = Path(spec).expanduser()
    if path.is_file():
        return "file:" + str(path.resolve())
    if os.sep in spec or "/" in spec or path.suffix:
        if path.exists() and not path.is_dir():
            check_regular(path, "stopword file")  # a FIFO, a device: says which
        what = "is a folder" if path.is_dir() else "not found"
        raise UserError(f"stopword file {spec} {what}; give an existing file (one word a line) "
                        f"or one of the named lists: smart, rouge2-java, iso:<lang>, spacy:<lang>")
    raise STOPWORDS.unknown(spec, " or the path of an existing word-list file")


def load_stopwords(spec: StopwordSpec) -> frozenset[str]:
    """The stopword set described by ``spec`` (see the module docstring)."""
    if isinstance(spec, (set, frozenset, list, tuple)):
        return frozenset(spec)
    return STOPWORDS.get(canonical_stopwords(spec))()
