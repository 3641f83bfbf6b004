"""The JSON documents rouge2 prints, one shape each, and their JSON Schemas.

``rouge2 score --json`` (and :meth:`rouge2.Evaluation.to_dict`) prints a
``rouge2.score/1`` document, ``rouge2 correlate --json`` a
``rouge2.correlate/1`` document.  Each has the same top-level keys whatever
the input (one system or several, ``-c``, with or without comparisons);
the schemas are shipped with the package (``rouge2.resources`` ``schemas/``)
and :func:`json_schema` reads them.  docs/scoring.md and
docs/meta-evaluation.md describe every key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rouge2.data import read_resource

#: the ``schema`` value of ``rouge2 score --json``
SCORE = "rouge2.score/1"
#: the ``schema`` value of ``rouge2 correlate --json``
CORRELATE = "rouge2.correlate/1"

_FILES = {SCORE: "score-1.schema.json", CORRELATE: "correlate-1.schema.json"}


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of document ``name`` (``SCORE`` or ``CORRELATE``)."""
    return json.loads(read_resource("schemas", _FILES[name]))


def score_document(*, signature: str, mode: str, measures: Sequence[str], multi_reference: str,
                   average: str, confidence: float | None, resamples: int, seed: int,
                   systems: Sequence[Mapping[str, Any]],
                   comparisons: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """A ``rouge2.score/1`` document: the settings once, then one entry per system
    (``{"name", "n", "scores"}``) and the paired comparisons (a list, empty
    with one system)."""
    return {"schema": SCORE, "signature": signature, "mode": mode, "measures": list(measures),
            "multi_reference": multi_reference, "average": average, "confidence": confidence,
            "resamples": resamples, "seed": seed, "systems": [dict(s) for s in systems],
            "comparisons": [dict(c) for c in comparisons]}


def correlate_document(settings: Mapping[str, Any], correlations: Sequence[Mapping[str, Any]],
                       comparisons: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """A ``rouge2.correlate/1`` document.  ``settings`` and the objects of the
    two lists are open: the schema names the keys they always have and
    allows more."""
    return {"schema": CORRELATE, "settings": dict(settings), "correlations": [dict(r) for r in correlations],
            "comparisons": [dict(c) for c in comparisons]}
