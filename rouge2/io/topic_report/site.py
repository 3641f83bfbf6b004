"""What every page of one report shares: the analysis, the page ids, the links and the page frame.

A split report (``folder`` given) is an index page beside a folder of task
and system pages; a single-page report holds everything, and its links are
anchors.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rouge2.io.topic_report.markup import CSS, JS, esc
from rouge2.stats.coverage import CoverageStats

#: one (task, system) pair as the writer spools it: task, system, counts, candidate,
#: candidate topics, candidate spans, reference topics, references
#: ``(name, text, topics, statuses, spans, counts)``
Record = tuple[Any, ...]


class Site:
    """The pages' shared state: ``data`` is :meth:`TopicReportWriter.analysis`,
    ``records(task)`` the task's spooled pairs."""

    def __init__(self, data: dict[str, Any], stats: CoverageStats, records: Callable[[str], list[Record]],
                 title: str | None, html_top: int, folder: Path | None = None):
        self.data = data
        self.stats = stats
        self.records = records
        self.run_title = title
        self.html_top = html_top
        self.folder = folder
        self.tasks = [r["task"] for r in data["tasks"]]
        self.systems = [r["system"] for r in data["systems"]]
        wt = max(4, len(str(len(self.tasks))))
        ws = max(2, len(str(len(self.systems))))
        self.task_id = {t: f"task-{i + 1:0{wt}d}" for i, t in enumerate(self.tasks)}
        self.system_id = {s: f"system-{i + 1:0{ws}d}" for i, s in enumerate(self.systems)}
        self.system_rank = {s: i for i, s in enumerate(self.systems)}
        #: the index page's file name (``<name>_files`` holds the other pages)
        self.index_name = "index.html" if folder is None else folder.name[: -len("_files")] + ".html"

    @property
    def split(self) -> bool:
        return self.folder is not None

    # -- links -------------------------------------------------------------
    def task_href(self, task: str, system: str | None = None, from_folder: bool = False) -> str:
        tid = self.task_id[task]
        anchor = f"#{tid}-{self.system_id[system]}" if system is not None else ""
        if self.folder is None:
            return anchor or f"#{tid}"
        prefix = "" if from_folder else f"{self.folder.name}/"
        return f"{prefix}{tid}.html{anchor}"

    def system_href(self, system: str, from_folder: bool = False) -> str:
        sid = self.system_id[system]
        if self.folder is None:
            return f"#{sid}"
        prefix = "" if from_folder else f"{self.folder.name}/"
        return f"{prefix}{sid}.html"

    def index_href(self, anchor: str = "") -> str:
        if self.folder is None:
            return f"#{anchor}" if anchor else "#top"
        return f"../{self.index_name}" + (f"#{anchor}" if anchor else "")

    def system_links(self) -> list[str]:
        return [f'<a href="{esc(self.system_href(s))}">{esc(s)}</a>' for s in self.systems]

    # -- page frame ----------------------------------------------------------
    @property
    def title(self) -> str:
        return "Topic coverage" + (f": {self.run_title}" if self.run_title else "")

    @staticmethod
    def head(title: str, inline: bool) -> str:
        style = f"<style>\n{CSS}\n</style>" if inline else '<link rel="stylesheet" href="report.css"/>'
        return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8"/>\n'
                '<meta name="viewport" content="width=device-width, initial-scale=1"/>\n'
                f"<title>{esc(title)}</title>\n{style}\n</head>\n<body>\n")

    @staticmethod
    def tail(inline: bool) -> str:
        script = f"<script>\n{JS}\n</script>" if inline else '<script src="report.js"></script>'
        return f"{script}\n</body>\n</html>\n"

    def crumbs(self, prev: str | None, nxt: str | None, up_label: str) -> str:
        parts = [f'<a href="{esc(self.index_href())}">{esc(up_label)}</a>']
        if prev:
            parts.append(f'<a href="{esc(prev)}" rel="prev">&#8592; previous</a>')
        if nxt:
            parts.append(f'<a href="{esc(nxt)}" rel="next">next &#8594;</a>')
        return '<nav class="crumbs">' + " &#183; ".join(parts) + "</nav>\n"
