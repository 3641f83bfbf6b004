"""Writing the pages: everything in one page, or an index page beside a folder of pages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import IO

from rouge2.io.topic_report.detail_pages import system_body, task_body
from rouge2.io.topic_report.index_page import index_body
from rouge2.io.topic_report.markup import CSS, JS, esc
from rouge2.io.topic_report.site import Site

#: characters of task and system details a single-page report holds at most (finish(html)
#: alone; the split report has no such limit)
SINGLE_PAGE_DETAILS = 1_500_000


def write_single(site: Site, out: IO[str]) -> None:
    """The index, then task and system details while they fit in :data:`SINGLE_PAGE_DETAILS`."""
    out.write(site.head(site.title, inline=True))
    out.write(index_body(site))
    out.write('<section id="task-pages"><h2>Task details</h2>\n')
    budget = SINGLE_PAGE_DETAILS
    shown = 0
    for task in site.tasks:
        body = task_body(site, task, from_folder=False)
        if len(body) > budget:
            break
        budget -= len(body)
        out.write(body)
        shown += 1
    for task in site.tasks[shown:]:  # links from the tables still land on an anchor
        out.write(f'<div id="{site.task_id[task]}"></div>\n')
    if shown < len(site.tasks):
        out.write(f'<p class="note" id="details-cut">{shown} of {len(site.tasks)} tasks are shown in '
                  f'detail: a single-page report keeps its details under '
                  f'{SINGLE_PAGE_DETAILS / 1e6:g} MB. The split report (an index page and one '
                  f'page per task) shows every task; the per-pair CSV has every word.</p>\n')
    out.write('</section>\n<section id="system-pages"><h2>System details</h2>\n')
    for system in site.systems:
        body = system_body(site, system, from_folder=False)
        if len(body) > budget:
            out.write(f'<div id="{site.system_id[system]}"><p class="note">System {esc(system)}: '
                      f'see the split report.</p></div>\n')
            continue
        budget -= len(body)
        out.write(body)
    out.write("</section>\n")
    out.write(site.tail(inline=True))


def write_split(site: Site, out: IO[str], open_file: Callable[[Path], IO[str]]) -> list[Path]:
    """The index page to ``out``; through ``open_file`` the stylesheet, the script and a
    page per task and per system in the site's folder. Returns the paths written."""
    folder = site.folder
    if folder is None:
        raise ValueError("write_split: the site has no folder")
    written = []
    out.write(site.head(site.title, inline=True))
    out.write(index_body(site))
    out.write(site.tail(inline=True))
    for name, text in (("report.css", CSS + "\n"), ("report.js", JS + "\n")):
        with open_file(folder / name) as f:
            f.write(text)
        written.append(folder / name)
    up = f"index: {site.title}"
    for i, task in enumerate(site.tasks):
        prev = f"{site.task_id[site.tasks[i - 1]]}.html" if i else None
        nxt = f"{site.task_id[site.tasks[i + 1]]}.html" if i + 1 < len(site.tasks) else None
        path = folder / f"{site.task_id[task]}.html"
        with open_file(path) as f:
            f.write(site.head(f"Task {task} - {site.title}", inline=False))
            f.write(site.crumbs(prev, nxt, up))
            f.write(task_body(site, task, from_folder=True))
            f.write(site.crumbs(prev, nxt, up))
            f.write(site.tail(inline=False))
        written.append(path)
    for i, system in enumerate(site.systems):
        prev = f"{site.system_id[site.systems[i - 1]]}.html" if i else None
        nxt = f"{site.system_id[site.systems[i + 1]]}.html" if i + 1 < len(site.systems) else None
        path = folder / f"{site.system_id[system]}.html"
        with open_file(path) as f:
            f.write(site.head(f"System {system} - {site.title}", inline=False))
            f.write(site.crumbs(prev, nxt, up))
            f.write(system_body(site, system, from_folder=True))
            f.write(site.tail(inline=False))
        written.append(path)
    return written
