"""Reading a run's per-summary results back (for ``rouge2 correlate``)."""

from __future__ import annotations

from pathlib import Path

from rouge2.errors import UserError
from rouge2.files import jsonl_objects
from rouge2.stats.meta import Scores


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
        out.add(row.get("variant"), str(task), str(row["system"]), row["scores"])
    if not out.tables:
        raise UserError(f"{p}: no scores found")
    return out
