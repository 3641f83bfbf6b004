"""Score tables: reading, aligning and checking what the correlations work on.

A score table gives a score per (system, task): ``{(system, task): score}``,
``{system: {task: score}}`` or a matrix (rows = systems, columns = tasks).
``None`` (or an absent key) is a missing cell.  :class:`Data` aligns several
tables (metrics first, the human table last): a cell is used only where
every table has a score.
"""

from __future__ import annotations

import copy
import math
import numbers
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Union

from rouge2.errors import UserError

#: Correlation levels (Deutsch et al. 2021, section 2).
LEVELS = ("system", "summary", "global")
#: What a bootstrap resamples, or what a permutation test swaps: whole
#: systems (rows), whole tasks (columns; "inputs" in the paper) or both.
SCHEMES = ("systems", "tasks", "both")
#: Alternative hypotheses of the paired tests: ``two-sided`` (r_A != r_B) or
#: ``greater`` (r_A > r_B).
ALTERNATIVES = ("two-sided", "greater")

_SCHEME_ALIASES = {"inputs": "tasks", "input": "tasks", "system": "systems", "task": "tasks"}

# A score table: {(system, task): score}, {system: {task: score}}, or a
# matrix (rows = systems, columns = tasks).  None (or an absent key) is a
# missing cell.  (Union, not |: the alias is evaluated at import on 3.10.)
ScoreTable = Union[  # noqa: UP007
    Mapping[tuple[Any, Any], Any],
    Mapping[Any, Mapping[Any, Any]],
    Sequence[Sequence[Any]],
]

Grid = list[list[float | None]]


def _number(v: Any, where: str) -> float | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise UserError(f"{where} is {v!r}; scores must be numbers (None or no entry for a missing cell)")
    f = float(v)
    if not math.isfinite(f):
        raise UserError(f"{where} is {f!r}; scores must be finite (None or no entry for a missing cell)")
    return f


def _read_mapping(table: Mapping[Any, Any], what: str) -> dict[tuple[Hashable, Hashable], float]:
    cells: dict[tuple[Hashable, Hashable], float] = {}
    nested = None
    for key, value in table.items():
        is_nested = isinstance(value, Mapping)
        if nested is None:
            nested = is_nested
        elif nested != is_nested:
            raise UserError(f"{what}: mixes {{system: {{task: score}}}} entries with "
                            f"{{(system, task): score}} entries (at key {key!r}); use one form")
        if is_nested:
            for task, v in value.items():
                f = _number(v, f"{what}[{key!r}][{task!r}]")
                if f is not None:
                    cells[(key, task)] = f
        else:
            if not (isinstance(key, tuple) and len(key) == 2):
                raise UserError(f"{what}: key {key!r} is not a (system, task) pair; give "
                                "{(system, task): score} or {system: {task: score}}")
            f = _number(value, f"{what}[{key!r}]")
            if f is not None:
                cells[key] = f
    return cells


def _read_matrix(table: Sequence[Any], what: str) -> Grid:
    rows = []
    width = None
    for i, row in enumerate(table):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
            raise UserError(f"{what}: row {i} is {type(row).__name__}, not a list of scores "
                            "(a matrix has one row per system, one column per task)")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise UserError(f"{what}: row {i} has {len(row)} cells, row 0 has {width}; "
                            "give None for a missing cell")
        rows.append([_number(v, f"{what}[{i}][{j}]") for j, v in enumerate(row)])
    return rows


def _ordered(keys: list[Any]) -> list[Any]:
    unique = list(dict.fromkeys(keys))
    try:
        return sorted(unique)
    except TypeError:
        return unique  # unorderable mix: first appearance


def _mapping_grids(tables: Sequence[Any], names: Sequence[str]) -> tuple[list[Any], list[Any], list[Grid]]:
    maps = [_read_mapping(t, n) for t, n in zip(tables, names)]
    systems = _ordered([s for m in maps for s, _ in m])
    tasks = _ordered([t for m in maps for _, t in m])
    grids = [[[m.get((s, t)) for t in tasks] for s in systems] for m in maps]
    return systems, tasks, grids


def _matrix_grids(tables: Sequence[Any], names: Sequence[str]) -> tuple[list[Any], list[Any], list[Grid]]:
    for t, n in zip(tables, names):
        if isinstance(t, (str, bytes)) or not isinstance(t, Sequence):
            raise UserError(f"{n} is {type(t).__name__}; give a mapping "
                            "{(system, task): score} or a matrix (rows = systems)")
    grids = [_read_matrix(t, n) for t, n in zip(tables, names)]
    shapes = [(len(g), len(g[0]) if g else 0) for g in grids]
    for shape, n in zip(shapes[1:], names[1:]):
        if shape != shapes[0]:
            raise UserError(f"{names[0]} is {shapes[0][0]} systems x {shapes[0][1]} tasks "
                            f"but {n} is {shape[0]} x {shape[1]}; the matrices must have "
                            "the same shape (None for a missing cell)")
    return list(range(shapes[0][0])), list(range(shapes[0][1])), grids


def _grids(tables: Sequence[Any], names: Sequence[str]) -> tuple[list[Any], list[Any], list[Grid]]:
    if all(isinstance(t, Mapping) for t in tables):
        return _mapping_grids(tables, names)
    if not any(isinstance(t, Mapping) for t in tables):
        return _matrix_grids(tables, names)
    raise UserError(f"{', '.join(names)}: give all tables as mappings or all as matrices")


class Data:
    """Aligned tables; a cell is used only where every table has a score.

    Cells are stored row-major in flat lists, one per table (the human
    table last).  Systems and tasks without any usable cell are dropped.
    ``idx[i][j]`` is the cell of system i and task j (-1: missing),
    ``row_span[i]`` the cells of system i, ``col_cells[j]`` those of task j
    (in system order)."""

    def __init__(self, tables: Sequence[ScoreTable], names: Sequence[str]):
        systems, tasks, grids = _grids(tables, names)
        ok = [[all(g[i][j] is not None for g in grids) for j in range(len(tasks))]
              for i in range(len(systems))]
        keep_s = [i for i in range(len(systems)) if any(ok[i])]
        keep_t = [j for j in range(len(tasks)) if any(ok[i][j] for i in keep_s)]
        if len(keep_s) < 2:
            raise UserError(f"{len(keep_s)} system(s) have scores in all of {', '.join(names)}; "
                            "a correlation needs at least 2 systems")
        self.systems = [systems[i] for i in keep_s]
        self.tasks = [tasks[j] for j in keep_t]
        self.ns, self.nt = len(keep_s), len(keep_t)
        self.idx = [[-1] * self.nt for _ in range(self.ns)]
        self.cell_row: list[int] = []
        self.cell_col: list[int] = []
        self.flat: list[list[float]] = [[] for _ in grids]
        self.row_span: list[tuple[int, int]] = []
        for a, i in enumerate(keep_s):
            start = len(self.cell_row)
            for b, j in enumerate(keep_t):
                if ok[i][j]:
                    self.idx[a][b] = len(self.cell_row)
                    self.cell_row.append(a)
                    self.cell_col.append(b)
                    for g, f in zip(grids, self.flat):
                        f.append(g[i][j])  # type: ignore[arg-type]  # ok: every table has it
            self.row_span.append((start, len(self.cell_row)))
        self.col_cells = [[k for k in (self.idx[a][b] for a in range(self.ns)) if k >= 0]
                          for b in range(self.nt)]
        self.ncells = len(self.cell_row)

    def view(self, i: int) -> Data:
        """The same alignment with table ``i`` as the only metric table."""
        v = copy.copy(self)
        v.flat = [self.flat[i], self.flat[-1]]
        return v

    @property
    def complete(self) -> bool:
        """Every system has every task."""
        return self.ncells == self.ns * self.nt


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise UserError(f"unknown correlation level {level!r}; use one of {', '.join(LEVELS)}")
    return level


def check_scheme(scheme: str, what: str) -> str:
    s = _SCHEME_ALIASES.get(scheme, scheme) if isinstance(scheme, str) else scheme
    if s not in SCHEMES:
        raise UserError(f"unknown {what} {scheme!r}; use one of {', '.join(SCHEMES)}")
    return s


def check_resamples(resamples: int) -> int:
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise UserError(f"resamples must be a positive whole number, not {resamples!r}")
    return resamples


def check_confidence(confidence: float) -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or not 0 < confidence < 1:
        raise UserError(f"confidence must be a number between 0 and 1 (e.g. 0.95), not {confidence!r}")
    return float(confidence)


def check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise UserError(f"seed must be a whole number, not {seed!r}")
    return seed
