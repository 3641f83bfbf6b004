"""The per-aspect analysis from the library: ``rouge2.aspect_coverage``.

::

    stats = rouge2.aspect_coverage({"mine": predictions, "lead": lead},
                                   references, aspects="seeds/", stem=True)
    stats.rows()          # one dict per (system, aspect): the columns of aspects.csv

Options are those of :func:`rouge2.score_corpus`; ``aspects`` (a lexicon) is
required.  With ``topic_weights="idf"`` the aspect words are weighted over
all the references given.  Definitions: docs/aspects.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rouge2.errors import UserError
from rouge2.measures.aspect_coverage import AspectCoverage
from rouge2.scoring.options import Options
from rouge2.scoring.scorer import Scorer
from rouge2.stats.aspects import AspectStats


def aspect_coverage(systems: Mapping[str, Sequence[str]] | Sequence[str], references: Sequence[Any], *,
                    tasks: Sequence[str] | None = None, **options: Any) -> AspectStats:
    """The per-aspect coverage and mentions of each system (a mapping of system
    name to its predictions, or one list of predictions, named ``system``),
    line-aligned with ``references`` (each a text or a list of texts)."""
    opts = Options.make(**options)
    if opts.aspects == "none":
        raise UserError("aspect_coverage needs an aspect lexicon: aspects=PATH (a folder of "
                        "<aspect>.txt files, a .yaml or a .tsv file) or a mapping of aspects to words")
    if not isinstance(systems, Mapping):
        systems = {"system": systems}
    refs = [[r] if isinstance(r, str) else list(r) for r in references]
    names = [str(t) for t in tasks] if tasks is not None else [str(i + 1) for i in range(len(refs))]
    if len(names) != len(refs):
        raise UserError(f"{len(names)} task names but {len(refs)} references")
    cov = AspectCoverage(Scorer(["rouge-1"], options=opts))
    if cov.weighted:
        cov.fit(cov.frequencies_of(r for rs in refs for r in rs))
    stats = AspectStats(cov.aspects, cov.empty)
    for system, predictions in systems.items():
        predictions = list(predictions)
        if len(predictions) != len(refs):
            raise UserError(f"system {system!r} has {len(predictions)} predictions but there are "
                            f"{len(refs)} references: they must be line-aligned")
        for task, pred, rs in zip(names, predictions, refs):
            stats.add(None, cov.pair(task, system, pred, rs))
    return stats


__all__ = ["aspect_coverage"]
