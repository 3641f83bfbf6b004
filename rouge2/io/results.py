"""Reading a run's per-summary results back (for ``rouge2 correlate``)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from rouge2.errors import UserError
from rouge2.files import jsonl_objects
from rouge2.stats.meta import SCORES, Scores

#: the largest magnitude of a score or judgment: squares and sums of a
#: million of them stay finite (correlations need both)
MAX_MAGNITUDE = 1e100


def number(value: Any, where: str, what: str) -> float:
    """``value`` as a finite float of magnitude at most :data:`MAX_MAGNITUDE`; else one line."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UserError(f"{where}: {what} is {value!r}, not a number")
    try:
        x = float(value)
    except OverflowError:
        x = math.inf
    if not math.isfinite(x) or abs(x) > MAX_MAGNITUDE:
        raise UserError(f"{where}: {what} is {value!r}; expected a finite number of magnitude at "
                        f"most {MAX_MAGNITUDE:g}")
    return x


def _scores(scores: Any, where: str) -> dict[str, dict[str, float]]:
    if not isinstance(scores, dict):
        raise UserError(f"{where}: 'scores' must map each measure to its recall, precision and fmeasure")
    out = {}
    for m, s in scores.items():
        if not isinstance(s, dict) or not all(k in s for k in SCORES):
            raise UserError(f"{where}: scores of {m!r} must hold recall, precision and fmeasure")
        out[m] = {k: number(s[k], where, f"{m} {k}") for k in SCORES}
    return out


def read_results(path: str | Path) -> Scores:
    """The per-summary scores of a run: its output folder or its ``per_summary.jsonl``."""
    p = Path(path)
    if p.is_dir():
        p = p / "per_summary.jsonl"
        if not p.exists():
            raise UserError(f"{path}: no per_summary.jsonl in this folder; give a run's output folder "
                            f"(outputs.dir) or its per_summary.jsonl")
    out = Scores()
    for where, row in jsonl_objects(p, "utf-8", "results file"):
        # rouge2 score --per-summary rows before task was written: the line number is the task
        task = row.get("task", row.get("line"))
        if task is None or not {"system", "scores"} <= set(row):
            raise UserError(f"{where}: not a per-summary row (task, system, scores); give a run's "
                            f"per_summary.jsonl or the file of rouge2 score --per-summary")
        out.add(row.get("variant"), str(task), str(row["system"]), _scores(row["scores"], where))
    if not out.tables:
        raise UserError(f"{p}: no scores found")
    return out
