"""The reproducibility signature: every setting and data version behind a number."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Mapping



def _sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


def _component_versions(cfg, scorer: Any) -> dict[str, Any]:
    try:
        from rouge2._version import __version__
    except Exception:  # pragma: no cover
        __version__ = "unknown"
    versions: dict[str, Any] = {"rouge2": __version__}
    tagger = synonyms = None
    measures = getattr(scorer, "measures", None)
    for m in (measures.values() if isinstance(measures, Mapping) else ()):
        for attr in ("tagger", "_tagger"):
            t = getattr(m, attr, None)
            if t is not None and isinstance(getattr(t, "signature", None), str):
                tagger = t.signature
        for attr in ("synonyms", "matcher", "_synonyms", "_matcher"):
            s = getattr(m, attr, None)
            if s is not None and isinstance(getattr(s, "signature", None), str):
                synonyms = s.signature
    if any("topic" in m for m in cfg.measures):
        if tagger is None:
            try:
                from rouge2.pos.tagger import default_model

                tagger = f"spacy+{default_model()}"
            except Exception:
                tagger = "unknown"
        versions["tagger"] = tagger
    syn = cfg.preprocess.synonyms
    if syn is not False:
        if isinstance(syn, str):
            versions["synonym_data"] = f"file sha256:{_sha256_file(syn)}"
        elif isinstance(syn, tuple):
            blob = json.dumps([list(g) for g in syn]).encode("utf-8")
            versions["synonym_data"] = f"inline sha256:{hashlib.sha256(blob).hexdigest()}"
        else:
            versions["synonym_data"] = synonyms or "wordnet"
    sw = cfg.preprocess.stopwords
    if isinstance(sw, str) and Path(sw).is_file():
        versions["stopword_file"] = f"sha256:{_sha256_file(sw)}"
    return versions


def signature(cfg, versions: Mapping[str, Any], inputs_sha256: str) -> dict[str, Any]:
    body = {"settings": cfg.settings(), "versions": dict(versions), "inputs_sha256": inputs_sha256}
    blob = json.dumps(body, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return {"sha256": hashlib.sha256(blob).hexdigest(), **body}
