"""The reproducibility signature: every setting and data version behind a number.

Two results with the same signature were computed with the same options on
the same data files.  The signature is built from the registries, not from a
hand-kept list: for every option bound to a registry
(:data:`~rouge2.scoring.options.REGISTRY_OPTIONS`) and for every measure it
records the component's identity (:meth:`rouge2.registry.Registry.identity`:
canonical name, version, origin - ``rouge2`` or a plugin's distribution and
version - and the fingerprint of the data it reads: a content hash of the
stemmer's exception lists, a stopword list, the synonym data; the version of
nltk or spaCy; the tagger model).  A component cannot be left out.

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
from rouge2.analysis.languages import LANGUAGES
from rouge2.data import sha256_json
from rouge2.measures.base import MEASURES, Measure
from rouge2.registry import BUILTIN, Registry
from rouge2.scoring.options import REGISTRY_OPTIONS, Options
from rouge2.synonyms.lemmas import morphy_fingerprint

#: options recorded only when a measure declares the capability that reads
#: them (the tagger matters only to measures that need one); every other
#: option of REGISTRY_OPTIONS is always recorded
_NEEDED_BY = {"tagger": "needs_tagger"}
#: options recorded only when set: their default (``none``) changes no number
_ONLY_WHEN_SET = ("aspects", "topic_weights")


def _custom(value: Any) -> dict[str, Any]:
    """The identity of a value given as an object rather than a name."""
    if isinstance(value, frozenset):
        return {"name": f"custom({len(value)})", "version": None, "origin": "user",
                "data": sha256_json(sorted(value))}
    if isinstance(value, tuple):  # an inline synonym group
        return {"name": "inline", "version": None, "origin": "user", "data": sha256_json(list(value))}
    name = getattr(value, "__qualname__", type(value).__name__)
    return {"name": f"custom:{name}", "version": None, "origin": "user",
            "data": getattr(value, "signature", None)}


def component_identity(registry: Registry, value: Any) -> dict[str, Any]:
    """What the signature records of one option value: the registry's
    identity of a name (a file path by its base name: the content hash is
    recorded), the object's own description otherwise."""
    if not isinstance(value, str):
        return _custom(value)
    identity = registry.identity(value)
    if registry.capability(value, "path"):
        identity["name"] = _short_path(identity["name"])
    return identity


def _short_path(name: str) -> str:
    prefix, _, path = name.partition(":")
    return f"{prefix}:{Path(path).name}"


def _measure_identity(name: Any) -> dict[str, Any]:
    if isinstance(name, Measure):
        name = name.name
    if name in MEASURES:
        return MEASURES.identity(name)
    return {"name": str(name), "version": None, "origin": "user", "data": None}


def data_versions(options: Options, measures: Iterable[Any] = (), tagger: Any = None) -> dict[str, Any]:
    """The identity of every component ``options`` and ``measures`` use:
    name, version, origin and data fingerprint (see the module docstring)."""
    measures = list(measures)
    v: dict[str, Any] = {"rouge2": __version__}
    if options.language != "none":
        v["language"] = LANGUAGES.identity(options.language)
    for option, registry in REGISTRY_OPTIONS.items():
        needed_by = _NEEDED_BY.get(option)
        if needed_by and not any(_capability(m, needed_by) for m in measures):
            continue
        value = getattr(options, option)
        if option in _ONLY_WHEN_SET and value == "none":
            continue
        if option == "tagger" and tagger is not None and not isinstance(value, str):
            value = tagger
        if isinstance(value, tuple):
            v[option] = [component_identity(registry, item) for item in value]
        else:
            v[option] = component_identity(registry, value)
            # the options the component reads (capability "options": a lexicon's top, ...)
            for read in (registry.capability(value, "options", ()) if isinstance(value, str) else ()):
                v[read] = getattr(options, read)
    if options.synonyms and options.synonym_lemmas:
        v["synonym_lemmas"] = morphy_fingerprint()
    v["measures"] = {str(m.name if isinstance(m, Measure) else m): _measure_identity(m) for m in measures}
    for m in measures:  # the options a measure's factory takes (capability "options")
        for option in _capability(m, "options") or ():
            if option not in REGISTRY_OPTIONS:  # those are recorded by their identity above
                v[option] = getattr(options, option)
    return v


def _capability(measure: Any, key: str) -> Any:
    if isinstance(measure, Measure):
        return getattr(measure, key, None) if measure.name not in MEASURES else \
            MEASURES.capability(measure.name, key)
    return MEASURES.capability(measure, key) if measure in MEASURES else None


def signature(settings: Mapping[str, Any], versions: Mapping[str, Any],
              inputs_sha256: str | None = None) -> dict[str, Any]:
    """``{"sha256": ..., "settings": ..., "versions": ..., "inputs_sha256": ...}``."""
    body: dict[str, Any] = {"settings": dict(settings), "versions": dict(versions)}
    if inputs_sha256 is not None:
        body["inputs_sha256"] = inputs_sha256
    blob = json.dumps(body, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return {"sha256": hashlib.sha256(blob).hexdigest(), **body}


def _shown(option: str, value: Any) -> str:
    """A value in the signature line: its canonical name (a file by its base
    name, a plugin's component with ``@<distribution>-<version>``)."""
    if isinstance(value, frozenset):
        return f"custom({len(value)})"
    if isinstance(value, tuple):
        return "inline"
    if not isinstance(value, str):
        return "custom"
    registry = REGISTRY_OPTIONS[option]
    p = registry.passport(value)
    shown = _short_path(value) if p.capabilities.get("path") else value
    if p.origin != BUILTIN:
        shown += "@" + p.origin.replace(" ", "-")
    return shown


def signature_line(options: Options, versions: Mapping[str, Any], nrefs: Any = None) -> str:
    """The short one-line signature printed under results."""
    syn = "+".join(_shown("synonyms", s) for s in options.synonyms) or "none"
    if options.synonyms and options.synonym_lemmas:
        syn += "/lemmas"
    parts = [
        f"rouge2:{__version__}", f"tok:{_shown('tokenizer', options.tokenizer)}",
        f"sent:{_shown('sentences', options.sentences)}", f"stem:{_shown('stem', options.stem)}",
        f"stop:{_shown('stopwords', options.stopwords)}", f"syn:{syn}",
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
    data = sha256_json(dict(versions))[len("sha256:"):][:12]
    parts.append(f"data:{data}")
    return "|".join(parts)
