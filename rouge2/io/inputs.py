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
    first ``_``, or what ``inputs.task_pattern`` says).  Every system file of
    a task is scored against every reference of that task.  Hidden files
    (``.DS_Store``) and sub-folders are skipped.  Tasks that look cut at an
    ``_`` give a warning (:func:`ambiguous_tasks`).
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
import os
import re
import stat
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from rouge2.errors import UserError
from rouge2.files import decoded_lines, file_kind, jsonl_objects, note_folder, read_text
from rouge2.registry import Registry

__all__ = [
    "DEFAULT_TASK_PATTERN",
    "INPUT_FORMATS",
    "Columns",
    "InputItem",
    "InputsConfig",
    "compile_task_pattern",
    "count_items",
    "list_pairs",
    "read_inputs",
]


#: the input formats, for ``inputs.format``


@dataclass(frozen=True)
class InputFormat:
    """How a run reads one input format: ``read(cfg)`` streams the items;
    ``count(cfg)`` the number of items when it is cheap to know (None: not
    cheap); ``pairs(cfg)`` the ``(task, system)`` pairs without reading the
    summaries (None: read the items)."""

    read: Callable[[InputsConfig], Iterator[InputItem]]
    count: Callable[[InputsConfig], int | None] | None = None
    pairs: Callable[[InputsConfig], Iterator[tuple[str, str]]] | None = None


#: every input format a run reads (``inputs.format``), registered below beside its reader
INPUT_FORMATS: Registry[InputFormat] = Registry("input format")


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
    #: java-project: a regular expression with a named group ``task`` (and
    #: optionally ``name``) matched at the start of each file name; None: the
    #: default rule (:data:`DEFAULT_TASK_PATTERN`)
    task_pattern: str | None = None


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


#: the default rule as a pattern: the task is the text before the first ``_``
DEFAULT_TASK_PATTERN = r"(?P<task>[^_]+)_"


def compile_task_pattern(text: str) -> re.Pattern:
    """``inputs.task_pattern`` compiled; a :class:`UserError` (one line) for an
    invalid expression, one without a ``task`` group or with other named groups."""
    if not text:
        raise UserError("expected a regular expression with a named group 'task', got an empty value")
    try:
        pattern = re.compile(text)
    except re.error as exc:
        where = f" at position {exc.pos}" if exc.pos is not None else ""
        raise UserError(f"not a valid regular expression: {exc.msg}{where} in {text!r}") from None
    groups = set(pattern.groupindex)
    unknown = sorted(groups - {"task", "name"})
    if unknown:
        from rouge2.registry import suggest

        raise UserError(f"{text!r} names a group {unknown[0]!r}{suggest(unknown[0], ('task', 'name'))}; "
                        f"the groups are 'task' and optionally 'name'")
    if "task" not in groups:
        raise UserError(f"{text!r} has no named group 'task'; write the task part as (?P<task>...), "
                        rf"e.g. '(?P<task>[^_]+_\d+)_' for task names such as news_1")
    return pattern


def _java_name(path: Path, pattern: re.Pattern | None = None) -> tuple[str, str]:
    """``(task, name)`` of a java-project file: by ``pattern`` (matched at the
    start of the file name; the name is its ``name`` group, else the rest of
    the file name after the match), else by the default rule."""
    name = path.name
    if pattern is not None:
        m = pattern.match(name)
        if m is None:
            raise UserError(f"{path}: file name {name!r} does not match inputs.task_pattern "
                            f"{pattern.pattern!r} (matched at the start of the file name)")
        task = m.group("task") or ""
        rest = (m.group("name") or "") if "name" in pattern.groupindex else name[m.end():]
        if not task or not rest:
            part = "task" if not task else "name"
            raise UserError(f"{path}: inputs.task_pattern {pattern.pattern!r} gives file name {name!r} "
                            f"an empty {part}; the task is the group 'task', the name the group 'name' "
                            f"or else the rest of the file name after the match")
        return task, rest
    task, sep, rest = name.partition("_")
    if not sep or not task or not rest:
        problem = "has no '_'" if not sep else ("starts with '_'" if not task else "ends with '_'")
        raise UserError(f"{path}: file name {name!r} {problem}; the java-project layout names files "
                        f"<task>_<name> (the task is the text before the first '_', or set "
                        f"inputs.task_pattern), e.g. news1_reference1.txt and news1_system1.txt")
    return task, rest


def _listing(folder: Path, root: Path | None = None) -> list[Path]:
    """The summary files of a java-project folder, by name.  Hidden files
    (``.DS_Store``) and sub-folders are skipped; anything else that is not a
    regular file (a dangling link, a FIFO, a device), a name that is not
    valid text, and a link leading out of the project folder are one-line
    errors, never a system that silently vanishes."""
    try:
        entries = sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError as exc:
        raise UserError(f"{folder}: cannot list the folder: {exc.strerror}") from None
    note_folder(folder)
    inside = [os.path.realpath(folder)] + ([os.path.realpath(root)] if root is not None else [])
    files = []
    for p in entries:
        if p.name.startswith("."):
            continue
        _check_name(p)
        try:
            st = p.stat()
        except OSError:
            raise UserError(f"{p}: a link to a file that does not exist ({_link_target(p)}); "
                            f"remove it or point it at the summary") from None
        if stat.S_ISDIR(st.st_mode):
            continue
        if not stat.S_ISREG(st.st_mode):
            raise UserError(f"{p}: is {file_kind(st.st_mode)}, not a summary file; rouge2 reads "
                            f"regular files only: remove it from the project folder")
        if p.is_symlink() and not any(_within(os.path.realpath(p), d) for d in inside):
            raise UserError(f"{p}: a link leading out of the project folder ({_link_target(p)}); "
                            f"copy the summary into the project, or link the whole reference/ or "
                            f"system/ folder instead")
        files.append(p)
    return files


def _check_name(p: Path) -> None:
    try:
        p.name.encode("utf-8")
    except UnicodeEncodeError:
        raw = os.fsencode(p.name)
        raise UserError(f"{p.parent}: the file name {raw!r} is not valid UTF-8 text; rename the "
                        f"file (task and system names come from file names)") from None


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _link_target(p: Path) -> str:
    try:
        return f"it points to {os.readlink(p)}"
    except OSError:
        return "not a link"


def _head(name: str) -> str | None:
    """The part of a name before its first ``_`` when both parts are non-empty."""
    head, sep, tail = name.partition("_")
    return head if sep and head and tail else None


def ambiguous_tasks(references: dict[str, list[str]], systems: dict[str, list[str]]) -> dict[str, list[str]]:
    """Tasks that look cut at an ``_`` too early: task -> the name prefixes that give it away.

    Split every reference and system name of a task (the file name after the
    task) at its first ``_``.  When two or more different prefixes are each
    found in both a reference name and a system name, the prefix is most
    likely part of the task: ``news_1_ref.txt``, ``news_1_sysA.txt``,
    ``news_2_ref.txt``, ``news_2_sysA.txt`` all go to task ``news``, and every
    system file is scored against the references of both ``news_1`` and
    ``news_2``.  Prefixes found on one side only (systems ``bart_large.txt``,
    ``t5_large.txt``) are ordinary names, and one shared prefix changes no
    grouping, so neither is reported."""
    from rouge2.stats.coverage import natural_key

    out: dict[str, list[str]] = {}
    for task, names in systems.items():
        sys_heads = {h for h in map(_head, names) if h is not None}
        ref_heads = {h for h in map(_head, references.get(task, ())) if h is not None}
        shared = sys_heads & ref_heads
        if len(shared) >= 2:
            out[task] = sorted(shared, key=natural_key)
    return out


def _java_layout(cfg: InputsConfig) -> tuple[Path, dict[str, list[tuple[str, Path]]],
                                                  dict[str, list[tuple[str, Path]]]]:
    """``(reference folder, task -> [(name, reference file)], task -> [(name, system file)])``
    from the folder listings alone (no file is read); checks the grouping and
    warns about tasks that look cut at an ``_``."""
    root = cfg.path
    ref_dir, sys_dir = root / "reference", root / "system"
    for folder in (root, ref_dir, sys_dir):
        if not folder.is_dir():
            raise UserError(f"{folder}: project folder not found (a java-project folder holds "
                            f"'reference/' and 'system/')")
    pattern = compile_task_pattern(cfg.task_pattern) if cfg.task_pattern is not None else None
    references: dict[str, list[tuple[str, Path]]] = {}
    for p in _listing(ref_dir, root):
        task, name = _java_name(p, pattern)
        references.setdefault(task, []).append((name, p))
    systems: dict[str, list[tuple[str, Path]]] = {}
    for p in _listing(sys_dir, root):
        task, name = _java_name(p, pattern)
        group = systems.setdefault(task, [])
        for other, q in group:
            if other == name:
                raise UserError(f"{p}: inputs.task_pattern gives it the same task and system as "
                                f"{q.name} (task {task!r}, system {name!r}); each system has one "
                                f"file per task")
        group.append((name, p))
    if not systems:
        raise UserError(f"{sys_dir}: no system summaries (files named <task>_<system>)")
    for task in sorted(systems):
        if task not in references:
            first = systems[task][0][1]
            raise UserError(f"{first}: task {task!r} has no reference summaries in {ref_dir} "
                            f"(expected files named {task}_<name>)")
    cut = ambiguous_tasks({t: [n for n, _ in v] for t, v in references.items()},
                          {t: [n for n, _ in v] for t, v in systems.items()})
    if cut:
        from rouge2.stats.coverage import natural_key

        task, heads = min(cut.items(), key=lambda kv: natural_key(kv[0]))
        more = f" (and {len(cut) - 1} more task{'s' if len(cut) > 2 else ''})" if len(cut) > 1 else ""
        shown = ", ".join(f"{task}_{h}_*" for h in heads[:3]) + (", ..." if len(heads) > 3 else "")
        rule = ("inputs.task_pattern" if pattern is not None
                else "the default rule (the task is the text before the first '_')")
        warnings.warn(f"{root}: task {task!r}{more} groups files {shown} in both reference/ and "
                      f"system/: its name looks cut at an '_' by {rule}; if tasks are named like "
                      f"{task}_{heads[0]}, set inputs.task_pattern, e.g. '(?P<task>[^_]+_[^_]+)_' "
                      f"(the text before the second '_')", UserWarning, stacklevel=3)
    return ref_dir, references, systems


def read_java_project(cfg: InputsConfig) -> Iterator[InputItem]:
    _, references, systems = _java_layout(cfg)
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
                if "doc_id" in row and "sys_summs" in row:  # the SummEval release's own layout
                    raise UserError(f"{where}: the row has no field {key!r}; it looks like a SummEval row "
                                    f"(doc_id, sys_summs): set inputs.format: summeval")
                raise UserError(f"{where}: the row has no field {key!r} (set inputs.columns to the "
                                f"field names used, or inputs.format: summeval for the SummEval file); "
                                f"fields in the row: {', '.join(map(str, row))}")
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
        except (ValueError, RecursionError):  # not JSON, too deep, or a number of 4,300+ digits
            return [cell]
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return value
    return [cell]


def _row_references(cols: Columns, index: dict[str, int], row: list[str]) -> tuple[list, list[str]]:
    """The references of a CSV/TSV row and their names."""
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
    return refs, names


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
        refs, names = _row_references(cols, index, row)
        yield _make_item(cfg, where, row[index[cols.task]], row[index[cols.system]],
                         row[index[cols.candidate]], refs, names)


# ---------------------------------------------------------------------------
# cheap passes: the (task, system) list and the number of items


def list_pairs(cfg: InputsConfig) -> Iterator[tuple[str, str]]:
    """The ``(task, system)`` pairs of ``cfg`` in reading order, without
    scoring: java-project and rouge155-xml from the folder listing and the
    settings file alone (no summary is read); rows by reading them."""
    fmt = INPUT_FORMATS.get(cfg.format)
    if fmt.pairs is not None:
        yield from fmt.pairs(cfg)
        return
    for item in fmt.read(cfg):
        yield item.task, item.system


def count_items(cfg: InputsConfig) -> int | None:
    """How many items :func:`read_inputs` will give, when that is cheap to
    know: the files in ``system/`` (java-project), the peers of the settings
    file (rouge155-xml), the non-blank lines (jsonl) or rows (csv, tsv) of
    the file.  None when the inputs cannot be counted (the reader then
    reports what is wrong)."""
    count = INPUT_FORMATS.get(cfg.format).count
    if count is None:
        return None
    try:
        return count(cfg)
    except (UserError, OSError, csv.Error):
        return None


def _java_pairs(cfg: InputsConfig) -> Iterator[tuple[str, str]]:
    _, _, systems = _java_layout(cfg)
    for task in sorted(systems):
        for name, _ in systems[task]:
            yield task, name


def _rouge155_pairs(cfg: InputsConfig) -> Iterator[tuple[str, str]]:
    from rouge2.io.rouge155 import read_settings  # the settings reader sits beside this module's readers

    for ev in read_settings(str(cfg.path)).evaluations:
        for pid in ev.peers:
            yield ev.id, pid


def _rouge155_count(cfg: InputsConfig) -> int:
    from rouge2.io.rouge155 import read_settings

    return sum(len(ev.peers) for ev in read_settings(str(cfg.path)).evaluations)


def _jsonl_count(cfg: InputsConfig) -> int:
    return sum(1 for _, line in decoded_lines(cfg.path, cfg.encoding) if line.strip())


def _rows_count(delimiter: str) -> Callable[[InputsConfig], int]:
    def count(cfg: InputsConfig) -> int:
        rows = csv.reader((line for _, line in decoded_lines(cfg.path, cfg.encoding)), delimiter=delimiter)
        next(rows, None)  # the header
        return sum(1 for row in rows if any(c.strip() for c in row))
    return count


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
    return INPUT_FORMATS.get(cfg.format).read(cfg)


INPUT_FORMATS.add("java-project", InputFormat(read_java_project, lambda cfg: len(_listing(cfg.path / "system")),
                                              _java_pairs),
                  "the Java ROUGE 2.0 layout: a folder with reference/ and system/ (task_system.txt)")
INPUT_FORMATS.add("rouge155-xml", InputFormat(read_rouge155_xml, _rouge155_count, _rouge155_pairs),
                  "a ROUGE-1.5.5 settings file (XML) and the files it names")
INPUT_FORMATS.add("jsonl", InputFormat(read_jsonl, _jsonl_count),
                  "one JSON object a line: task, system, candidate, references")
INPUT_FORMATS.add("csv", InputFormat(lambda cfg: read_delimited(cfg, ","), _rows_count(",")),
                  "a CSV file with a header row naming the columns")
INPUT_FORMATS.add("tsv", InputFormat(lambda cfg: read_delimited(cfg, "\t"), _rows_count("\t")),
                  "a tab-separated file with a header row naming the columns")
INPUT_FORMATS.add("summeval", InputFormat(read_summeval),
                  "the SummEval release's JSONL (doc_id, ref_summ or ref_summs, sys_summs)")
