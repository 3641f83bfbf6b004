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
import io
import json
import math
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import IO, Any

from rouge2.stats.correlation import STATISTICS
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


#: rows of the console's system table before the rest is counted in one line
#: (all rows are in systems.csv / variants.csv)
CONSOLE_ROWS = 20


def format_system_table(systems: Mapping[str, Mapping[str, Mapping]], measures: Sequence[str], *,
                        rank_by: str | None = None, rank_score: str | None = None,
                        confidence: float | None = None, title: str | None = None,
                        width: int = CONSOLE_WIDTH, max_rows: int | None = None,
                        scores: Mapping[str, str] | None = None) -> str:
    """A wide table: one line per system, ranked, one column per measure.

    ``systems`` maps system -> measure -> ``{recall, precision, fmeasure,
    tasks, ci?}`` (the JSON summary's entries).  Rows are ranked by
    ``rank_score`` of ``rank_by`` (default: the first measure's F), best
    first, ties in natural order of names.  Each cell is the mean F; with
    intervals, followed by the F interval as ``[.lo,.hi]``.  Columns are the
    canonical measure names (topic tags visible).  When the rank score is
    recall or precision, a column shows it.  When systems have different
    numbers of tasks, a ``tasks`` column shows them.  Measures that do not
    fit in ``width`` characters wrap into further blocks, each repeating the
    rank and system columns.  With ``max_rows``, a longer table shows the
    best systems and the last one, and counts the others in one line.
    ``scores``: the score shown per measure (default F; a measure shown on
    another score has it after its name: ``rouge-aspect R``); the ranking
    score defaults to ``rank_by``'s."""
    measures = list(measures)
    shown_score = {m: (scores or {}).get(m, "fmeasure") for m in measures}
    rank_by = rank_by or measures[0]
    rank_score = rank_score or shown_score[rank_by]
    ranked = rank_systems(systems, rank_by, rank_score)
    task_counts = sorted({e["tasks"] for per in systems.values() for e in per.values()})
    with_ci = any(e.get("ci") for per in systems.values() for e in per.values())
    lead_headers, numeric_lead, lead_rows = _lead_columns(
        systems, ranked, rank_by, rank_score if rank_score != shown_score[rank_by] else None,
        len(task_counts) > 1)
    cells = [[_cell(systems[s][m], with_ci, shown_score[m]) for m in measures] for _, s in ranked]
    heads = [m if shown_score[m] == "fmeasure" else f"{m} {_SCORE_LETTER[shown_score[m]]}" for m in measures]
    lines = [title] if title else []
    lines.append(_table_heading(task_counts, with_ci, confidence, rank_by, rank_score, set(shown_score.values())))
    shown = _shown_rows(len(ranked), max_rows)
    lines += _blocks(lead_headers, numeric_lead, [lead_rows[i] for i in shown], heads,
                     [cells[i] for i in shown], width, hidden=len(ranked) - len(shown))
    return "\n".join(lines) + "\n"


def _shown_rows(n: int, max_rows: int | None) -> list[int]:
    """Which ranked rows a table of at most ``max_rows`` rows shows: the best, then the last."""
    if max_rows is None or n <= max_rows:
        return list(range(n))
    return [*range(max(1, max_rows - 2)), n - 1]


def _lead_columns(systems, ranked, rank_by: str, rank_score: str | None,
                  tasks_column: bool) -> tuple[list[str], set[int], list[list[str]]]:
    """The rank and system columns (and the tasks and rank-score columns when
    due: ``rank_score`` None when it is the score shown)."""
    headers = ["rank", "system"]
    rows = [[str(r), s] for r, s in ranked]
    numeric = {0}
    if tasks_column:
        headers.append("tasks")
        numeric.add(len(headers) - 1)
        for row, (_, s) in zip(rows, ranked):
            row.append(str(systems[s][rank_by]["tasks"]))
    if rank_score is not None:
        headers.append(f"{rank_by} {_SCORE_WORD[rank_score]}")
        numeric.add(len(headers) - 1)
        for row, (_, s) in zip(rows, ranked):
            row.append(f"{systems[s][rank_by][rank_score]:.5f}")
    return headers, numeric, rows


def _cell(e: Mapping, with_ci: bool, score: str = "fmeasure") -> str:
    text = f"{e[score]:.5f}"
    ci = (e.get("ci") or {}).get(score)
    if with_ci and ci:
        text += f" [{_bound(ci[0])},{_bound(ci[1])}]"
    return text


def _table_heading(counts: Sequence[int], with_ci: bool, confidence: float | None, rank_by: str,
                   rank_score: str, kinds: Set[str] = frozenset({"fmeasure"})) -> str:
    over = (f"over {counts[0]} task{'s' if counts[0] != 1 else ''} per system" if len(counts) == 1
            else "over each system's tasks")
    what = (f"cells: mean F {over}" if kinds == {"fmeasure"} else
            f"cells: mean {_SCORE_WORD[next(iter(kinds))]} {over}" if len(kinds) == 1 else
            f"cells: mean F {over}, or the score after the measure's name (R recall, P precision)")
    if with_ci:
        pct = f"{confidence * 100:g}% " if confidence else ""
        what += f" [{pct}bootstrap interval]"
    return f"{what}; ranked by {rank_by} {_SCORE_WORD[rank_score]}, best first"


def _blocks(lead_headers: list[str], numeric_lead: set[int], lead_rows: list[list[str]],
            measures: list[str], cells: list[list[str]], width: int, gap: int = 2,
            hidden: int = 0) -> list[str]:
    """The table's lines: measures cut into blocks of at most ``width``
    characters; ``hidden`` rows left out are counted before the last row."""
    lead_widths = [max(len(h), *(len(r[i]) for r in lead_rows)) for i, h in enumerate(lead_headers)]
    widths = [max(len(m), *(len(c[j]) for c in cells)) for j, m in enumerate(measures)]
    room = width - sum(lead_widths) - gap * len(lead_widths)

    def fmt(parts: Sequence[str], ws: Sequence[int], right: set[int]) -> str:
        return (" " * gap).join(p.rjust(w) if i in right else p.ljust(w)
                                for i, (p, w) in enumerate(zip(parts, ws))).rstrip()

    lines = []
    for block in _pack(widths, room, gap):
        ws = lead_widths + [widths[j] for j in block]
        right = numeric_lead | set(range(len(lead_widths), len(ws)))
        lines.append("")
        lines.append(fmt(lead_headers + [measures[j] for j in block], ws, right))
        lines.append((" " * gap).join("-" * w for w in ws))
        for k, (lead, row) in enumerate(zip(lead_rows, cells)):
            if hidden and k == len(cells) - 1:
                lines.append(f"... {hidden} more system{'s' if hidden != 1 else ''} "
                             f"(every system: systems.csv, summary.json)")
            lines.append(fmt(lead + [row[j] for j in block], ws, right))
    return lines


def format_comparisons(comparisons: Sequence[Mapping], limit: int | None = None) -> str:
    """The paired tests as a table: one line per (pair, measure) with both
    means, the difference and the p-value; the test, resamples and seed
    (the same for every test of a run) on the heading line.  With ``limit``,
    at most that many rows, the rest counted in one line."""
    if not comparisons:
        return ""
    if limit == 0:  # one line
        below = sum(1 for c in comparisons if c["p_value"] < 0.05)
        pairs = len({(c["system_a"], c["system_b"]) for c in comparisons})
        return (f"\npaired significance tests: {len(comparisons)} ({_plural(pairs, 'pair')} of systems), "
                f"{below} with p < 0.05 (every test: summary.json, comparisons)\n")
    more = 0
    if limit is not None and len(comparisons) > limit:
        more = len(comparisons) - limit
        comparisons = comparisons[:limit]
    settings = {(c["test"], c["resamples"], c["seed"]) for c in comparisons}
    what = "aspect" if "aspect" in comparisons[0] else "measure"
    headers = ["system A", "system B", what, "score", "A", "B", "A - B", "p", "p Holm", "tasks"]
    shared = len(settings) == 1
    if not shared:
        headers += ["test", "resamples", "seed"]
    rows = [_comparison_row(c, what) + ([] if shared else [str(c["test"]), str(c["resamples"]), str(c["seed"])])
            for c in comparisons]
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
    if more:
        lines.append(f"... {_plural(more, 'more test')} (every test: summary.json, comparisons)")
    return "\n".join(lines) + "\n"


def _comparison_row(c: Mapping, what: str) -> list[str]:
    adjusted = c.get("p_adjusted")
    return [str(c["system_a"]), str(c["system_b"]), str(c[what]), _SCORE_WORD.get(c["score"], c["score"]),
            f"{c['mean_a']:.5f}", f"{c['mean_b']:.5f}", f"{c['difference']:+.5f}", f"{c['p_value']:.4f}",
            "-" if adjusted is None else f"{adjusted:.4f}", str(c["tasks"])]


# ---------------------------------------------------------------------------
# meta-evaluation


def _statistic_keys(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The statistics the rows carry, in the registry's order."""
    return [e.value.key for e in STATISTICS if any(e.value.key in r for r in rows)]


def format_correlations(rows: Sequence[dict[str, Any]], cmp_rows: Sequence[dict[str, Any]] = (),
                        limit: int | None = None, cmp_limit: int | None = None) -> str:
    """A console table of correlations (and of comparisons).  With ``limit``
    (``cmp_limit``, default ``limit``), at most that many rows of each, the
    rest counted in one line; 0: the table as one line."""
    cmp_limit = limit if cmp_limit is None else cmp_limit
    lines = _correlation_rows(rows, limit)
    if cmp_rows:
        lines += _correlation_tests(cmp_rows, cmp_limit)
    return "\n".join(lines) + "\n"


def _shown(rows: Sequence, limit: int | None) -> tuple[Sequence, int]:
    """The rows a table of at most ``limit`` rows shows, and how many it leaves out."""
    if limit is None or len(rows) <= limit:
        return rows, 0
    return rows[:limit], len(rows) - limit


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _correlation_rows(rows: Sequence[dict[str, Any]], limit: int | None) -> list[str]:
    if limit == 0:
        return [f"{_plural(len(rows), 'correlation')} (every one: correlations.csv)"]
    rows, more = _shown(rows, limit)

    def f(e: dict | None) -> str:
        if not e or e.get("value") is None:
            return "n/a"
        lo, hi = e["ci"]
        ci = f" [{lo:+.3f}, {hi:+.3f}]" if lo is not None else ""
        eps = f" eps={e['epsilon']:.4g}" if e.get("epsilon") is not None else ""
        return f"{e['value']:+.3f}{ci}{eps}"

    keys = _statistic_keys(rows)
    table = [["level", "metric", "dimension", "n", *(k.replace("_", " ") for k in keys)]]
    for r in rows:
        metric = f"{r['measure']}/{r['score']}" + (f"@{r['variant']}" if r["variant"] else "")
        table.append([r["level"], metric, r["dimension"], str(r["n"]), *(f(r.get(k)) for k in keys)])
    lines = _align_rows(table)
    if more:
        lines.append(f"... {_plural(more, 'more row')} (every row: correlations.csv)")
    return lines


def _correlation_tests(cmp_rows: Sequence[dict[str, Any]], limit: int | None) -> list[str]:
    if limit == 0:
        return [f"{_plural(len(cmp_rows), 'paired test')} of two metrics' correlations "
                f"(every one: correlations.json)"]
    cmp_rows, more = _shown(cmp_rows, limit)
    test = cmp_rows[0].get("test", "permutation")
    lines = ["", "paired tests: does A correlate better than B? (difference A - B [interval], "
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
    if more:
        lines.append(f"... {_plural(more, 'more test')} (every test: correlations.json)")
    return lines


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


def format_variant_rankings(rankings: Mapping[str, Any], variants: Mapping[str, Mapping[str, Any]],
                            measure: str, limit: int = 8) -> str:
    """One line per variant (at most ``limit``): its mean F of ``measure`` over
    the systems, its best system, and how alike it ranks the systems to the
    first variant (Kendall tau-b, Spearman, same order)."""
    names = list(variants)
    base = names[0]
    score = rankings.get("scores", {}).get(measure, "fmeasure")  # the measure's ranking score
    word = _SCORE_WORD[score]
    agree = {a["variant_b"]: a for a in rankings.get("agreement", ())
             if a["variant_a"] == base and a["measure"] == measure}
    rows = [["variant", f"{measure} {word}", "best system", f"Kendall tau vs {base}", "Spearman", "order"]]
    for name in names[:limit]:
        systems = variants[name]
        mean_f = sum(e[measure][score] for e in systems.values()) / max(1, len(systems))
        best = rankings["rankings"][name][measure][0] if rankings["rankings"][name][measure] else "-"
        a = agree.get(name)
        rows.append([name, f"{mean_f:.5f}", best,
                     "-" if a is None else f"{a['kendall']:+.3f}",
                     "-" if a is None else f"{a['spearman']:+.3f}",
                     "-" if a is None else ("same" if a["same_order"] else "different")])
    lines = ["", f"variants: mean {word} over the systems, best system, and ranking agreement with {base} "
                 f"on {measure} {word}"]
    lines += _align_rows(rows)
    if len(names) > limit:
        lines.append(f"... {len(names) - limit} more variants (every variant: variants.csv; rankings: "
                     f"summary.json)")
    return "\n".join(lines) + "\n"


def format_variant_comparisons(rows: Sequence[Mapping[str, Any]], alpha: float = 0.05,
                               limit: int = 4) -> str:
    """The paired tests between variants, summarised: one line per pair of
    variants (how many of its per-system, per-measure tests reach ``p <
    alpha``, and the mean difference); every test is in summary.json."""
    if not rows:
        return ""
    by_pair: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for c in rows:
        by_pair.setdefault((c["variant_a"], c["variant_b"]), []).append(c)
    lines = [""]
    for (a, b), tests in list(by_pair.items())[:limit]:
        systems = len({c["system"] for c in tests})
        measures = len({c["measure"] for c in tests})
        below = sum(1 for c in tests if c["p_value"] < alpha)
        diff = sum(c["difference"] for c in tests) / len(tests)
        scores = "/".join(sorted({_SCORE_WORD[c.get("score", "fmeasure")] for c in tests}))
        lines.append(f"paired tests {a} vs {b} (per system and measure, {scores} over its tasks, "
                     f"{tests[0]['test']}): p < {alpha:g} in {below} of {len(tests)} ({systems} "
                     f"system{'s' if systems != 1 else ''} x {measures} measure{'s' if measures != 1 else ''}), "
                     f"mean difference {diff:+.5f}; every test: summary.json")
    if len(by_pair) > limit:
        lines.append(f"... {len(by_pair) - limit} more pairs of variants (summary.json)")
    return "\n".join(lines) + "\n"


def correlations_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """The correlations as CSV text: one row per level, variant, measure, score and dimension."""
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
