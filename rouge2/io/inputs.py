"""Readers for the inputs of a run.

Every reader is a generator of :class:`InputItem` ``(task, system,
candidate, references, reference_names)``: one system summary of one task
with all the reference summaries of that task.  Texts are normalised to one
sentence a line (``\\n``-separated) according to ``inputs.sentences``.
Readers stream: they hold one task's references at a time, never the corpus.

Formats (``inputs.format``):

``java-project``
    The Java ROUGE 2.0 layout: ``<path>/reference/`` and ``<path>/system/``
    holding files named ``<task>_<name>`` (the task is the text before the
    first ``_``).  Every system file of a task is scored against every
    reference of that task.  Hidden files (``.DS_Store``) and sub-folders are
    skipped.
``rouge155-xml``
    A ROUGE-1.5.5 settings file: each ``<EVAL ID=..>`` is a task, each
    ``<P ID=..>`` a system, each ``<M ID=..>`` a reference; ``SPL`` (one
    sentence a line) and ``SEE`` (the HTML pyrouge writes) inputs.
    ``PEER-ROOT`` / ``MODEL-ROOT`` are resolved from the settings file's
    folder when relative.
``jsonl`` / ``csv`` / ``tsv``
    One row per (task, system): fields named by ``inputs.columns``.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, NamedTuple

from rouge2.errors import UserError
from rouge2.files import decoded_lines, jsonl_objects, read_text

__all__ = ["Columns", "InputItem", "InputsConfig", "INPUT_FORMATS", "read_inputs"]


#: the input formats, for ``inputs.format``
INPUT_FORMATS = ("java-project", "rouge155-xml", "jsonl", "csv", "tsv", "summeval")


@dataclass(frozen=True)
class Columns:
    """Field (JSONL) or column (CSV/TSV) names of a row."""

    task: str = "task"
    system: str = "system"
    candidate: str = "candidate"
    references: tuple[str, ...] = ("references",)
    reference_names: str | None = None


@dataclass(frozen=True)
class InputsConfig:
    """What to read: a format, a path, an encoding and (for rows) column names."""

    format: str
    path: Path
    encoding: str = "utf-8"
    columns: Columns = field(default_factory=Columns)


class InputItem(NamedTuple):
    """One system summary of one task with all the task's references.

    A text is a string (split into sentences by the ``sentences`` option) or,
    for formats that define sentences themselves (rouge155-xml), a tuple of
    sentences kept as they are.
    """

    task: str
    system: str
    candidate: str | tuple[str, ...]
    references: tuple[str | tuple[str, ...], ...]
    reference_names: tuple[str, ...]


# ---------------------------------------------------------------------------
# reading


def _newlines(text: str) -> str:
    """``\r\n`` and ``\r`` line ends as ``\n`` (sentences are lines)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _read_text(path: Path, encoding: str) -> str:
    return _newlines(read_text(path, encoding, what="summary file"))


# ---------------------------------------------------------------------------
# java-project


def _java_name(path: Path) -> tuple[str, str]:
    name = path.name
    task, sep, rest = name.partition("_")
    if not sep or not task or not rest:
        problem = "has no '_'" if not sep else ("starts with '_'" if not task else "ends with '_'")
        raise UserError(f"{path}: file name {name!r} {problem}; the java-project layout names files "
                        f"<task>_<name> (the task is the text before the first '_'), "
                        f"e.g. news1_reference1.txt and news1_system1.txt")
    return task, rest


def _listing(folder: Path) -> list[Path]:
    try:
        entries = sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError as exc:
        raise UserError(f"{folder}: cannot list the folder: {exc.strerror}") from None
    return [p for p in entries if not p.name.startswith(".") and p.is_file()]


def read_java_project(cfg: InputsConfig) -> Iterator[InputItem]:
    root = cfg.path
    ref_dir, sys_dir = root / "reference", root / "system"
    for folder in (root, ref_dir, sys_dir):
        if not folder.is_dir():
            raise UserError(f"{folder}: project folder not found (a java-project folder holds "
                            f"'reference/' and 'system/')")
    references: dict[str, list[tuple[str, Path]]] = {}
    for p in _listing(ref_dir):
        task, name = _java_name(p)
        references.setdefault(task, []).append((name, p))
    systems: dict[str, list[tuple[str, Path]]] = {}
    for p in _listing(sys_dir):
        task, name = _java_name(p)
        systems.setdefault(task, []).append((name, p))
    if not systems:
        raise UserError(f"{sys_dir}: no system summaries (files named <task>_<system>)")
    for task in sorted(systems):
        if task not in references:
            first = systems[task][0][1]
            raise UserError(f"{first}: task {task!r} has no reference summaries in {ref_dir} "
                            f"(expected files named {task}_<name>)")
    for task in sorted(systems):
        refs = references[task]
        ref_texts = tuple(_read_text(p, cfg.encoding) for _, p in refs)
        ref_names = tuple(name for name, _ in refs)
        for name, p in systems[task]:
            cand = _read_text(p, cfg.encoding)
            yield InputItem(task, name, cand, ref_texts, ref_names)


# ---------------------------------------------------------------------------
# rouge155-xml: the settings file read by the drop-in command's own reader


def read_rouge155_xml(cfg: InputsConfig) -> Iterator[InputItem]:
    """Each ``<EVAL>`` is a task, each ``<P>`` a system, each ``<M>`` a reference.

    The settings file and the SPL/SEE/ISI files are read exactly as
    ``rouge2 rouge155`` reads them (:mod:`rouge2.io.rouge155`,
    :mod:`rouge2.io.formats155`), so both doors score the same sentences;
    the texts are decoded with ``inputs.encoding`` and keep the sentences the
    format gives them.
    """
    from rouge2.io.formats155 import read_sentences
    from rouge2.io.rouge155 import read_settings

    settings = read_settings(str(cfg.path))
    if not settings.evaluations:
        raise UserError(f"{cfg.path}: no <EVAL> elements; a ROUGE-1.5.5 settings file holds "
                        f"<EVAL ID=..> elements with PEER-ROOT, MODEL-ROOT, PEERS and MODELS")

    def text(shown: str, fmt: str | None, where: str) -> tuple[str, ...]:
        resolved = settings.resolve(shown)
        if resolved is None:
            raise UserError(f"{where}: file not found: {shown} (paths are resolved from the current "
                            f"folder, then from the settings file's folder)")
        return tuple(read_sentences(resolved, fmt, shown, encoding=cfg.encoding))

    for ev in settings.evaluations:
        where = f"{cfg.path}: EVAL {ev.id}"
        if not ev.model_ids:
            raise UserError(f"{where}: no <M> (model / reference) entries")
        refs = tuple(text(p, ev.input_format, where) for p in settings.model_paths(ev))
        for pid in ev.peers:
            cand = text(settings.peer_path(ev, pid), ev.input_format, where)
            yield InputItem(ev.id, pid, cand, refs, tuple(ev.model_ids))


# ---------------------------------------------------------------------------
# rows: jsonl / csv / tsv


def _as_text(value, what: str, where: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value)  # a list of sentences
    raise UserError(f"{where}: {what} must be text (or a list of sentences), got {type(value).__name__}")


def _make_item(cfg: InputsConfig, where: str, task, system, candidate,
               refs: list, names: list | None) -> InputItem:
    cols = cfg.columns
    task_s = _as_text(task, f"'{cols.task}'", where).strip()
    system_s = _as_text(system, f"'{cols.system}'", where).strip()
    if not task_s:
        raise UserError(f"{where}: the task ('{cols.task}') is empty")
    if not system_s:
        raise UserError(f"{where}: the system ('{cols.system}') is empty")
    cand = _newlines(_as_text(candidate, f"'{cols.candidate}'", where))
    ref_texts = tuple(_newlines(_as_text(r, "each reference", where)) for r in refs)
    if not ref_texts:
        raise UserError(f"{where}: the row has no reference ({', '.join(cols.references)})")
    if names is None:
        names = [f"ref{i + 1}" for i in range(len(ref_texts))]
    if len(names) != len(ref_texts):
        raise UserError(f"{where}: {len(names)} reference names for {len(ref_texts)} references")
    return InputItem(task_s, system_s, cand, ref_texts, tuple(str(n) for n in names))


def read_jsonl(cfg: InputsConfig) -> Iterator[InputItem]:
    cols = cfg.columns
    ref_key = cols.references[0]
    for where, row in jsonl_objects(cfg.path, cfg.encoding):
        for key in (cols.task, cols.system, cols.candidate, ref_key):
            if key not in row:
                raise UserError(f"{where}: the row has no field {key!r} (set inputs.columns to the "
                                f"field names used); fields in the row: {', '.join(map(str, row))}")
        refs = row[ref_key]
        refs = refs if isinstance(refs, list) else [refs]
        names = None
        if cols.reference_names is not None and cols.reference_names in row:
            names = row[cols.reference_names]
            if not isinstance(names, list):
                names = [names]
        yield _make_item(cfg, where, row[cols.task], row[cols.system], row[cols.candidate], refs, names)


def _cell_references(cell: str) -> list:
    stripped = cell.strip()
    if stripped.startswith("["):
        try:
            value = json.loads(stripped)
        except json.JSONDecodeError:
            return [cell]
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return value
    return [cell]


def read_delimited(cfg: InputsConfig, delimiter: str) -> Iterator[InputItem]:
    cols = cfg.columns
    lines = decoded_lines(cfg.path, cfg.encoding)
    last_line = [0]  # number of the last physical line handed to the csv reader

    def source() -> Iterator[str]:
        for n, line in lines:
            last_line[0] = n
            yield line

    kind = "TSV" if delimiter == "\t" else "CSV"
    reader = csv.reader(source(), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise UserError(f"{cfg.path}: the file is empty; the first row names the columns") from None
    except csv.Error as exc:
        raise UserError(f"{cfg.path}:1: malformed {kind} header: {exc}") from None
    header = [h.strip() for h in header]
    index = {h: i for i, h in enumerate(header)}
    needed = [cols.task, cols.system, cols.candidate, *cols.references]
    for key in needed:
        if key not in index:
            raise UserError(f"{cfg.path}:1: no column {key!r} in the header (set inputs.columns to "
                            f"the column names used); columns: {', '.join(header)}")
    while True:
        first_line = last_line[0] + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise UserError(f"{cfg.path}:{first_line}: malformed {kind}: {exc}") from None
        if not row or all(not c.strip() for c in row):
            continue
        where = f"{cfg.path}:{first_line}"
        if len(row) != len(header):
            raise UserError(f"{where}: {len(row)} columns, the header has {len(header)}")
        refs: list = []
        names: list[str] = []
        for col in cols.references:
            cell = row[index[col]]
            if not cell.strip():
                continue
            found = _cell_references(cell)
            refs.extend(found)
            if len(cols.references) == 1 and len(found) > 1:
                names.extend(f"ref{i + 1}" for i in range(len(found)))
            else:
                names.append(col)
        if cols.reference_names is not None and cols.reference_names in index:
            given = row[index[cols.reference_names]]
            names = _cell_references(given) if given.strip().startswith("[") else given.split("|")
        yield _make_item(cfg, where, row[index[cols.task]], row[index[cols.system]],
                         row[index[cols.candidate]], refs, names)


# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# summeval: the SummEval release's JSONL (doc_id, ref_summ, ref_summs, sys_summs)


def read_summeval(cfg: InputsConfig) -> Iterator[InputItem]:
    """One task per line (``doc_id``), one item per system in ``sys_summs``
    (``{name: {"sys_summ": text, "scores": {...}}}``); the references are the
    field ``inputs.columns.references`` names: ``ref_summ`` (one reference,
    the default) or ``ref_summs`` (all eleven)."""
    ref_key = cfg.columns.references[0] if cfg.columns.references != ("references",) else "ref_summ"
    for where, row in jsonl_objects(cfg.path, cfg.encoding):
        if "doc_id" not in row or not isinstance(row.get("sys_summs"), dict):
            raise UserError(f"{where}: not a SummEval row (doc_id, {ref_key}, sys_summs)")
        if ref_key not in row:
            raise UserError(f"{where}: the row has no field {ref_key!r} (inputs.columns.references)")
        refs = row[ref_key] if isinstance(row[ref_key], list) else [row[ref_key]]
        names = [f"ref{i + 1}" for i in range(len(refs))] if len(refs) > 1 else [ref_key]
        for system in sorted(row["sys_summs"]):
            entry = row["sys_summs"][system]
            cand = entry.get("sys_summ") if isinstance(entry, dict) else None
            if cand is None:
                raise UserError(f"{where}: system {system!r} has no 'sys_summ'")
            yield _make_item(cfg, where, row["doc_id"], system, cand, refs, names)


def read_inputs(cfg: InputsConfig) -> Iterator[InputItem]:
    """The items of ``cfg`` as a stream."""
    if cfg.format == "java-project":
        return read_java_project(cfg)
    if cfg.format == "rouge155-xml":
        return read_rouge155_xml(cfg)
    if cfg.format == "jsonl":
        return read_jsonl(cfg)
    if cfg.format == "csv":
        return read_delimited(cfg, ",")
    if cfg.format == "tsv":
        return read_delimited(cfg, "\t")
    if cfg.format == "summeval":
        return read_summeval(cfg)
    raise UserError(f"unknown input format {cfg.format!r}")
