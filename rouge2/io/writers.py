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
from typing import IO, Any, Iterable, Mapping, Sequence

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
    """Long format: one line per (task, system, measure), with a ``variant``
    column first when the run has variants."""

    def __init__(self, out: IO[str], variants: bool = False) -> None:
        self._w = csv.writer(out, lineterminator="\n")
        self._variants = variants
        self._w.writerow((("variant",) if variants else ()) + PER_SUMMARY_CSV_HEADER)

    def write(self, task: str, system: str, num_references: int,
              scores: Mapping[str, Score], variant: str | None = None) -> None:
        first = (variant,) if self._variants else ()
        for m, s in scores.items():
            self._w.writerow(first + (task, system, m, repr(float(s.recall)), repr(float(s.precision)),
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


# ---------------------------------------------------------------------------
# meta-evaluation


def format_correlations(rows: Sequence[dict[str, Any]], cmp_rows: Sequence[dict[str, Any]] = ()) -> str:
    """A console table of correlations (and of comparisons)."""
    def f(e: dict | None) -> str:
        if not e or e.get("value") is None:
            return "n/a"
        lo, hi = e["ci"]
        ci = f" [{lo:+.3f}, {hi:+.3f}]" if lo is not None else ""
        return f"{e['value']:+.3f}{ci}"

    lines = []
    table = [["level", "metric", "dimension", "n", "pearson", "spearman", "kendall"]]
    for r in rows:
        metric = f"{r['measure']}/{r['score']}" + (f"@{r['variant']}" if r["variant"] else "")
        table.append([r["level"], metric, r["dimension"], str(r["n"]), f(r["pearson"]),
                      f(r["spearman"]), f(r["kendall"])])
    lines += _align_rows(table)
    if cmp_rows:
        lines += ["", "paired tests: does A correlate better than B? (difference A - B [interval], "
                      "permutation p, two-sided)"]
        t2 = [["level", "A", "B", "dimension", "pearson", "spearman", "kendall"]]
        for c in cmp_rows:
            cells = []
            for k in ("pearson", "spearman", "kendall"):
                d = c.get(k)
                cells.append("n/a" if not d or d.get("difference") is None else
                             f"{d['difference']:+.3f} [{d['ci'][0]:+.3f}, {d['ci'][1]:+.3f}] p={d['p_two_sided']:.3f}")
            t2.append([c["level"], c["a"], c["b"], c["dimension"], *cells])
        lines += _align_rows(t2)
    return "\n".join(lines) + "\n"


def _align_rows(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for k, r in enumerate(rows):
        out.append("  ".join(c.ljust(widths[i]) for i, c in enumerate(r)).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


# ---------------------------------------------------------------------------
# variants


VARIANTS_CSV_HEADER = ("variant", "system", "measure", "recall", "precision", "fmeasure", "tasks",
                       "fmeasure_low", "fmeasure_high")


def write_variants_csv(out: IO[str], variants: Mapping[str, Mapping[str, Mapping[str, Any]]],
                       measures: Sequence[str]) -> None:
    """The side-by-side table: one row per variant, system and measure."""
    w = csv.writer(out, lineterminator="\n")
    w.writerow(VARIANTS_CSV_HEADER)
    for variant, systems in variants.items():
        for system, per in systems.items():
            for m in measures:
                e = per[m]
                ci = (e.get("ci") or {}).get("fmeasure") or ("", "")
                w.writerow((variant, system, m, repr(e["recall"]), repr(e["precision"]),
                            repr(e["fmeasure"]), e["tasks"], *(repr(x) if x != "" else "" for x in ci)))


def format_variant_rankings(rankings: Mapping[str, Any]) -> str:
    """Each variant's ranking of the systems, and how alike the variants rank them."""
    lines = ["", "rankings of the systems (by F), and agreement between variants"]
    for variant, per in rankings["rankings"].items():
        for m, order in per.items():
            lines.append(f"  {variant:<12} {m}: {' > '.join(order)}")
    for a in rankings["agreement"]:
        same = "same order" if a["same_order"] else "different order"
        lines.append(f"  {a['variant_a']} vs {a['variant_b']} {a['measure']}: Kendall tau "
                     f"{a['kendall']:+.3f}, Spearman {a['spearman']:+.3f} over {a['systems']} systems ({same})")
    return "\n".join(lines) + "\n"


def format_variant_comparisons(rows: Sequence[Mapping[str, Any]]) -> str:
    if not rows:
        return ""
    lines = ["", "paired tests between variants (per system, F over its tasks)"]
    for c in rows:
        lines.append(f"  {c['system']} {c['measure']}: {c['variant_a']} {c['mean_a']:.5f} vs "
                     f"{c['variant_b']} {c['mean_b']:.5f} (diff {c['difference']:+.5f}), "
                     f"p = {c['p_value']:.4f}  [{c['test']}, {c['tasks']} tasks]")
    return "\n".join(lines) + "\n"


def correlations_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """The correlations as CSV text: one row per level, variant, measure, score and dimension."""
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    coeffs = ("pearson", "spearman", "kendall")
    w.writerow(["level", "variant", "measure", "score", "dimension", "n",
                *(f"{c}{part}" for c in coeffs for part in ("", "_low", "_high"))])
    for r in rows:
        cells = []
        for c in coeffs:
            e = r[c]
            cells += [e["value"], *e["ci"]]
        w.writerow([r["level"], r["variant"] or "", r["measure"], r["score"], r["dimension"], r["n"],
                    *("" if v is None else repr(v) for v in cells)])
    return buf.getvalue()
