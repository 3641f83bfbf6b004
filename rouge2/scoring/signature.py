"""The reproducibility signature: every setting and data version behind a number.

Two results with the same signature were computed with the same options on
the same data files: the stemmer's exception lists, the stopword list, the
synonym data and the tagger model are recorded by content hash or version,
not by name alone (``wordnet`` would not say which WordNet table was used).

:func:`signature_line` gives the short form printed under results, in the
style of sacreBLEU::

    rouge2:0.1.0|tok:rouge155|sent:lines|stem:rouge155|stop:none|syn:none|mref:pooled|alpha:0.5|round:none|nrefs:1|data:3f2a9c01d2e4
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from rouge2._version import __version__
from rouge2.data import resource_sha256
from rouge2.scoring.options import Options


def _sha256_file(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return "sha256:" + h.hexdigest()


def _sha256_json(value: Any) -> str:
    blob = json.dumps(value, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return "sha256:" + hashlib.sha256(blob).hexdigest()


def data_versions(options: Options, measures: Iterable[str] = (), tagger: Any = None) -> dict[str, Any]:
    """The version or content hash of every data file and model ``options`` use."""
    v: dict[str, Any] = {"rouge2": __version__}
    v.update(language_versions(options))
    stem = options.stem
    if stem == "rouge155":
        from rouge2.analysis.stem import EXCEPTION_FILES

        v["stemmer_exceptions"] = _sha256_json([resource_sha256("rouge155", f) for f in EXCEPTION_FILES])
    elif isinstance(stem, str) and stem.startswith(("snowball:", "snowballstemmer:")):
        from rouge2.analysis.stem import snowball_origin

        v["snowball"] = snowball_origin(stem)
    elif callable(stem):
        v["stemmer"] = f"custom:{getattr(stem, '__qualname__', type(stem).__name__)}"
    stop = _stopwords_version(options.stopwords)
    if stop is not None:
        v["stopwords"] = stop
    synonyms = []
    for src in options.synonyms:
        if src == "wordnet":
            from rouge2.synonyms.wordnet import RESOURCE, RULE_ID

            synonyms.append(f"wordnet-3.0@{RULE_ID}:{resource_sha256(*RESOURCE)}")
        elif isinstance(src, str) and src.startswith("file:"):
            synonyms.append(f"file:{Path(src[5:]).name}:{_sha256_file(src[5:])}")
        elif isinstance(src, tuple):
            synonyms.append(src)
        else:
            synonyms.append(getattr(src, "signature", repr(src)))
    if synonyms:
        if options.synonym_lemmas:
            synonyms.append(f"lemmas:wordnet-3.0:{resource_sha256('wordnet', 'lemmas-wn30.tsv.gz')}:"
                            f"{resource_sha256('wordnet', 'exceptions-wn30.tsv.gz')}")
        inline = [s for s in synonyms if isinstance(s, tuple)]
        named = [s for s in synonyms if not isinstance(s, tuple)]
        if inline:
            named.append(f"inline:{_sha256_json([list(g) for g in inline])}")
        v["synonyms"] = named
    if any("topic" in m for m in measures):
        v["tagger"] = getattr(tagger, "signature", None) or str(options.tagger)
        v["topic_auxiliaries"] = options.topic_auxiliaries
    return v


def _stopwords_version(sw: Any) -> str | None:
    """The data version of a stopword list (None: no list)."""
    if sw == "smart":
        return resource_sha256("rouge155", "smart_common_words.txt")
    if sw == "rouge2-java":
        return resource_sha256("stopwords", "rouge2-java-default.txt")
    if isinstance(sw, str) and sw.startswith("iso:"):
        return resource_sha256("stopwords", "iso", "stopwords-iso.json.gz")
    if isinstance(sw, str) and sw.startswith("spacy:"):
        import importlib.metadata as md

        return f"spacy {md.version('spacy')}"
    if isinstance(sw, str) and sw.startswith("file:"):
        return _sha256_file(sw[len("file:"):])
    if isinstance(sw, frozenset):
        return _sha256_json(sorted(sw))
    return None


def language_versions(options: Options) -> dict[str, Any]:
    """What the tokenizer (other than ``rouge155``) and the language preset add to the signature."""
    from rouge2.analysis.tokenize import TOKENIZERS

    v: dict[str, Any] = {}
    if options.tokenizer != "rouge155":
        v["tokenizer"] = TOKENIZERS.identity(options.tokenizer)
    if options.language != "none":
        from rouge2.analysis.languages import LANGUAGES

        v["language_preset"] = LANGUAGES.identity(options.language)
    return v


def signature(settings: Mapping[str, Any], versions: Mapping[str, Any],
              inputs_sha256: str | None = None) -> dict[str, Any]:
    """``{"sha256": ..., "settings": ..., "versions": ..., "inputs_sha256": ...}``."""
    body: dict[str, Any] = {"settings": dict(settings), "versions": dict(versions)}
    if inputs_sha256 is not None:
        body["inputs_sha256"] = inputs_sha256
    blob = json.dumps(body, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return {"sha256": hashlib.sha256(blob).hexdigest(), **body}


def signature_line(options: Options, versions: Mapping[str, Any], nrefs: Any = None) -> str:
    """The short one-line signature printed under results."""
    def short(value: Any) -> str:
        if isinstance(value, str) and value.startswith("file:"):
            return "file:" + Path(value[5:]).name
        if isinstance(value, frozenset):
            return f"custom({len(value)})"
        if callable(value) and not isinstance(value, str):
            return "custom"
        return str(value)

    syn = "+".join(short(s) if not isinstance(s, tuple) else "inline" for s in options.synonyms) or "none"
    if options.synonyms and options.synonym_lemmas:
        syn += "/lemmas"
    parts = [
        f"rouge2:{__version__}", f"tok:{options.tokenizer}", f"sent:{options.sentences}",
        f"stem:{short(options.stem)}", f"stop:{short(options.stopwords)}", f"syn:{syn}",
        f"mref:{options.multi_reference}", f"alpha:{options.alpha:g}", f"round:{options.rounding}",
    ]
    if options.language != "none":
        parts.insert(1, f"lang:{options.language}")
    if options.word_limit:
        parts.append(f"words:{options.word_limit}")
    if options.byte_limit:
        parts.append(f"bytes:{options.byte_limit}")
    if nrefs is not None:
        parts.append(f"nrefs:{nrefs}")
    data = _sha256_json(dict(versions))[len("sha256:"):][:12]
    parts.append(f"data:{data}")
    return "|".join(parts)
