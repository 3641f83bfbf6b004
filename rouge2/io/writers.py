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
* system scores as CSV, one row per (system, measure) (:func:`write_systems_csv`);
* a JSON summary with the reproducibility signature;
* the console: a wide table of systems by measures, ranked
  (:func:`format_system_table`), and the paired tests (:func:`format_comparisons`).
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

from rouge2.stats.coverage import natural_key  # system2 before system10
from rouge2.stats.prf import Score

JAVA_CSV_HEADER = ("ROUGE-Type,Task Name,System Name,Avg_Recall,Avg_Precision,"
                   "Avg_F-Score,Num Reference Summaries")
PER_SUMMARY_CSV_HEADER = ("task", "system", "measure", "recall", "precision", "fmeasure",
                          "num_references")
SYSTEMS_CSV_HEADER = ("system", "measure", "recall", "precision", "fmeasure", "tasks",
                      "recall_low", "recall_high", "precision_low", "precision_high",
                      "fmeasure_low", "fmeasure_high")
#: the console table's width in characters: measures wrap into blocks beyond it
CONSOLE_WIDTH = 120


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


def write_systems_csv(out: IO[str], systems: Mapping[str, Mapping[str, Mapping]],
                      measures: Sequence[str]) -> None:
    """One row per (system, measure): systems in natural order (system2
    before system10), measures in config order; the mean recall, precision
    and F over the system's tasks, the number of tasks, and the interval
    bounds of each score (empty without bootstrap).  Values are written in
    full (``repr``), so they are the numbers of the JSON summary."""
    w = csv.writer(out, lineterminator="\n")
    w.writerow(SYSTEMS_CSV_HEADER)
    for system in sorted(systems, key=natural_key):
        for m in measures:
            e = systems[system][m]
            ci = e.get("ci") or {}
            bounds = []
            for name in ("recall", "precision", "fmeasure"):
                lo_hi = ci.get(name)
                bounds += [repr(float(v)) for v in lo_hi] if lo_hi else ["", ""]
            w.writerow((system, m, repr(float(e["recall"])), repr(float(e["precision"])),
                        repr(float(e["fmeasure"])), e["tasks"], *bounds))


_SCORE_WORD = {"recall": "recall", "precision": "precision", "fmeasure": "F", "coverage": "coverage"}
_SCORE_LETTER = {"recall": "R", "precision": "P", "fmeasure": "F"}


def _rank_value(x: float) -> float:
    x = float(x)
    return -math.inf if math.isnan(x) else x


def rank_systems(systems: Mapping[str, Mapping[str, Mapping]], measure: str,
                 score: str = "fmeasure") -> list[tuple[int, str]]:
    """``[(rank, system)]``, best first by ``score`` of ``measure``; equal
    scores share a rank (1, 2, 2, 4) and keep natural order of names; NaN last."""
    order = sorted(systems, key=lambda s: (-_rank_value(systems[s][measure][score]), natural_key(s)))
    ranked: list[tuple[int, str]] = []
    for i, system in enumerate(order):
        value = _rank_value(systems[system][measure][score])
        if ranked and value == _rank_value(systems[ranked[-1][1]][measure][score]):
            ranked.append((ranked[-1][0], system))
        else:
            ranked.append((i + 1, system))
    return ranked


def _bound(x: float) -> str:
    text = f"{x:.5f}"
    return text[1:] if text.startswith("0.") else text


def _pack(widths: Sequence[int], room: int, gap: int) -> list[list[int]]:
    """Column indices cut into as few blocks as fit ``room`` characters,
    blocks as equal in size as that allows (at least one column a block)."""
    greedy: list[list[int]] = [[]]
    used = 0
    for i, w in enumerate(widths):
        need = w + (gap if greedy[-1] else 0)
        if greedy[-1] and used + need > room:
            greedy.append([])
            used, need = 0, w
        greedy[-1].append(i)
        used += need
    n = len(greedy)
    if n == 1:
        return greedy
    size = -(-len(widths) // n)
    even = [list(range(k, min(k + size, len(widths)))) for k in range(0, len(widths), size)]
    fits = all(sum(widths[i] for i in b) + gap * (len(b) - 1) <= room for b in even)
    return even if fits and len(even) == n else greedy


def format_system_table(systems: Mapping[str, Mapping[str, Mapping]], measures: Sequence[str], *,
                        rank_by: str | None = None, rank_score: str | None = None,
                        confidence: float | None = None, title: str | None = None,
                        width: int = CONSOLE_WIDTH, scores: Mapping[str, str] | None = None) -> str:
    """A wide table: one line per system, ranked, one column per measure.

    ``systems`` maps system -> measure -> ``{recall, precision, fmeasure,
    tasks, ci?}`` (the JSON summary's entries).  ``scores``: the score
    shown per measure (default F; a measure shown on another score has it
    after its name: ``rouge-aspect R``).  Rows are ranked by ``rank_score``
    of ``rank_by`` (default: the first measure's shown score), best first,
    ties in natural order of names.  Each cell is the mean of the measure's
    shown score; with intervals, followed by its interval as ``[.lo,.hi]``.
    Columns are the canonical measure names (topic tags visible).  When the rank score is
    recall or precision, a column shows it.  When systems have different
    numbers of tasks, a ``tasks`` column shows them.  Measures that do not
    fit in ``width`` characters wrap into further blocks, each repeating the
    rank and system columns."""
    measures = list(measures)
    shown = {m: (scores or {}).get(m, "fmeasure") for m in measures}
    rank_by = rank_by or measures[0]
    rank_score = rank_score or shown[rank_by]
    ranked = rank_systems(systems, rank_by, rank_score)
    task_counts = {e["tasks"] for per in systems.values() for e in per.values()}
    with_ci = any(e.get("ci") for per in systems.values() for e in per.values())
    gap = 2

    lead_headers, lead_rows, numeric_lead = _lead_columns(
        systems, ranked, rank_by, rank_score if rank_score != shown[rank_by] else None, len(task_counts) > 1)
    lead_widths = [max(len(h), *(len(r[i]) for r in lead_rows)) for i, h in enumerate(lead_headers)]

    cells = [[_score_cell(systems[s][m], shown[m], with_ci) for m in measures] for _, s in ranked]
    heads = [m if shown[m] == "fmeasure" else f"{m} {_SCORE_LETTER[shown[m]]}" for m in measures]
    widths = [max(len(m), *(len(c[j]) for c in cells)) for j, m in enumerate(heads)]
    room = width - sum(lead_widths) - gap * len(lead_widths)
    blocks = _pack(widths, room, gap)

    def fmt(parts: Sequence[str], ws: Sequence[int], right: set[int]) -> str:
        return (" " * gap).join(p.rjust(w) if i in right else p.ljust(w)
                                for i, (p, w) in enumerate(zip(parts, ws))).rstrip()

    lines = []
    if title:
        lines.append(title)
    what = _cells_line(sorted(task_counts), set(shown.values()), confidence if with_ci else False)
    lines.append(f"{what}; ranked by {rank_by} {_SCORE_WORD[rank_score]}, best first")
    for block in blocks:
        ws = lead_widths + [widths[j] for j in block]
        right = numeric_lead | set(range(len(lead_widths), len(ws)))
        lines.append("")
        lines.append(fmt(lead_headers + [heads[j] for j in block], ws, right))
        lines.append((" " * gap).join("-" * w for w in ws))
        for lead, row in zip(lead_rows, cells):
            lines.append(fmt(lead + [row[j] for j in block], ws, right))
    return "\n".join(lines) + "\n"


def _lead_columns(systems: Mapping[str, Mapping[str, Mapping]], ranked: list[tuple[int, str]], rank_by: str,
                  rank_score: str | None, tasks: bool) -> tuple[list[str], list[list[str]], set[int]]:
    """The system table's first columns: rank, system, the tasks (when they
    differ) and the ranking score (when it is not the one shown)."""
    headers = ["rank", "system"]
    rows = [[str(r), s] for r, s in ranked]
    numeric = {0}
    if tasks:
        headers.append("tasks")
        numeric.add(len(headers) - 1)
        for row, (_, s) in zip(rows, ranked):
            row.append(str(systems[s][rank_by]["tasks"]))
    if rank_score is not None:
        headers.append(f"{rank_by} {_SCORE_WORD[rank_score]}")
        numeric.add(len(headers) - 1)
        for row, (_, s) in zip(rows, ranked):
            row.append(f"{systems[s][rank_by][rank_score]:.5f}")
    return headers, rows, numeric


def _score_cell(entry: Mapping, score: str, with_ci: bool) -> str:
    """One cell of the system table: the mean ``score``, then its interval."""
    text = f"{entry[score]:.5f}"
    ci = (entry.get("ci") or {}).get(score)
    if with_ci and ci:
        text += f" [{_bound(ci[0])},{_bound(ci[1])}]"
    return text


def _cells_line(counts: list[int], kinds: set[str], confidence: float | bool | None) -> str:
    """What the cells of the system table are (``confidence`` False: no intervals)."""
    over = (f"over {counts[0]} task{'s' if counts[0] != 1 else ''} per system" if len(counts) == 1
            else "over each system's tasks")
    what = (f"cells: mean F {over}" if kinds == {"fmeasure"} else
            f"cells: mean {_SCORE_WORD[next(iter(kinds))]} {over}" if len(kinds) == 1 else
            f"cells: mean F {over}, or the score after the measure's name (R recall, P precision)")
    if confidence is not False:
        pct = f"{confidence * 100:g}% " if confidence else ""
        what += f" [{pct}bootstrap interval]"
    return what


def format_comparisons(comparisons: Sequence[Mapping]) -> str:
    """The paired tests as a table: one line per (pair, measure) with both
    means, the difference and the p-value; the test, resamples and seed
    (the same for every test of a run) on the heading line."""
    if not comparisons:
        return ""
    settings = {(c["test"], c["resamples"], c["seed"]) for c in comparisons}
    what = "aspect" if "aspect" in comparisons[0] else "measure"
    headers = ["system A", "system B", what, "score", "A", "B", "A - B", "p", "p Holm", "tasks"]
    shared = len(settings) == 1
    if not shared:
        headers += ["test", "resamples", "seed"]
    rows = []
    for c in comparisons:
        adjusted = c.get("p_adjusted")
        row = [str(c["system_a"]), str(c["system_b"]), str(c[what]), _SCORE_WORD.get(c["score"], c["score"]),
               f"{c['mean_a']:.5f}", f"{c['mean_b']:.5f}", f"{c['difference']:+.5f}", f"{c['p_value']:.4f}",
               "-" if adjusted is None else f"{adjusted:.4f}", str(c["tasks"])]
        if not shared:
            row += [str(c["test"]), str(c["resamples"]), str(c["seed"])]
        rows.append(row)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    right = {4, 5, 6, 7, 8, 9, 11, 12}

    def fmt(parts: Sequence[str]) -> str:
        return "  ".join(p.rjust(widths[i]) if i in right else p.ljust(widths[i])
                         for i, p in enumerate(parts)).rstrip()

    heading = ("paired significance tests over the tasks both systems have, two-sided p; p Holm: "
               "Holm-Bonferroni over the pairs tested on one score of one " + what)
    if shared:
        test, resamples, seed = next(iter(settings))
        heading += f" ({test}, {resamples} resamples, seed {seed})"
    lines = ["", heading, fmt(headers), "  ".join("-" * w for w in widths)]
    lines += [fmt(r) for r in rows]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# meta-evaluation


def _statistic_keys(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The statistics the rows carry, in the registry's order."""
    from rouge2.stats.correlation import STATISTICS

    return [e.value.key for e in STATISTICS if any(e.value.key in r for r in rows)]


def format_correlations(rows: Sequence[dict[str, Any]], cmp_rows: Sequence[dict[str, Any]] = ()) -> str:
    """A console table of correlations (and of comparisons)."""
    def f(e: dict | None) -> str:
        if not e or e.get("value") is None:
            return "n/a"
        lo, hi = e["ci"]
        ci = f" [{lo:+.3f}, {hi:+.3f}]" if lo is not None else ""
        eps = f" eps={e['epsilon']:.4g}" if e.get("epsilon") is not None else ""
        return f"{e['value']:+.3f}{ci}{eps}"

    lines = []
    keys = _statistic_keys(rows)
    table = [["level", "metric", "dimension", "n", *(k.replace("_", " ") for k in keys)]]
    for r in rows:
        metric = f"{r['measure']}/{r['score']}" + (f"@{r['variant']}" if r["variant"] else "")
        table.append([r["level"], metric, r["dimension"], str(r["n"]), *(f(r.get(k)) for k in keys)])
    lines += _align_rows(table)
    if cmp_rows:
        test = cmp_rows[0].get("test", "permutation")
        lines += ["", "paired tests: does A correlate better than B? (difference A - B [interval], "
                      f"{test} p, two-sided)"]
        coeffs = [k for k in ("pearson", "spearman", "kendall") if any(k in c for c in cmp_rows)]
        t2 = [["level", "A", "B", "dimension", *coeffs]]
        for c in cmp_rows:
            cells = []
            for k in coeffs:
                d = c.get(k)
                cells.append("n/a" if not d or d.get("difference") is None else
                             f"{d['difference']:+.3f} [{d['ci'][0]:+.3f}, {d['ci'][1]:+.3f}] "
                             + ("p=n/a" if d["p_two_sided"] is None else f"p={d['p_two_sided']:.3f}"))
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
    scores = rankings.get("scores", {})
    lines = ["", "rankings of the systems (by each measure's score), and agreement between variants"]
    for variant, per in rankings["rankings"].items():
        for m, order in per.items():
            lines.append(f"  {variant:<12} {m} {_SCORE_WORD[scores.get(m, 'fmeasure')]}: {' > '.join(order)}")
    for a in rankings["agreement"]:
        same = "same order" if a["same_order"] else "different order"
        lines.append(f"  {a['variant_a']} vs {a['variant_b']} {a['measure']}: Kendall tau "
                     f"{a['kendall']:+.3f}, Spearman {a['spearman']:+.3f} over {a['systems']} systems ({same})")
    return "\n".join(lines) + "\n"


def format_variant_comparisons(rows: Sequence[Mapping[str, Any]]) -> str:
    if not rows:
        return ""
    lines = ["", "paired tests between variants (per system, over its tasks)"]
    for c in rows:
        lines.append(f"  {c['system']} {c['measure']} {_SCORE_WORD[c['score']]}: {c['variant_a']} {c['mean_a']:.5f} vs "
                     f"{c['variant_b']} {c['mean_b']:.5f} (diff {c['difference']:+.5f}), "
                     f"p = {c['p_value']:.4f}  [{c['test']}, {c['tasks']} tasks]")
    return "\n".join(lines) + "\n"


def correlations_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """The correlations as CSV text: one row per level, variant, measure, score and dimension."""
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    keys = _statistic_keys(rows) if rows else ["pearson", "spearman", "kendall"]
    eps = "tie_calibrated_accuracy" in keys
    w.writerow(["level", "variant", "measure", "score", "dimension", "n",
                *(f"{c}{part}" for c in keys for part in ("", "_low", "_high")),
                *(["tie_calibrated_accuracy_epsilon"] if eps else [])])
    for r in rows:
        cells = []
        for c in keys:
            e = r.get(c) or {"value": None, "ci": [None, None]}
            cells += [e["value"], *e["ci"]]
        if eps:
            cells.append((r.get("tie_calibrated_accuracy") or {}).get("epsilon"))
        w.writerow([r["level"], r["variant"] or "", r["measure"], r["score"], r["dimension"], r["n"],
                    *("" if v is None else repr(v) for v in cells)])
    return buf.getvalue()
