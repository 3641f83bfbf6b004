"""Human judgments for meta-evaluation: one score per (task, system) and dimension.

Accepted files:

* **rows** (JSONL, CSV or TSV, by the file's suffix): one row per (task,
  system) with the fields ``task``, ``system`` and one numeric field per
  dimension (``relevance``, ``coverage``, ...); other fields are ignored;
* **the SummEval layout** (JSONL, recognised by its ``doc_id`` and
  ``sys_summs`` fields): the task is ``doc_id``; each system's ``scores``
  holds its dimensions.

Every mistake is one line naming the file and line: a missing field, a
value that is not a finite number, a (task, system) given twice.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rouge2.errors import UserError
from rouge2.files import decoded_lines, jsonl_objects


@dataclass
class Judgments:
    """``scores[dimension][(system, task)] = value``; ``source`` names the file."""

    source: str
    scores: dict[str, dict[tuple[str, str], float]] = field(default_factory=dict)

    @property
    def dimensions(self) -> list[str]:
        return list(self.scores)

    def systems(self) -> set[str]:
        return {s for table in self.scores.values() for s, _ in table}

    def tasks(self) -> set[str]:
        return {t for table in self.scores.values() for _, t in table}


#: the largest magnitude of a judgment (correlations square and sum them)
MAX_JUDGMENT = 1e100


def _number(value: Any, where: str, dim: str) -> float:
    if isinstance(value, bool) or value is None:
        raise UserError(f"{where}: {dim!r} is {json.dumps(value)}, not a number")
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise UserError(f"{where}: {dim!r} is {str(value)[:40]!r}, not a number") from None
    except OverflowError:  # an integer too large for a float
        x = math.inf
    if not math.isfinite(x):
        raise UserError(f"{where}: {dim!r} is {value!r}, not a finite number")
    if abs(x) > MAX_JUDGMENT:  # squares and sums of them must stay finite
        raise UserError(f"{where}: {dim!r} is {value!r}; expected a judgment of magnitude at most "
                        f"{MAX_JUDGMENT:g}")
    return x


def _key(value: Any, where: str, what: str) -> str:
    if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
        return str(value).strip()
    raise UserError(f"{where}: the {what} is {json.dumps(value)}; give a name")


def _add(j: Judgments, dims: Iterable[str] | None, row: dict, where: str, task: str, system: str,
         seen: dict) -> None:
    wanted = list(dims) if dims is not None else [k for k in row if k not in ("task", "system")]
    for dim in wanted:
        if dim not in row:
            known = ", ".join(k for k in row if k not in ("task", "system")) or "none"
            raise UserError(f"{where}: no judgment {dim!r} (dimensions in the row: {known})")
        table = j.scores.setdefault(dim, {})
        key = (system, task)
        if key in table and seen.get((key, dim)) != where:
            raise UserError(f"{where}: task {task!r}, system {system!r} is judged twice "
                            f"(first at {seen[(key, dim)]})")
        table[key] = _number(row[dim], where, dim)
        seen[(key, dim)] = where


def _read_table(p: Path, j: Judgments, dims: list[str] | None, encoding: str, seen: dict) -> None:
    """Rows of a CSV or TSV file (by suffix), with a header naming task, system and the dimensions."""
    lines = decoded_lines(p, encoding, "judgments file")
    rows = csv.reader((line for _, line in lines), delimiter="\t" if p.suffix.lower() == ".tsv" else ",")
    try:
        header = [h.strip() for h in next(rows)]
    except StopIteration:
        raise UserError(f"{p}: the judgments file is empty") from None
    for col in ("task", "system"):
        if col not in header:
            raise UserError(f"{p}:1: no column {col!r}; a judgments file has task, system and one "
                            f"column per dimension")
    if dims is None:
        dims = [h for h in header if h not in ("task", "system")]
    for n, values in enumerate(rows, start=2):
        if not any(v.strip() for v in values):
            continue
        where = f"{p}:{n}"
        if len(values) != len(header):
            raise UserError(f"{where}: {len(values)} columns, the header has {len(header)}")
        row = dict(zip(header, values))
        _add(j, dims, row, where, _key(row["task"], where, "task"), _key(row["system"], where, "system"), seen)


def _add_summeval(j: Judgments, dims: list[str] | None, row: dict, where: str, seen: dict) -> None:
    """One document of the SummEval layout: the task is doc_id, each system's scores its dimensions."""
    task = _key(row["doc_id"], where, "doc_id")
    if not isinstance(row["sys_summs"], dict):
        raise UserError(f"{where}: 'sys_summs' must map system names to their summaries")
    for system, entry in row["sys_summs"].items():
        scores = entry.get("scores") if isinstance(entry, dict) else None
        if not isinstance(scores, dict):
            raise UserError(f"{where}: system {system!r} has no 'scores' object")
        _add(j, dims, scores, where, task, _key(system, where, "system"), seen)


def _read_jsonl(p: Path, j: Judgments, dims: list[str] | None, encoding: str, seen: dict) -> None:
    for where, row in jsonl_objects(p, encoding, "judgments file"):
        if "sys_summs" in row and "doc_id" in row:  # the SummEval layout
            _add_summeval(j, dims, row, where, seen)
            continue
        for col in ("task", "system"):
            if col not in row:
                raise UserError(f"{where}: no field {col!r}; a judgments row has task, system and "
                                f"one field per dimension")
        numeric = [k for k, v in row.items() if k not in ("task", "system")
                   and isinstance(v, (int, float)) and not isinstance(v, bool)]
        _add(j, dims if dims is not None else numeric, row, where, _key(row["task"], where, "task"),
             _key(row["system"], where, "system"), seen)


def read_judgments(path: str | Path, dimensions: Iterable[str] | None = None,
                   encoding: str = "utf-8") -> Judgments:
    """The judgments in ``path`` (see the module docs), for ``dimensions`` or all numeric fields."""
    p = Path(path)
    dims = list(dimensions) if dimensions is not None else None
    j = Judgments(str(p))
    seen: dict = {}
    if p.suffix.lower() in (".csv", ".tsv"):
        _read_table(p, j, dims, encoding, seen)
    else:
        _read_jsonl(p, j, dims, encoding, seen)
    if not j.scores:
        raise UserError(f"{p}: no judgments found")
    return j
