"""The topic-coverage report of a run (``outputs.topic_report``): CSV, JSON and HTML files.

The per-pair computation is :mod:`rouge2.measures.coverage` (re-exported
here: :class:`TopicCoverage`, :class:`PairCoverage`, :func:`assign`); the
dataset-level statistics are :mod:`rouge2.stats.coverage`.  This module
writes them.

Files, for a report named ``<name>`` (default ``topic_coverage``):

* ``<name>.csv`` - one row per task, system, reference and topic word:
  ``task,system,reference,topic,status,matched_with`` (streamed by
  :meth:`TopicReportWriter.add`);
* ``<name>.html`` - the index page: overview charts, systems, most-missed and
  most-added topic words by family, contrasts, one row per task.  Inline CSS
  and script, no network, works from ``file://``;
* ``<name>_files/`` - drill-down pages sharing ``report.css`` and
  ``report.js``: one page per task (``task-0001.html``, natural order of task
  names; each system summary shown once with its topic words highlighted,
  the references collapsed) and one per system (``system-01.html``);
* ``<name>_systems.csv``, ``<name>_topics.csv``, ``<name>_contrast.csv`` and
  ``<name>_summary.json`` - the dataset-level analysis.

:meth:`TopicReportWriter.finish` with only the HTML handle (the old
interface) writes everything into one page and no dataset-level files;
with ``open_file`` and ``html_path`` it writes all of the above.
"""

from __future__ import annotations

import csv
import html
import json
import math
import pickle
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import IO, Any

from rouge2.errors import UserError
from rouge2.measures.coverage import (
    STATUSES,
    PairCoverage,
    ReferenceCoverage,
    TopicCoverage,
    assign,
)
from rouge2.stats.coverage import (
    BootstrapSettings,
    CoverageStats,
    family_label,
    family_sort_key,
    natural_key,
)

CSV_HEADER = ("task", "system", "reference", "topic", "status", "matched_with")
SYSTEMS_HEADER = ("system", "tasks", "tasks_without_topics", "coverage", "ci_low", "ci_high",
                  "pooled_coverage", "exact_share", "synonym_share", "reference_topics", "covered",
                  "exact", "synonym", "missed", "added", "missed_words_per_task",
                  "added_words_per_task")
TOPICS_HEADER = ("scope", "system", "status", "family", "topic", "stem", "tasks", "share",
                 "occurs", "rate")
CONTRAST_HEADER = ("system_a", "system_b", "direction", "family", "topic", "stem", "tasks", "share")
TASK_ORDERS = ("natural", "input", "lexical")
#: characters of task and system details a single-page report holds at most (finish(html)
#: alone; the split report has no such limit)
SINGLE_PAGE_DETAILS = 1_500_000


# ---------------------------------------------------------------------------
# the selection


def report_topics(cfg) -> str:
    """The topic spec of the report: ``outputs.topic_report_topics`` if set,
    else the tags of the run's first topic measure."""
    spec = getattr(cfg.outputs, "topic_report_topics", None)
    if spec:
        return spec
    for m in cfg.measures:
        low = m.lower()
        for prefix in ("rouge-topicuniq-", "rouge-topic-"):
            if low.startswith(prefix):
                return low[len(prefix):]
    raise UserError(f"{cfg.source}: outputs.topic_report: the run has no topic measure; add one "
                    f"(e.g. \"rouge-topic-nn|jj\") or give the parts of speech with "
                    f"outputs.topic_report.topics (e.g. topics: nn|jj)")


def report_paths(html_path: Path) -> dict[str, Path]:
    """Every path a split report writes besides the per-pair CSV (the folder
    holds the drill-down pages): keys ``html``, ``folder``, ``systems_csv``,
    ``topics_csv``, ``contrast_csv``, ``summary_json``."""
    html_path = Path(html_path)
    base = html_path.with_suffix("")
    return {
        "html": html_path,
        "folder": base.parent / f"{base.name}_files",
        "systems_csv": base.parent / f"{base.name}_systems.csv",
        "topics_csv": base.parent / f"{base.name}_topics.csv",
        "contrast_csv": base.parent / f"{base.name}_contrast.csv",
        "summary_json": base.parent / f"{base.name}_summary.json",
    }


def csv_path_for(html_path):
    """The CSV next to the HTML file: same name, ``.csv``."""
    return html_path.with_suffix(".csv")


# ---------------------------------------------------------------------------
# formatting helpers

_e = html.escape


def _n(count: int, word: str, plural: str | None = None) -> str:
    """``1 task``, ``2 tasks``: a count with its noun in the right number."""
    return f"{count} {word if count == 1 else (plural or word + 's')}"


def _pct(x: float | None, digits: int = 1) -> str:
    return "n/a" if x is None else f"{100.0 * x:.{digits}f}"


def _num(x: float | None) -> str:
    """Sort value for data-v: repr, or very low for missing."""
    return "-1e308" if x is None else repr(float(x))


def _csv_value(x: Any) -> str:
    if x is None:
        return ""
    if isinstance(x, float):
        return repr(x)
    return str(x)


def _marked(text: str, spans: Iterable[tuple[int, int, str]]) -> str:
    """``text`` escaped, with each span ``(start, end, attributes)`` in a ``<mark>``."""
    parts = []
    pos = 0
    for start, end, attrs in spans:
        if start < pos:
            continue
        parts.append(_e(text[pos:start]))
        parts.append(f"<mark {attrs}>{_e(text[start:end])}</mark>")
        pos = end
    parts.append(_e(text[pos:]))
    return "".join(parts)


FAMILY_COLORS = {"NOUN": "#4e79a7", "PROPN": "#f28e2b", "VERB": "#59a14f", "ADJ": "#e15759",
                 "ADV": "#76b7b2", "AUX": "#b8a034", "NUM": "#b07aa1"}
OTHER_COLOR = "#9c755f"

CSS = """
:root{--exact:#b7e4b0;--synonym:#a9d2f5;--missed:#f6b3b3;--added:#f7dc8c;--line:#d0d7de;--muted:#57606a;--head:#f6f8fa}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:80em;padding:.5em 1.5em 3em;color:#1f2328}
h1{font-size:1.6em;margin:.3em 0}h2{font-size:1.3em;margin:1.8em 0 .5em;padding-bottom:.2em;border-bottom:1px solid var(--line)}
h3{font-size:1.05em;margin:1.2em 0 .4em}a{color:#0969da}
.meta,.note,.crumbs{color:var(--muted)}.crumbs{margin:.4em 0}
nav.toc ol{margin:.3em 0;padding-left:1.4em;columns:2 16em}
table{border-collapse:collapse;margin:.4em 0 1em;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid var(--line);padding:.2em .6em;text-align:right;vertical-align:top}
th.l,td.l{text-align:left}
th{background:var(--head);position:sticky;top:0;font-weight:600}
table.sortable th{cursor:pointer;user-select:none;white-space:nowrap}
table.sortable th:hover{background:#eaeef2}
th[aria-sort=ascending]::after{content:" \\25B2";font-size:.75em}
th[aria-sort=descending]::after{content:" \\25BC";font-size:.75em}
input.filter{font:inherit;padding:.2em .5em;margin:.3em 0;width:18em;border:1px solid var(--line);border-radius:4px}
.count{color:var(--muted);margin-left:.6em}
mark{border-radius:3px;padding:0 .12em;background:none;color:inherit}
mark.exact{background:var(--exact)}mark.synonym{background:var(--synonym)}
mark.missed{background:var(--missed)}mark.added{background:var(--added)}
mark.topic{background:#eceff3;box-shadow:inset 0 -2px #9aa4ae}
.legend mark{margin-right:.5em}
.chip{display:inline-block;border-radius:3px;padding:0 .35em;margin:.1em .15em;background:var(--missed);font-size:.92em}
.chip sup{color:var(--muted);margin-left:.15em}.fam{color:var(--muted);font-size:.9em}
.tw{max-width:100%;overflow-x:auto}.tw table{margin-top:0}
.twocol{display:flex;gap:2.5em;flex-wrap:wrap}.twocol>div{flex:1 1 26em;min-width:0}
.families{display:flex;gap:1.5em 2.5em;flex-wrap:wrap}.families>div{flex:0 0 auto;max-width:100%;overflow-x:auto}
details.ref{border:1px solid var(--line);border-radius:4px;padding:.25em .7em;margin:.35em 0}
details.ref summary{cursor:pointer;color:var(--muted)}details.ref .lead{color:#1f2328}
section.sys{border-top:1px solid var(--line);padding:.5em 0 .7em}
section.sys h3{margin:.2em 0;display:flex;gap:1em;flex-wrap:wrap;align-items:baseline}
.stats{font-weight:normal;color:var(--muted);font-size:.92em}
p.text{white-space:pre-wrap;margin:.3em 0;line-height:1.7}
button.show{font:inherit;font-size:.85em;padding:0 .5em;cursor:pointer}
figure{margin:.8em 0 1.4em}figcaption{color:var(--muted);font-size:.9em}
svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:12px;fill:#1f2328}
svg .grid{stroke:#e1e4e8}svg .ci{stroke:#1f2328;stroke-width:1.5}svg .axis{fill:var(--muted)}
.shown{outline:2px solid #0969da;outline-offset:2px}
""".strip()

JS = """
(function () {
  "use strict";
  var collator = new Intl.Collator(undefined, {numeric: true, sensitivity: "base"});
  function cellKey(cell, num) {
    var v = cell.getAttribute("data-v");
    if (v === null) { v = cell.textContent.trim(); }
    if (num) { var x = parseFloat(v); return isNaN(x) ? -Infinity : x; }
    return v;
  }
  function sortBy(th) {
    var table = th.closest("table");
    var body = table.tBodies[0];
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var num = th.getAttribute("data-type") === "num";
    var current = th.getAttribute("aria-sort");
    var dir = current ? (current === "ascending" ? -1 : 1) : (num ? -1 : 1);
    var rows = Array.prototype.slice.call(body.rows).map(function (row, i) {
      return {row: row, i: i, k: cellKey(row.cells[col], num)};
    });
    rows.sort(function (a, b) {
      var c = num ? (a.k < b.k ? -1 : a.k > b.k ? 1 : 0) : collator.compare(a.k, b.k);
      return c !== 0 ? dir * c : a.i - b.i;
    });
    rows.forEach(function (r) { body.appendChild(r.row); });
    Array.prototype.forEach.call(th.parentNode.children, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
  }
  document.querySelectorAll("table.sortable thead th").forEach(function (th) {
    th.setAttribute("tabindex", "0");
    th.title = "sort";
    th.addEventListener("click", function () { sortBy(th); });
    th.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); sortBy(th); }
    });
  });
  document.querySelectorAll("input.filter").forEach(function (input) {
    var table = document.getElementById(input.getAttribute("data-for"));
    var count = input.nextElementSibling;
    function apply() {
      var q = input.value.trim().toLowerCase();
      var shown = 0, rows = table.tBodies[0].rows;
      for (var i = 0; i < rows.length; i++) {
        var ok = !q || rows[i].textContent.toLowerCase().indexOf(q) >= 0;
        rows[i].hidden = !ok;
        if (ok) { shown++; }
      }
      if (count) { count.textContent = q ? shown + " of " + rows.length + " rows" : ""; }
    }
    input.addEventListener("input", apply);
    apply();
  });
  var NAMES = {e: "exact", s: "synonym", m: "missed"};
  function showSystem(section) {
    var task = section.closest(".task");
    var st = section.getAttribute("data-st").split("|");
    task.querySelectorAll("details.ref").forEach(function (ref, k) {
      var codes = st[k] || "";
      ref.querySelectorAll("mark[data-i]").forEach(function (m) {
        var c = codes.charAt(parseInt(m.getAttribute("data-i"), 10));
        m.className = NAMES[c] || "topic";
      });
      ref.open = true;
    });
    task.querySelectorAll("section.sys").forEach(function (s) { s.classList.remove("shown"); });
    section.classList.add("shown");
    var label = task.querySelector(".ref-system");
    if (label) { label.textContent = section.getAttribute("data-system"); }
  }
  document.querySelectorAll("button.show").forEach(function (b) {
    b.addEventListener("click", function () { showSystem(b.closest("section.sys")); });
  });
})();
""".strip()


# ---------------------------------------------------------------------------
# charts


def _ticks(lo: float, hi: float) -> list[float]:
    """Axis ticks at a round step (5, 10, 20 or 25 points) from lo to hi."""
    span = hi - lo
    step = next((st for st in (0.05, 0.1, 0.2, 0.25) if span / st <= 8), 0.25)
    k = math.ceil(lo / step - 1e-9)
    out = []
    while k * step <= hi + 1e-9:
        out.append(round(k * step, 10))
        k += 1
    return out


def _svg_coverage(rows: Sequence[dict[str, Any]]) -> str:
    """Dot plot: coverage of each system with its interval, best first."""
    rows = [r for r in rows if r["coverage"] is not None]
    if not rows:
        return '<p class="note">No system has reference topic words.</p>'
    rows = sorted(rows, key=lambda r: (-r["coverage"], natural_key(r["system"])))
    lows = [r["ci_low"] if r["ci_low"] is not None else r["coverage"] for r in rows]
    highs = [r["ci_high"] if r["ci_high"] is not None else r["coverage"] for r in rows]
    lo = max(0.0, math.floor(min(lows) * 10 - 1e-9) / 10)
    hi = min(1.0, math.ceil(max(highs) * 10 + 1e-9) / 10)
    if hi - lo < 0.1:
        hi = min(1.0, lo + 0.1)
        lo = max(0.0, hi - 0.1)
    label_w = min(260, 12 + 7 * max(len(r["system"]) for r in rows))
    plot_w = 460
    row_h = 20
    top = 22
    width = label_w + plot_w + 150
    height = top + row_h * len(rows) + 8

    def x(v: float) -> float:
        return label_w + (v - lo) / (hi - lo) * plot_w

    out = [f'<svg width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="Topic coverage per system">']
    for v in _ticks(lo, hi):
        out.append(f'<line class="grid" x1="{x(v):.1f}" y1="{top - 4}" x2="{x(v):.1f}" y2="{height - 4}"/>'
                   f'<text class="axis" x="{x(v):.1f}" y="{top - 8}" text-anchor="middle">{100 * v:.0f}%</text>')
    for i, r in enumerate(rows):
        y = top + row_h * i + row_h / 2
        tip = f"{r['system']}: {_pct(r['coverage'])}%"
        if r["ci_low"] is not None:
            tip += f" [{_pct(r['ci_low'])}, {_pct(r['ci_high'])}]"
            out.append(f'<line class="ci" x1="{x(r["ci_low"]):.1f}" y1="{y:.1f}" '
                       f'x2="{x(r["ci_high"]):.1f}" y2="{y:.1f}"/>')
        out.append(f'<g><title>{_e(tip)}</title>'
                   f'<text x="{label_w - 8}" y="{y + 4:.1f}" text-anchor="end">{_e(r["system"])}</text>'
                   f'<circle cx="{x(r["coverage"]):.1f}" cy="{y:.1f}" r="4.5" fill="#4e79a7"/>'
                   f'<text x="{label_w + plot_w + 10}" y="{y + 4:.1f}">{_pct(r["coverage"])}%'
                   + (f' [{_pct(r["ci_low"])}, {_pct(r["ci_high"])}]' if r["ci_low"] is not None else "")
                   + "</text></g>")
    out.append("</svg>")
    return "".join(out)


def _svg_top_words(rows: Sequence[dict[str, Any]], what: str) -> str:
    """Horizontal bars: share of pairs for the most-missed (added) words."""
    if not rows:
        return f'<p class="note">No topic word was {what}.</p>'
    label_w = min(240, 16 + 7 * max(len(r["topic"]) + len(r["family"]) + 3 for r in rows))
    plot_w = 420
    row_h = 19
    top = 22
    width = label_w + plot_w + 120
    height = top + row_h * len(rows) + 8
    hi = max(r["share"] or 0 for r in rows) or 1.0
    hi = min(1.0, math.ceil(hi * 10 - 1e-9) / 10)
    out = [f'<svg width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="Most {what} topic words">']
    for v in _ticks(0.0, hi):
        xx = label_w + plot_w * v / hi
        out.append(f'<line class="grid" x1="{xx:.1f}" y1="{top - 4}" x2="{xx:.1f}" y2="{height - 4}"/>'
                   f'<text class="axis" x="{xx:.1f}" y="{top - 8}" text-anchor="middle">{100 * v:.0f}%</text>')
    for i, r in enumerate(rows):
        y = top + row_h * i
        share = r["share"] or 0.0
        color = FAMILY_COLORS.get(r["family"], OTHER_COLOR)
        tip = f"{r['topic']} ({family_label(r['family'])}): {what} in {_n(r['tasks'], 'pair')} ({_pct(share)}%)"
        out.append(f'<g><title>{_e(tip)}</title>'
                   f'<text x="{label_w - 8}" y="{y + 13}" text-anchor="end">{_e(r["topic"])} '
                   f'<tspan class="axis">{_e(r["family"])}</tspan></text>'
                   f'<rect x="{label_w}" y="{y + 3}" width="{plot_w * share / hi:.1f}" height="{row_h - 6}" '
                   f'fill="{color}"/>'
                   f'<text x="{label_w + plot_w * share / hi + 6:.1f}" y="{y + 13}">{_pct(share)}% '
                   f'<tspan class="axis">({r["tasks"]})</tspan></text></g>')
    out.append("</svg>")
    return "".join(out)


# ---------------------------------------------------------------------------
# the writer


class TopicReportWriter:
    """Streams the per-pair CSV; keeps what the analysis needs; writes the report at :meth:`finish`.

    ``csv_handle``, ``selection``, ``synonyms`` and ``title`` are the
    original interface.  The keyword arguments configure the analysis:

    * ``resamples``, ``confidence``, ``seed`` - the bootstrap interval of each
      system's coverage (``resamples=0``: no interval);
    * ``contrast`` - pairs of systems ``[(a, b), ...]`` to contrast; None:
      the two systems with the highest coverage;
    * ``top`` - words per family and status in the topics CSV/JSON (None: all);
    * ``html_top`` - words per family in the HTML tables;
    * ``task_order`` - ``natural`` (task2 < task10), ``input`` or ``lexical``;
    * ``auxiliaries`` - shown in the report: whether verb-tagged
      auxiliaries are topic words (``TopicCoverage.auxiliaries``).
    """

    def __init__(self, csv_handle: IO[str], selection: str, synonyms: bool,
                 title: str | None = None, *, resamples: int = 1000, confidence: float = 0.95,
                 seed: int = 0, contrast: Sequence[Sequence[str]] | None = None,
                 top: int | None = 50, html_top: int = 20, task_order: str = "natural",
                 auxiliaries: bool = False):
        if task_order not in TASK_ORDERS:
            raise UserError(f"topic report: task order {task_order!r} is not one of "
                            f"{', '.join(TASK_ORDERS)}")
        if not isinstance(resamples, int) or resamples < 0:
            raise UserError(f"topic report: resamples must be a whole number >= 0, got {resamples!r}")
        if not 0.0 < confidence < 1.0:
            raise UserError(f"topic report: confidence must be between 0 and 1, got {confidence!r}")
        pairs = []
        for pair in contrast or ():
            if len(pair) != 2 or pair[0] == pair[1]:
                raise UserError(f"topic report: a contrast is two different system names, got {pair!r}")
            pairs.append((str(pair[0]), str(pair[1])))
        self._csv = csv.writer(csv_handle, lineterminator="\n")
        self._csv.writerow(CSV_HEADER)
        self._spool = tempfile.TemporaryFile("w+b")
        self._offsets: dict[str, list[int]] = {}
        self.selection = selection
        self.synonyms = synonyms
        self.title = title
        self.bootstrap = BootstrapSettings(resamples, confidence, seed) if resamples else None
        self.contrast = pairs if contrast is not None else None
        self.top = top
        self.html_top = html_top
        self.task_order = task_order
        self.auxiliaries = auxiliaries
        self.stats = CoverageStats()

    # -- input -----------------------------------------------------------
    def add(self, system: str, cov: PairCoverage) -> None:
        self._csv.writerows(cov.rows)
        if not cov.system:
            cov.system = system
        self.stats.add(cov)
        record = (cov.task, cov.system, cov.counts, cov.candidate, cov.candidate_topics,
                  cov.candidate_spans, cov.reference_topics,
                  [(r.name, r.text, r.topics, r.statuses, r.spans, r.counts) for r in cov.references])
        self._spool.seek(0, 2)
        self._offsets.setdefault(cov.task, []).append(self._spool.tell())
        pickle.dump(record, self._spool, protocol=pickle.HIGHEST_PROTOCOL)

    @property
    def systems(self) -> dict[str, dict[str, int]]:
        """Pooled counts per system (tasks, reference, exact, synonym, missed, added)."""
        out: dict[str, dict[str, int]] = {}
        for (task, system), p in self.stats.pairs.items():
            s = out.setdefault(system, dict.fromkeys(("tasks", "reference", *STATUSES), 0))
            s["tasks"] += 1
            for key, v in p.counts.items():
                s[key] += v
        return out

    def table_rows(self) -> list[dict[str, Any]]:
        """Per system, pooled percentages (the report's systems table, without intervals)."""
        rows = []
        for r in self.stats.system_rows(None):
            def pct(x):
                return None if x is None else 100.0 * x
            rows.append({"system": r["system"], "tasks": r["tasks"], "reference_topics": r["reference_topics"],
                         "covered_pct": pct(r["pooled_coverage"]), "exact_pct": pct(r["exact_share"]),
                         "synonym_pct": pct(r["synonym_share"]), "missed": r["missed"],
                         "added": r["added"]})
        return rows

    def _records(self, task: str) -> list[tuple]:
        out = []
        for offset in self._offsets.get(task, ()):
            self._spool.seek(offset)
            out.append(pickle.load(self._spool))
        return out

    # -- the analysis ----------------------------------------------------
    def analysis(self) -> dict[str, Any]:
        """The dataset-level results (what ``<name>_summary.json`` holds)."""
        st = self.stats
        systems = st.system_rows(self.bootstrap)
        names = [r["system"] for r in systems]
        pairs = self.contrast if self.contrast is not None else st.default_contrast(systems)
        for a, b in pairs:
            for name in (a, b):
                if name not in st.system_first:
                    raise UserError(f"topic report contrast: no system named {name!r}; "
                                    f"systems: {', '.join(names)}")
        per_system_task = {}
        for (t, s), p in st.pairs.items():
            per_system_task.setdefault(s, []).append(p)
        for r in systems:
            ps = per_system_task.get(r["system"], [])
            r["missed_words_per_task"] = sum(len(p.missed) for p in ps) / len(ps) if ps else None
            r["added_words_per_task"] = sum(p.added_words for p in ps) / len(ps) if ps else None
        return {
            "rouge2_topic_coverage": 1,
            "title": self.title,
            "selection": self.selection,
            "auxiliaries": self.auxiliaries,
            "synonyms": self.synonyms,
            "counts": {"tasks": len(st.task_first), "systems": len(st.system_first),
                       "pairs": len(st.pairs)},
            "bootstrap": None if self.bootstrap is None else {
                "resamples": self.bootstrap.resamples, "confidence": self.bootstrap.confidence,
                "seed": self.bootstrap.seed,
                "method": "percentile interval of the mean coverage, tasks resampled with replacement"},
            "definitions": {
                "coverage": "per task: covered / reference topic words, pooled over the task's references "
                            "(each reference's distinct topic words); per system: mean over its tasks "
                            "(tasks without reference topic words left out)",
                "pooled_coverage": "covered / reference topic words summed over all tasks and references",
                "missed": "a reference topic word covered against none of the references that contain it",
                "added": "a candidate topic word matched against no reference",
                "tasks": "number of tasks (all systems: of (task, system) pairs) where the word was missed/added",
                "share": "tasks / the system's tasks (all systems: / all pairs)",
                "occurs": "tasks where the word is a reference topic (missed) / a candidate topic (added)",
                "rate": "tasks / occurs",
                "family": "universal part of speech of the word",
                "contrast": "over the tasks both systems have: reference topic words one covers and the other misses",
            },
            "systems": systems,
            "missed": {"all": st.topic_rows("missed", None, self.top),
                       "systems": {s: st.topic_rows("missed", s, self.top) for s in names}},
            "added": {"all": st.topic_rows("added", None, self.top),
                      "systems": {s: st.topic_rows("added", s, self.top) for s in names}},
            "contrast": [st.contrast(a, b, self.top) for a, b in pairs],
            "tasks": st.task_rows(self.task_order),
        }

    # -- output ----------------------------------------------------------
    def finish(self, out: IO[str], open_file: Callable[[Path], IO[str]] | None = None,
               html_path: Path | str | None = None) -> list[Path]:
        """Write the report.

        ``finish(html_handle)``: one page with everything (the original
        interface; no other file).  ``finish(html_handle, open_file,
        html_path)``: the index page to ``html_handle``, and through
        ``open_file(path)`` (a staged text handle, e.g.
        ``OutputTransaction.open``) the drill-down pages, their shared
        ``report.css``/``report.js`` and the dataset-level CSV and JSON
        files (:func:`report_paths`).  Returns the paths written through
        ``open_file``.
        """
        try:
            if (open_file is None) != (html_path is None):
                raise TypeError("finish: give both open_file and html_path, or neither")
            data = self.analysis()
            if open_file is None:
                _Pages(self, data, split=False).write_single(out)
                return []
            paths = report_paths(Path(html_path))
            written = [paths["systems_csv"], paths["topics_csv"], paths["contrast_csv"],
                       paths["summary_json"]]
            self._write_tables(data, open_file, paths)
            written += _Pages(self, data, split=True, folder=paths["folder"]).write_split(out, open_file)
            return written
        finally:
            self.close()

    def _write_tables(self, data: dict[str, Any], open_file, paths: dict[str, Path]) -> None:
        with open_file(paths["systems_csv"]) as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(SYSTEMS_HEADER)
            for r in data["systems"]:
                w.writerow([_csv_value(r[k]) for k in SYSTEMS_HEADER])
        with open_file(paths["topics_csv"]) as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(TOPICS_HEADER)
            for status in ("missed", "added"):
                groups = [data[status]["all"]] + list(data[status]["systems"].values())
                for rows in groups:
                    for r in rows:
                        w.writerow([_csv_value(r[k]) for k in TOPICS_HEADER])
        with open_file(paths["contrast_csv"]) as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(CONTRAST_HEADER)
            for c in data["contrast"]:
                for r in c["a_covers_b_misses"] + c["b_covers_a_misses"]:
                    w.writerow([_csv_value(r[k]) for k in CONTRAST_HEADER])
        with open_file(paths["summary_json"]) as f:
            json.dump(data, f, indent=1, ensure_ascii=False, allow_nan=False)
            f.write("\n")

    def close(self) -> None:
        if not self._spool.closed:
            self._spool.close()


# ---------------------------------------------------------------------------
# the pages


class _Pages:
    """Renders the index, task and system pages (split) or one page (single)."""

    def __init__(self, writer: TopicReportWriter, data: dict[str, Any], split: bool,
                 folder: Path | None = None):
        self.w = writer
        self.data = data
        self.split = split
        self.folder = folder
        st = writer.stats
        self.tasks = [r["task"] for r in data["tasks"]]
        self.systems = [r["system"] for r in data["systems"]]
        wt = max(4, len(str(len(self.tasks))))
        ws = max(2, len(str(len(self.systems))))
        self.task_id = {t: f"task-{i + 1:0{wt}d}" for i, t in enumerate(self.tasks)}
        self.system_id = {s: f"system-{i + 1:0{ws}d}" for i, s in enumerate(self.systems)}
        self.system_rank = {s: i for i, s in enumerate(self.systems)}
        self.stats = st
        self.w_html_name = "index.html"

    # -- links -------------------------------------------------------------
    def task_href(self, task: str, system: str | None = None, from_folder: bool = False) -> str:
        tid = self.task_id[task]
        anchor = f"#{tid}-{self.system_id[system]}" if system is not None else ""
        if not self.split:
            return anchor or f"#{tid}"
        prefix = "" if from_folder else f"{self.folder.name}/"
        return f"{prefix}{tid}.html{anchor}"

    def system_href(self, system: str, from_folder: bool = False) -> str:
        sid = self.system_id[system]
        if not self.split:
            return f"#{sid}"
        prefix = "" if from_folder else f"{self.folder.name}/"
        return f"{prefix}{sid}.html"

    def index_href(self, anchor: str = "") -> str:
        if not self.split:
            return f"#{anchor}" if anchor else "#top"
        return f"../{self.w_html_name}" + (f"#{anchor}" if anchor else "")

    # -- page frame ----------------------------------------------------------
    def head(self, title: str, inline: bool) -> str:
        style = f"<style>\n{CSS}\n</style>" if inline else '<link rel="stylesheet" href="report.css"/>'
        return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8"/>\n'
                '<meta name="viewport" content="width=device-width, initial-scale=1"/>\n'
                f"<title>{_e(title)}</title>\n{style}\n</head>\n<body>\n")

    def tail(self, inline: bool) -> str:
        script = f"<script>\n{JS}\n</script>" if inline else '<script src="report.js"></script>'
        return f"{script}\n</body>\n</html>\n"

    @property
    def title(self) -> str:
        return "Topic coverage" + (f": {self.w.title}" if self.w.title else "")

    def legend(self) -> str:
        return ('<p class="legend"><mark class="exact">exact</mark><mark class="synonym">synonym</mark>'
                '<mark class="missed">missed</mark><mark class="added">added</mark>'
                '<mark class="topic">topic word</mark></p>\n')

    @staticmethod
    def filter_box(table_id: str, what: str) -> str:
        return (f'<p><input type="search" class="filter" data-for="{table_id}" '
                f'placeholder="Filter {_e(what)}&#8230;" aria-label="Filter {_e(what)}"/>'
                f'<span class="count"></span></p>\n')

    # -- the index ---------------------------------------------------------
    def index_body(self) -> str:
        d = self.data
        c = d["counts"]
        parts = [f'<header id="top"><h1>{_e(self.title)}</h1>\n']
        aux = "auxiliaries included" if d["auxiliaries"] else "verb auxiliaries left out"
        parts.append(
            f'<p class="meta">Topic words: parts of speech <code>{_e(d["selection"])}</code> ({aux}); '
            f'distinct words (stems) as in ROUGE-TopicUniq; synonyms {"on" if d["synonyms"] else "off"}. '
            f'{_n(c["systems"], "system")}, {_n(c["tasks"], "task")}, {_n(c["pairs"], "summary", "summaries")}.'
            '</p></header>\n')
        sections = [("overview", "Overview"), ("systems", "Systems"),
                    ("missed", "Most-missed topic words"), ("added", "Most-added topic words"),
                    ("contrast", "Contrasts"), ("tasks", "Tasks"), ("about", "Definitions and files")]
        parts.append('<nav class="toc" id="contents" aria-label="Contents"><strong>Contents</strong><ol>'
                     + "".join(f'<li><a href="#{a}">{_e(n)}</a></li>' for a, n in sections)
                     + "</ol></nav>\n")
        parts.append(self.overview())
        parts.append(self.systems_section())
        for status in ("missed", "added"):
            parts.append(self.words_section(status))
        parts.append(self.contrast_section())
        parts.append(self.tasks_section())
        parts.append(self.about_section())
        return _scrolling("".join(parts))

    def overview(self) -> str:
        d = self.data
        rows = [r for r in d["systems"] if r["coverage"] is not None]
        out = ['<section id="overview"><h2>Overview</h2>\n']
        if rows:
            best = max(rows, key=lambda r: (r["coverage"], -self.system_rank[r["system"]]))
            worst = min(rows, key=lambda r: (r["coverage"], self.system_rank[r["system"]]))
            ci = ""
            if best["ci_low"] is not None:
                ci = (f" ({100 * d['bootstrap']['confidence']:g}% interval "
                      f"{_pct(best['ci_low'])}&#8211;{_pct(best['ci_high'])}%)")
            if best["coverage"] == worst["coverage"]:  # one system, or all tied: no highest and lowest
                who = (f'<strong>{_e(best["system"])}</strong> covers' if len(rows) == 1
                       else f"All {len(rows)} systems cover")
                out.append(f'<p>{who} {_pct(best["coverage"])}% of the reference topic words per task '
                           f'on average{ci if len(rows) == 1 else ""}.</p>\n')
            else:
                out.append(f'<p>Highest coverage: <strong>{_e(best["system"])}</strong>, '
                           f'{_pct(best["coverage"])}% of the reference topic words per task on average{ci}; '
                           f'lowest: <strong>{_e(worst["system"])}</strong>, {_pct(worst["coverage"])}%.</p>\n')
        cap = "Coverage per system: mean over tasks of covered / reference topic words"
        if d["bootstrap"]:
            b = d["bootstrap"]
            cap += (f", with {100 * b['confidence']:g}% percentile bootstrap intervals over tasks "
                    f"({b['resamples']} resamples, seed {b['seed']})")
        out.append(f"<figure>{_svg_coverage(d['systems'])}<figcaption>{_e(cap)}.</figcaption></figure>\n")
        top = self.stats.top_words("missed", 15)
        out.append(f"<figure>{_svg_top_words(top, 'missed')}<figcaption>The 15 most-missed topic words "
                   "over all systems: share of the (task, system) pairs that missed the word "
                   "(number of pairs in brackets); colour and tag: the word's family.</figcaption></figure>\n")
        out.append("</section>\n")
        return "".join(out)

    def systems_section(self) -> str:
        d = self.data
        conf = f"{100 * d['bootstrap']['confidence']:g}% " if d["bootstrap"] else ""
        out = ['<section id="systems"><h2>Systems</h2>\n',
               self.filter_box("t-systems", "systems"),
               '<table class="sortable" id="t-systems"><thead><tr>'
               '<th class="l" data-type="num">system</th><th data-type="num">tasks</th>'
               '<th data-type="num">coverage %</th>'
               f'<th data-type="num">{conf}interval</th>'
               '<th data-type="num">pooled %</th><th data-type="num">exact %</th>'
               '<th data-type="num">synonym %</th><th data-type="num">missed words / task</th>'
               '<th data-type="num">added words / task</th></tr></thead><tbody>\n']
        for r in d["systems"]:
            ci = "" if r["ci_low"] is None else f"{_pct(r['ci_low'])}&#8211;{_pct(r['ci_high'])}"
            out.append(
                f'<tr data-system="{_e(r["system"])}">'
                f'<td class="l" data-v="{self.system_rank[r["system"]]}">'
                f'<a href="{_e(self.system_href(r["system"]))}">{_e(r["system"])}</a></td>'
                f'<td>{r["tasks"]}</td>'
                f'<td class="coverage" data-v="{_num(r["coverage"])}">{_pct(r["coverage"])}</td>'
                f'<td data-v="{_num(r["ci_low"])}">{ci}</td>'
                f'<td class="covered" data-v="{_num(r["pooled_coverage"])}">{_pct(r["pooled_coverage"])}</td>'
                f'<td class="exact" data-v="{_num(r["exact_share"])}">{_pct(r["exact_share"])}</td>'
                f'<td class="synonym" data-v="{_num(r["synonym_share"])}">{_pct(r["synonym_share"])}</td>'
                f'<td class="missed" data-v="{_num(r["missed_words_per_task"])}">'
                f'{_fmt(r["missed_words_per_task"])}</td>'
                f'<td class="added" data-v="{_num(r["added_words_per_task"])}">'
                f'{_fmt(r["added_words_per_task"])}</td></tr>\n')
        out.append("</tbody></table>\n")
        out.append('<p class="note">coverage: mean over the system\'s tasks of covered / reference topic '
                   'words (pooled over each task\'s references; equals the ROUGE-TopicUniq recall with '
                   'multi_reference pooled). pooled: the same ratio over all tasks at once. '
                   'exact / synonym: shares of the reference topic words covered each way. '
                   'missed / added words per task: distinct words per task.</p>\n</section>\n')
        return "".join(out)

    def words_tables(self, rows: Sequence[dict[str, Any]], status: str, prefix: str,
                     limit: int | None) -> str:
        by_family: dict[str, list] = {}
        for r in rows:
            by_family.setdefault(r["family"], []).append(r)
        if not by_family:
            return f'<p class="note">No topic word was {status}.</p>\n'
        out = ['<div class="families">\n']
        for fam in sorted(by_family, key=family_sort_key):
            tid = f"{prefix}-{status}-{fam.lower() or 'x'}"
            shown = by_family[fam][:limit] if limit is not None else by_family[fam]
            out.append(f'<div><h3 id="{tid}-h">{_e(family_label(fam).capitalize())} '
                       f'<span class="stats">{_e(fam)}</span></h3>\n'
                       f'<table class="sortable" id="{tid}"><thead><tr><th class="l">topic</th>'
                       '<th data-type="num">tasks</th><th data-type="num">share %</th>'  # the glossary's names
                       '<th data-type="num">occurs</th><th data-type="num">rate %</th></tr></thead><tbody>\n')
            for r in shown:
                out.append(f'<tr><td class="l">{_e(r["topic"])}</td><td>{r["tasks"]}</td>'
                           f'<td data-v="{_num(r["share"])}">{_pct(r["share"])}</td>'
                           f'<td>{r["occurs"]}</td><td data-v="{_num(r["rate"])}">{_pct(r["rate"], 0)}</td></tr>\n')
            out.append("</tbody></table></div>\n")
        out.append("</div>\n")
        return "".join(out)

    def words_section(self, status: str) -> str:
        title = "Most-missed topic words" if status == "missed" else "Most-added topic words"
        what = ("reference topic words the systems did not cover (in any reference that has them)"
                if status == "missed" else "system topic words that match no reference topic word")
        out = [f'<section id="{status}"><h2>{title}</h2>\n'
               f'<p class="note">All systems: {what}; counted in (task, system) pairs. Per system: see '
               f'the system pages ({", ".join(self._system_links())}). Top {self.w.html_top} per family '
               f'here; the topics CSV has more.</p>\n']
        out.append(self.words_tables(self.data[status]["all"], status, "all", self.w.html_top))
        out.append("</section>\n")
        return "".join(out)

    def _system_links(self) -> list[str]:
        return [f'<a href="{_e(self.system_href(s))}">{_e(s)}</a>' for s in self.systems]

    def contrast_section(self) -> str:
        out = ['<section id="contrast"><h2>Contrasts</h2>\n']
        if not self.data["contrast"]:
            out.append('<p class="note">No contrast (fewer than two systems).</p>\n')
        for k, c in enumerate(self.data["contrast"]):
            a, b = c["system_a"], c["system_b"]
            out.append(f'<h3 id="contrast-{k + 1}">{_e(a)} vs {_e(b)} '
                       f'<span class="stats">{_n(c["tasks"], "shared task")}</span></h3>\n<div class="twocol">\n')
            for key, x, y in (("a_covers_b_misses", a, b), ("b_covers_a_misses", b, a)):
                rows = c[key][: self.w.html_top]
                tid = f"t-contrast-{k + 1}-{'ab' if key.startswith('a_') else 'ba'}"
                out.append(f'<div><p><strong>{_e(x)}</strong> covers, <strong>{_e(y)}</strong> misses: '
                           f'{c[key + "_total"]} words over the tasks</p>\n'
                           f'<table class="sortable" id="{tid}"><thead><tr><th class="l">topic</th>'
                           '<th class="l">family</th><th data-type="num">tasks</th>'
                           '<th data-type="num">share %</th></tr></thead><tbody>\n')
                for r in rows:
                    out.append(f'<tr><td class="l">{_e(r["topic"])}</td><td class="l">{_e(r["family"])}</td>'
                               f'<td>{r["tasks"]}</td><td data-v="{_num(r["share"])}">{_pct(r["share"])}</td></tr>\n')
                out.append("</tbody></table></div>\n")
            out.append("</div>\n")
        out.append("</section>\n")
        return "".join(out)

    def tasks_section(self) -> str:
        out = ['<section id="tasks"><h2>Tasks</h2>\n',
               '<p class="note">One row per task, task names in natural order (task2 before task10). '
               'Coverage of the task\'s systems: mean, lowest, highest.</p>\n',
               self.filter_box("t-tasks", "tasks"),
               '<table class="sortable" id="t-tasks"><thead><tr><th class="l" data-type="num">task</th>'
               '<th data-type="num">systems</th><th data-type="num">references</th>'
               '<th data-type="num">reference topic words</th><th data-type="num">mean %</th>'
               '<th data-type="num">min %</th><th data-type="num">max %</th>'
               '<th class="l">best</th><th class="l">worst</th></tr></thead><tbody>\n']
        for i, r in enumerate(self.data["tasks"]):
            out.append(
                f'<tr><td class="l" data-v="{i}"><a href="{_e(self.task_href(r["task"]))}">{_e(r["task"])}</a></td>'
                f'<td>{r["systems"]}</td><td>{r["references"]}</td><td>{r["reference_topics"]}</td>'
                f'<td data-v="{_num(r["mean_coverage"])}">{_pct(r["mean_coverage"])}</td>'
                f'<td data-v="{_num(r["min_coverage"])}">{_pct(r["min_coverage"])}</td>'
                f'<td data-v="{_num(r["max_coverage"])}">{_pct(r["max_coverage"])}</td>'
                f'<td class="l">{_e(r["best_system"])}</td><td class="l">{_e(r["worst_system"])}</td></tr>\n')
        out.append("</tbody></table>\n</section>\n")
        return "".join(out)

    def about_section(self) -> str:
        d = self.data
        out = ['<section id="about"><h2>Definitions and files</h2>\n<dl>\n']
        for k, v in d["definitions"].items():
            out.append(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>\n")
        out.append("</dl>\n")
        out.append(self.legend())
        if self.split:
            base = self.w_html_name[: -len(".html")] if self.w_html_name.endswith(".html") else self.w_html_name
            files = [f"{base}.csv", f"{base}_systems.csv", f"{base}_topics.csv", f"{base}_contrast.csv",
                     f"{base}_summary.json"]
            out.append("<p>Files: " + ", ".join(f'<a href="{_e(f)}">{_e(f)}</a>' for f in files)
                       + f"; the task and system pages are in <code>{_e(self.folder.name)}/</code>.</p>\n")
        out.append("</section>\n")
        return "".join(out)

    # -- a task --------------------------------------------------------------
    def task_body(self, task: str, from_folder: bool) -> str:
        records = sorted(self.w._records(task), key=lambda rec: natural_key(rec[1]))
        tid = self.task_id[task]
        # the task's distinct references, in order of first appearance
        refs: list[tuple] = []
        ref_index: dict[tuple[str, str], int] = {}
        for rec in records:
            for ref in rec[7]:
                key = (ref[0], ref[1])
                if key not in ref_index:
                    ref_index[key] = len(refs)
                    refs.append(ref)
        topics = set()
        for rec in records:
            topics.update(t[0] for t in rec[6])
        out = [f'<div class="task" id="{tid}">\n<h2>Task {_e(task)}</h2>\n'
               f'<p class="meta">{_n(len(records), "system")}, {_n(len(refs), "reference")}, '
               f'{len(topics)} distinct reference topic words.</p>\n']
        out.append(self.legend())
        # systems table
        table_id = f"{tid}-table"
        out.append(f'<h3>Systems</h3>\n<table class="sortable" id="{table_id}"><thead><tr>'
                   '<th class="l" data-type="num">system</th><th data-type="num">coverage %</th>'
                   '<th data-type="num">covered</th><th data-type="num">reference topic words</th>'
                   '<th data-type="num">exact</th><th data-type="num">synonym</th>'
                   '<th data-type="num">missed words</th><th data-type="num">added words</th></tr></thead><tbody>\n')
        for rec in records:
            system, counts = rec[1], rec[2]
            total = counts["reference"]
            covered = counts["exact"] + counts["synonym"]
            cov = covered / total if total else None
            missed_words = sum(1 for t in rec[6] if t[4] == "missed")
            added_words = sum(1 for t in rec[4] if t[4] == "added")
            out.append(f'<tr><td class="l" data-v="{self.system_rank[system]}">'
                       f'<a href="#{tid}-{self.system_id[system]}">{_e(system)}</a></td>'
                       f'<td data-v="{_num(cov)}">{_pct(cov)}</td><td>{covered}</td><td>{total}</td>'
                       f'<td>{counts["exact"]}</td><td>{counts["synonym"]}</td>'
                       f'<td>{missed_words}</td><td>{added_words}</td></tr>\n')
        out.append("</tbody></table>\n")
        # references, once
        out.append('<h3>References</h3>\n<p class="note">Topic words are underlined; '
                   '"show in references" on a system colours them by that system\'s coverage. '
                   'Shown: <span class="ref-system">none</span>.</p>\n')
        for k, (name, text, rtopics, _, spans, _) in enumerate(refs):
            marks = [(s, e, f'class="topic" data-i="{i}"') for s, e, i in spans]
            lead = " ".join(text.split())
            cut = len(lead) > 90
            if cut:
                lead = lead[:90].rsplit(" ", 1)[0]
            out.append(f'<details class="ref"><summary>{_e(name)} &#183; {len(rtopics)} topic words: '
                       f'<span class="lead">{_e(lead)}{" &#8230;" if cut else ""}</span>'
                       f'</summary><p class="text">{_marked(text, marks)}</p></details>\n')
        # the summaries, each once
        out.append("<h3>System summaries</h3>\n")
        for rec in records:
            system, counts, candidate, ctopics, cspans, rtopics, prefs = rec[1:8]
            total = counts["reference"]
            covered = counts["exact"] + counts["synonym"]
            statuses = [""] * len(refs)
            for ref in prefs:
                statuses[ref_index[(ref[0], ref[1])]] = ref[3]
            nrefs = len(prefs)
            marks = []
            for s, e, i in cspans:
                _, word, upos, n, status = ctopics[i]
                note = f"{status} in {n}/{_n(nrefs, 'reference')}" if status != "added" else "added"
                marks.append((s, e, f'class="{status}" title="{_e(note)}"'))
            missed = [t for t in rtopics if t[4] == "missed"]
            groups: dict[str, list] = {}
            for t in missed:
                groups.setdefault(t[2], []).append(t)
            chips = "; ".join(
                f'<span class="fam">{_e(family_label(fam))}</span> '
                + "".join(f'<span class="chip">{_e(t[1])}<sup>{t[3]}</sup></span>'
                          for t in sorted(groups[fam], key=lambda t: (-t[3], natural_key(t[1]))))
                for fam in sorted(groups, key=family_sort_key))
            pct = _pct(covered / total) + "%" if total else "n/a"
            out.append(
                f'<section class="sys" id="{tid}-{self.system_id[system]}" data-system="{_e(system)}" '
                f'data-st="{_e("|".join(statuses))}">\n'
                f'<h3><span><a href="{_e(self.system_href(system, from_folder))}">{_e(system)}</a></span>'
                f'<span class="stats">covered {covered}/{total} ({pct}): {counts["exact"]} exact, '
                f'{counts["synonym"]} synonym, {counts["missed"]} missed, {counts["added"]} added '
                f'(over {_n(nrefs, "reference")})</span>'
                f'<button class="show" type="button">show in references</button></h3>\n'
                f'<p class="text">{_marked(candidate, marks)}</p>\n'
                f'<p class="missed-words" title="superscript: references that have the word">'
                f'missed ({len(missed)}): {chips or "none"}</p>\n</section>\n')
        out.append("</div>\n")
        return _scrolling("".join(out))

    # -- a system ------------------------------------------------------------
    def system_body(self, system: str, from_folder: bool) -> str:
        d = self.data
        row = next(r for r in d["systems"] if r["system"] == system)
        sid = self.system_id[system]
        out = [f'<div class="system" id="{sid}">\n<h2>System {_e(system)}</h2>\n']
        ci = ""
        if row["ci_low"] is not None:
            ci = f" ({100 * d['bootstrap']['confidence']:g}% interval {_pct(row['ci_low'])}&#8211;{_pct(row['ci_high'])}%)"
        out.append(f'<p>Coverage {_pct(row["coverage"])}%{ci} over {_n(row["tasks"], "task")}; pooled '
                   f'{_pct(row["pooled_coverage"])}%; {_fmt(row["missed_words_per_task"])} missed and '
                   f'{_fmt(row["added_words_per_task"])} added words per task.</p>\n')
        for status in ("missed", "added"):
            out.append(f"<h3>Most-{status} topic words</h3>\n")
            out.append(self.words_tables(d[status]["systems"][system], status, sid, self.w.html_top))
        out.append(f'<h3>Tasks</h3>\n{self.filter_box(sid + "-tasks", "tasks")}'
                   f'<table class="sortable" id="{sid}-tasks"><thead><tr><th class="l" data-type="num">task</th>'
                   '<th data-type="num">coverage %</th><th data-type="num">covered</th>'
                   '<th data-type="num">reference topic words</th><th data-type="num">missed words</th>'
                   '<th data-type="num">added words</th><th class="l">missed (most references first)</th>'
                   '</tr></thead><tbody>\n')
        for i, task in enumerate(self.tasks):
            p = self.stats.pairs.get((task, system))
            if p is None:
                continue
            total = p.counts["reference"]
            covered = p.counts["exact"] + p.counts["synonym"]
            words = sorted(p.missed_words, key=lambda w: (-w[1], natural_key(w[0])))[:8]
            more = " &#8230;" if len(p.missed_words) > 8 else ""
            out.append(f'<tr><td class="l" data-v="{i}"><a href="{_e(self.task_href(task, system, from_folder))}">'
                       f'{_e(task)}</a></td><td data-v="{_num(p.coverage)}">{_pct(p.coverage)}</td>'
                       f'<td>{covered}</td><td>{total}</td><td>{len(p.missed)}</td><td>{p.added_words}</td>'
                       f'<td class="l">{_e(", ".join(w for w, _ in words))}{more}</td></tr>\n')
        out.append("</tbody></table>\n</div>\n")
        return _scrolling("".join(out))

    # -- writing -------------------------------------------------------------
    def crumbs(self, prev: str | None, nxt: str | None, up_label: str) -> str:
        parts = [f'<a href="{_e(self.index_href())}">{_e(up_label)}</a>']
        if prev:
            parts.append(f'<a href="{_e(prev)}" rel="prev">&#8592; previous</a>')
        if nxt:
            parts.append(f'<a href="{_e(nxt)}" rel="next">next &#8594;</a>')
        return '<nav class="crumbs">' + " &#183; ".join(parts) + "</nav>\n"

    def write_single(self, out: IO[str]) -> None:
        out.write(self.head(self.title, inline=True))
        out.write(self.index_body())
        out.write('<section id="task-pages"><h2>Task details</h2>\n')
        budget = SINGLE_PAGE_DETAILS
        shown = 0
        for task in self.tasks:
            body = self.task_body(task, from_folder=False)
            if len(body) > budget:
                break
            budget -= len(body)
            out.write(body)
            shown += 1
        for task in self.tasks[shown:]:  # links from the tables still land on an anchor
            out.write(f'<div id="{self.task_id[task]}"></div>\n')
        if shown < len(self.tasks):
            out.write(f'<p class="note" id="details-cut">{shown} of {len(self.tasks)} tasks are shown in '
                      f'detail: a single-page report keeps its details under '
                      f'{SINGLE_PAGE_DETAILS / 1e6:g} MB. The split report (an index page and one '
                      f'page per task) shows every task; the per-pair CSV has every word.</p>\n')
        out.write('</section>\n<section id="system-pages"><h2>System details</h2>\n')
        for system in self.systems:
            body = self.system_body(system, from_folder=False)
            if len(body) > budget:
                out.write(f'<div id="{self.system_id[system]}"><p class="note">System {_e(system)}: '
                          f'see the split report.</p></div>\n')
                continue
            budget -= len(body)
            out.write(body)
        out.write("</section>\n")
        out.write(self.tail(inline=True))

    def write_split(self, out: IO[str], open_file) -> list[Path]:
        folder = self.folder
        written = []
        self.w_html_name = folder.name[: -len("_files")] + ".html"
        out.write(self.head(self.title, inline=True))
        out.write(self.index_body())
        out.write(self.tail(inline=True))
        for name, text in (("report.css", CSS + "\n"), ("report.js", JS + "\n")):
            with open_file(folder / name) as f:
                f.write(text)
            written.append(folder / name)
        up = f"index: {self.title}"
        for i, task in enumerate(self.tasks):
            prev = f"{self.task_id[self.tasks[i - 1]]}.html" if i else None
            nxt = f"{self.task_id[self.tasks[i + 1]]}.html" if i + 1 < len(self.tasks) else None
            path = folder / f"{self.task_id[task]}.html"
            with open_file(path) as f:
                f.write(self.head(f"Task {task} - {self.title}", inline=False))
                f.write(self.crumbs(prev, nxt, up))
                f.write(self.task_body(task, from_folder=True))
                f.write(self.crumbs(prev, nxt, up))
                f.write(self.tail(inline=False))
            written.append(path)
        for i, system in enumerate(self.systems):
            prev = f"{self.system_id[self.systems[i - 1]]}.html" if i else None
            nxt = f"{self.system_id[self.systems[i + 1]]}.html" if i + 1 < len(self.systems) else None
            path = folder / f"{self.system_id[system]}.html"
            with open_file(path) as f:
                f.write(self.head(f"System {system} - {self.title}", inline=False))
                f.write(self.crumbs(prev, nxt, up))
                f.write(self.system_body(system, from_folder=True))
                f.write(self.tail(inline=False))
            written.append(path)
        return written


def _scrolling(markup: str) -> str:
    """Each table in a box that scrolls sideways when the table is wider than the page
    (user text is escaped, so the tags found are ours)."""
    return (markup.replace('<table class="sortable"', '<div class="tw"><table class="sortable"')
            .replace("</tbody></table>", "</tbody></table></div>"))


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1f}"


__all__ = [
    "CSV_HEADER",
    "STATUSES",
    "TASK_ORDERS",
    "PairCoverage",
    "ReferenceCoverage",
    "TopicCoverage",
    "TopicReportWriter",
    "assign",
    "csv_path_for",
    "report_paths",
    "report_topics",
]
