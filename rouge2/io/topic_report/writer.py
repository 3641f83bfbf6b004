"""The topic-coverage report's writer: the per-pair CSV, the dataset-level CSV and JSON, the pages.

:class:`TopicReportWriter` streams the per-pair rows, spools what the pages
need, computes the analysis (:mod:`rouge2.stats.coverage`) and has the pages
written (:mod:`rouge2.io.topic_report.pages`).

Files, for a report named ``<name>`` (default ``topic_coverage``):

* ``<name>.csv`` - one row per task, system, reference and topic word:
  ``task,system,reference,topic,status,matched_with,stem,upos,aspects``
  (the word's stem, its universal part of speech, and the aspects of the
  run's lexicon it is a word of, ``|``-joined; streamed by
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
import json
import pickle
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from rouge2.errors import UserError
from rouge2.io.topic_report.pages import write_single, write_split
from rouge2.io.topic_report.site import Record, Site
from rouge2.measures.base import MEASURES
from rouge2.measures.coverage import STATUSES, PairCoverage
from rouge2.stats.coverage import BootstrapSettings, CoverageStats, PairSummary

CSV_HEADER = ("task", "system", "reference", "topic", "status", "matched_with", "stem", "upos", "aspects")
SYSTEMS_HEADER = ("system", "tasks", "tasks_without_topics", "coverage", "ci_low", "ci_high",
                  "pooled_coverage", "exact_share", "synonym_share", "reference_topics", "covered",
                  "exact", "synonym", "missed", "added", "missed_words_per_task",
                  "added_words_per_task")
TOPICS_HEADER = ("scope", "system", "status", "family", "topic", "stem", "tasks", "share",
                 "occurs", "rate")
CONTRAST_HEADER = ("system_a", "system_b", "direction", "family", "topic", "stem", "tasks", "share")
TASK_ORDERS = ("natural", "input", "lexical")
#: what the report's numbers mean (the summary JSON and the index page carry them)
DEFINITIONS = {
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
}


# ---------------------------------------------------------------------------
# the selection


def report_topics(cfg) -> str:
    """The topic spec of the report: ``outputs.topic_report_topics`` if set,
    else the tags of the run's first topic measure."""
    spec = getattr(cfg.outputs, "topic_report_topics", None)
    if spec:
        return spec
    for m in cfg.measures:
        tags = MEASURES.capability(m, "topic_tags")
        if tags is not None:
            return tags(MEASURES.canonical(m))
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


def _csv_value(x: Any) -> str:
    if x is None:
        return ""
    if isinstance(x, float):
        return repr(x)
    return str(x)



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
      auxiliaries are topic words (``TopicCoverage.auxiliaries``);
    * ``variant`` - the variant of a run with variants the report shows
      (in the summary JSON; the title names it too);
    * ``links`` - ``(label, href)`` of related pages the index links to
      (the run's aspect heatmap ``aspects.html``).
    """

    def __init__(self, csv_handle: IO[str], selection: str, synonyms: bool,
                 title: str | None = None, *, resamples: int = 1000, confidence: float = 0.95,
                 seed: int = 0, contrast: Sequence[Sequence[str]] | None = None,
                 top: int | None = 50, html_top: int = 20, task_order: str = "natural",
                 auxiliaries: bool = False, variant: str | None = None,
                 links: Sequence[tuple[str, str]] = ()):
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
        # open until finish() or close(): the records of every pair, read back task by task
        self._spool = tempfile.TemporaryFile("w+b")  # noqa: SIM115
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
        self.variant = variant
        self.links = [(str(label), str(href)) for label, href in links]
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
        for (_task, system), p in self.stats.pairs.items():
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

    def _records(self, task: str) -> list[Record]:
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
        per_system_task: dict[str, list[PairSummary]] = {}
        for (_task, s), p in st.pairs.items():
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
            "variant": self.variant,
            "links": [list(link) for link in self.links],
            "counts": {"tasks": len(st.task_first), "systems": len(st.system_first),
                       "pairs": len(st.pairs)},
            "bootstrap": None if self.bootstrap is None else {
                "resamples": self.bootstrap.resamples, "confidence": self.bootstrap.confidence,
                "seed": self.bootstrap.seed,
                "method": "percentile interval of the mean coverage, tasks resampled with replacement"},
            "definitions": dict(DEFINITIONS),
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
            if open_file is None or html_path is None:
                write_single(self._site(data, None), out)
                return []
            paths = report_paths(Path(html_path))
            written = [paths["systems_csv"], paths["topics_csv"], paths["contrast_csv"],
                       paths["summary_json"]]
            self._write_tables(data, open_file, paths)
            written += write_split(self._site(data, paths["folder"]), out, open_file)
            return written
        finally:
            self.close()

    def _site(self, data: dict[str, Any], folder: Path | None) -> Site:
        return Site(data, self.stats, self._records, self.title, self.html_top, folder)

    def _write_tables(self, data: dict[str, Any], open_file: Callable[[Path], IO[str]],
                      paths: dict[str, Path]) -> None:
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
