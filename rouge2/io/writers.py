"""Writers for a run's output files (staged through :mod:`rouge2.io.atomic`).

Formats:

* the per-system CSV of the Java ROUGE 2.0 tool (:func:`write_java_csv`):
  header ``ROUGE-Type,Task Name,System Name,Avg_Recall,Avg_Precision,
  Avg_F-Score,Num Reference Summaries``, rows grouped by (task, measure),
  each group followed by an empty line, values with five decimals rounded
  as the Java tool's ``java.text.DecimalFormat("0.00000")`` rounds them
  (half-even on the exact binary value of the double), task and system
  names upper-cased;
* per-summary scores as JSONL and long-format CSV;
* a JSON summary with the reproducibility signature;
* a plain-text console table.
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterable, Mapping, Sequence

from rouge2.errors import UserError
from rouge2.stats.prf import Score

JAVA_CSV_HEADER = ("ROUGE-Type,Task Name,System Name,Avg_Recall,Avg_Precision,"
                   "Avg_F-Score,Num Reference Summaries")
PER_SUMMARY_CSV_HEADER = ("task", "system", "measure", "recall", "precision", "fmeasure",
                          "num_references")


# ---------------------------------------------------------------------------
# the Java ROUGE 2.0 CSV


def java_fmt5(x: float) -> str:
    """``x`` as the Java tool prints it: ``new DecimalFormat("0.00000").format(x)``
    in an English locale.

    ``DecimalFormat`` rounds half-even on the exact binary value of the
    double (JDK 8 and later), which is what Python's ``format(x, ".5f")``
    does: 0.140625 (= 9/64, an exact tie) prints 0.14062, the double nearest
    0.396875 (0.396874999999999977...) prints 0.39687, the one nearest
    0.065625 (0.065625000000000002...) prints 0.06563.  NaN prints ``NaN``
    and infinities ``\u221e``, as ``DecimalFormat`` prints them; the locale
    is always English (a ``.`` before the decimals), whatever the machine's.
    """
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "\u221e" if x > 0 else "-\u221e"
    return format(x, ".5f")


def java_measure_label(measure: str, *, stopwords: bool, stem: bool, synonyms: bool,
                       topic_tags_in_label: bool = False) -> str:
    """The Java tool's ``ROUGE-Type`` label: ``ROUGE-1``, ``ROUGE-L``,
    ``ROUGE-SU4``, ``ROUGE-1-topic``, ``ROUGE-1-topicUniq`` ... followed by
    ``+StopWordRemoval``, ``+Synonyms``, ``+Stemming`` as applicable.
    Measures the Java tool lacks get labels in the same style
    (``ROUGE-W-1.2``, ``ROUGE-S*``, ``ROUGE-SU*``)."""
    m = measure.lower()
    rest = m[len("rouge-"):]
    if rest.startswith("topicuniq-") or rest.startswith("topic-"):
        kind, tags = rest.split("-", 1)
        label = "ROUGE-1-" + ("topicUniq" if kind == "topicuniq" else "topic")
        if topic_tags_in_label:
            label += "-" + tags.upper()
    else:
        label = "ROUGE-" + rest.upper()
    if stopwords:
        label += "+StopWordRemoval"
    if synonyms:
        label += "+Synonyms"
    if stem:
        label += "+Stemming"
    return label


def java_labels(measures: Sequence[str], *, stopwords: bool, stem: bool,
                synonyms: bool) -> dict[str, str]:
    """Labels for all ``measures``; topic tags are added only when two topic
    measures of one kind would otherwise share a label."""
    labels = {m: java_measure_label(m, stopwords=stopwords, stem=stem, synonyms=synonyms)
              for m in measures}
    counts: dict[str, int] = {}
    for label in labels.values():
        counts[label] = counts.get(label, 0) + 1
    for m, label in labels.items():
        if counts[label] > 1:
            labels[m] = java_measure_label(m, stopwords=stopwords, stem=stem, synonyms=synonyms,
                                           topic_tags_in_label=True)
    return labels


@dataclass(frozen=True)
class JavaRow:
    label: str
    task: str
    system: str
    recall: float
    precision: float
    fmeasure: float
    num_references: int


def _java_cell(text: str) -> str:
    # The Java tool writes cells unquoted; quote only what would break the CSV.
    if any(c in text for c in ',"\n\r'):
        return '"' + text.replace('"', '""') + '"'
    return text


def format_java_row(row: JavaRow) -> str:
    return ",".join((
        _java_cell(row.label), _java_cell(row.task.upper()), _java_cell(row.system.upper()),
        java_fmt5(row.recall), java_fmt5(row.precision), java_fmt5(row.fmeasure),
        str(row.num_references),
    ))


def write_java_csv(out: IO[str], groups: Iterable[Sequence[JavaRow]]) -> None:
    """The header, then each group's rows followed by an empty line, as the
    Java tool writes them (one group per task and measure)."""
    out.write(JAVA_CSV_HEADER + "\n")
    for group in groups:
        for row in group:
            out.write(format_java_row(row) + "\n")
        out.write("\n")


# ---------------------------------------------------------------------------
# per-summary rows


def per_summary_record(task: str, system: str, reference_names: Sequence[str],
                       scores: Mapping[str, Score], stats: Mapping[str, Sequence] | None = None,
                       **extra) -> dict:
    """One JSONL object: the scores per measure and, when given, the sufficient
    statistics against each reference (``[hit, ref_total, cand_total]``, in the
    order of ``reference_names``) they were computed from."""
    record = {
        "task": task,
        "system": system,
        **extra,
        "num_references": len(reference_names),
        "reference_names": list(reference_names),
        "scores": {m: {"recall": s.recall, "precision": s.precision, "fmeasure": s.fmeasure}
                   for m, s in scores.items()},
    }
    if stats is not None:
        record["stats"] = {m: [[st.hit, st.ref_total, st.cand_total] for st in per_ref]
                           for m, per_ref in stats.items()}
    return record


def write_jsonl_record(out: IO[str], record: dict) -> None:
    out.write(json.dumps(record, ensure_ascii=False, sort_keys=False) + "\n")


class PerSummaryCsv:
    """Long format: one line per (task, system, measure)."""

    def __init__(self, out: IO[str]) -> None:
        self._w = csv.writer(out, lineterminator="\n")
        self._w.writerow(PER_SUMMARY_CSV_HEADER)

    def write(self, task: str, system: str, num_references: int,
              scores: Mapping[str, Score]) -> None:
        for m, s in scores.items():
            self._w.writerow((task, system, m, repr(float(s.recall)), repr(float(s.precision)),
                              repr(float(s.fmeasure)), num_references))


# ---------------------------------------------------------------------------
# JSON summary and console


def write_json(out: IO[str], data: dict) -> None:
    out.write(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False) + "\n")


def format_console_table(rows: Sequence[Mapping], *, title: str | None = None,
                         confidence: float | None = None) -> str:
    """A plain aligned table, one line per (system, measure).

    Each row maps ``system``, ``measure``, ``recall``, ``precision``,
    ``fmeasure``, ``tasks`` and optionally ``ci`` (``(low, high)`` of F)."""
    headers = ["system", "measure", "recall", "precision", "F", "tasks"]
    with_ci = any(r.get("ci") for r in rows)
    if with_ci:
        pct = f"{confidence * 100:g}%" if confidence else "CI"
        headers.append(f"{pct} CI of F")
    table = []
    for r in rows:
        line = [str(r["system"]), str(r["measure"]), f"{r['recall']:.5f}",
                f"{r['precision']:.5f}", f"{r['fmeasure']:.5f}", str(r["tasks"])]
        if with_ci:
            ci = r.get("ci")
            line.append(f"[{ci[0]:.5f}, {ci[1]:.5f}]" if ci else "")
        table.append(line)
    widths = [max(len(h), *(len(t[i]) for t in table)) if table else len(h)
              for i, h in enumerate(headers)]
    numeric = {2, 3, 4, 5}

    def fmt(cells: Sequence[str]) -> str:
        parts = [c.rjust(widths[i]) if i in numeric else c.ljust(widths[i])
                 for i, c in enumerate(cells)]
        return "  ".join(parts).rstrip()

    lines = []
    if title:
        lines.append(title)
    lines.append(fmt(headers))
    lines.append("  ".join("-" * w for w in widths))
    previous = None
    for r, cells in zip(rows, table):
        if previous is not None and r["system"] != previous:
            lines.append("")
        previous = r["system"]
        lines.append(fmt(cells))
    return "\n".join(lines) + "\n"


def format_comparisons(comparisons: Sequence[Mapping]) -> str:
    if not comparisons:
        return ""
    lines = ["", "paired significance tests (F, over common tasks)"]
    for c in comparisons:
        lines.append(
            f"  {c['system_a']} vs {c['system_b']}  {c['measure']}: "
            f"{c['mean_a']:.5f} vs {c['mean_b']:.5f} (diff {c['difference']:+.5f}), "
            f"p = {c['p_value']:.4f}  [{c['test']}, {c['tasks']} tasks, {c['resamples']} resamples, "
            f"seed {c['seed']}]")
    return "\n".join(lines) + "\n"
