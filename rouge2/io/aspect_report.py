"""The per-aspect outputs of a run: ``aspects.csv`` and the heatmap page ``aspects.html``.

``aspects.csv`` has one row per (variant, system, aspect) with the columns of
:data:`rouge2.stats.aspects.CSV_COLUMNS` (definitions in docs/aspects.md).

``aspects.html`` is one self-contained page (no network, no external file):
per variant a heatmap of systems x aspects, each cell the mean coverage with
its bootstrap interval and the number of tasks, coloured by coverage; a click
on a cell opens its drill-down: the words the system most often missed and
covered, and one row per task with the covered, missed and added words.
"""

from __future__ import annotations

import csv
import html
from collections.abc import Mapping, Sequence
from typing import IO, Any

from rouge2.stats.aspects import CSV_COLUMNS, AspectStats

_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.6em 0}th,td{border:1px solid #ccc;padding:.25em .5em}
th{background:#f3f3f3;text-align:left}td.n{text-align:right}
td.cell{text-align:center;min-width:7.5em}td.cell a{color:inherit;text-decoration:none;display:block}
small{color:#555}.missed{color:#a40000}.covered{color:#1a6b1a}.added{color:#8a6d00}
details{margin:.3em 0}summary{cursor:pointer;font-weight:600}
.note{color:#555;max-width:60em}
"""


def write_aspects_csv(out: IO[str], rows: Sequence[Mapping[str, Any]]) -> None:
    """``aspects.csv``: one row per (variant, system, aspect); empty cells for
    values that do not exist (an aspect no reference mentions)."""
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for r in rows:
        w.writerow(["" if r[c] is None else r[c] for c in CSV_COLUMNS])


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.1f}"


def _colour(v: float | None) -> str:
    """Background of a heatmap cell: white (0) to green (1); grey without a value."""
    if v is None:
        return "#eeeeee"
    v = min(max(v, 0.0), 1.0)
    r = int(255 - 155 * v)
    g = int(255 - 55 * v)
    b = int(255 - 155 * v)
    return f"#{r:02x}{g:02x}{b:02x}"


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _heatmap(stats: AspectStats, rows: Sequence[Mapping[str, Any]], variant: str, anchor: str) -> list[str]:
    by = {(r["system"], r["aspect"]): r for r in rows if r["variant"] == variant}
    systems = list(dict.fromkeys(r["system"] for r in rows if r["variant"] == variant))
    out = ["<table><tr><th>system</th>" + "".join(f"<th>{_e(a)}</th>" for a in stats.aspects) + "</tr>"]
    for i, s in enumerate(systems):
        cells = []
        for j, a in enumerate(stats.aspects):
            r = by[(s, a)]
            ci = "" if r["ci_low"] is None else f"<br><small>[{_pct(r['ci_low'])}, {_pct(r['ci_high'])}]</small>"
            cells.append(f"<td class=cell style=\"background:{_colour(r['coverage'])}\"><a href=\"#{anchor}-{i}-{j}\" "
                         f"title=\"mention recall {_pct(r['mention_recall'])}%, precision "
                         f"{_pct(r['mention_precision'])}%\">{_pct(r['coverage'])}{ci}"
                         f"<br><small>n {r['tasks']}</small></a></td>")
        out.append(f"<tr><th>{_e(s)}</th>{''.join(cells)}</tr>")
    out.append("</table>")
    return out


def _words(items: Sequence[tuple[str, int]], cls: str) -> str:
    if not items:
        return "<small>none</small>"
    return ", ".join(f"<span class={cls}>{_e(w)}</span><sup>{n}</sup>" for w, n in items)


def _drill(stats: AspectStats, variant: str | None, system: str, aspect: str, row: Mapping[str, Any],
           anchor: str, top: int) -> list[str]:
    out = [f"<details id=\"{anchor}\"><summary>{_e(system)} &middot; {_e(aspect)}: coverage "
           f"{_pct(row['coverage'])}% over {row['tasks']} tasks</summary>",
           f"<p>most missed: {_words(stats.words(variant, system, aspect, 'missed', top), 'missed')}</p>",
           f"<p>most covered: {_words(stats.words(variant, system, aspect, 'covered', top), 'covered')}</p>",
           "<table><tr><th>task</th><th>coverage</th><th>covered</th><th>missed</th><th>added</th></tr>"]
    for task in stats.tasks_of(variant, system):
        c = stats.pairs[variant][(task, system)].aspects.get(aspect)
        if c is None or not c.ref_mentions:
            continue
        out.append(f"<tr><td>{_e(task)}</td><td class=n>{_pct(c.coverage)}</td>"
                   f"<td class=covered>{_e(', '.join(c.covered))}</td><td class=missed>{_e(', '.join(c.missed))}</td>"
                   f"<td class=added>{_e(', '.join(c.added))}</td></tr>")
    out.append("</table></details>")
    return out


def write_aspect_report(out: IO[str], stats: AspectStats, rows: Sequence[Mapping[str, Any]], *,
                        title: str | None = None, settings: Mapping[str, Any] | None = None,
                        confidence: float | None = None, top: int = 15) -> None:
    """The heatmap page (see the module docstring)."""
    name = f"Aspect coverage: {title}" if title else "Aspect coverage"
    parts = [f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>{_e(name)}</title>",
             f"<style>{_CSS}</style></head><body><h1>{_e(name)}</h1>",
             "<p class=note>Each cell: the system's mean coverage of the aspect in percent (covered / "
             "reference aspect words, over the tasks whose references mention the aspect), "
             + (f"its {confidence * 100:g}% bootstrap interval over tasks, " if confidence else "")
             + "and n, the number of those tasks. Hover for mention recall and precision; click for "
               "the words and the tasks. Definitions: rouge2 docs aspects.</p>"]
    if settings:
        parts.append("<p><small>" + "; ".join(f"{_e(k)}: {_e(v)}" for k, v in settings.items())
                     + "</small></p>")
    if stats.empty:
        parts.append(f"<p class=note>Aspects with no word after the analysis (never mentioned): "
                     f"{_e(', '.join(stats.empty))}</p>")
    for v_index, variant in enumerate(stats.variants):
        label = "" if variant is None else variant
        if label:
            parts.append(f"<h2>variant {_e(label)}</h2>")
        anchor = f"v{v_index}"
        parts += _heatmap(stats, rows, label, anchor)
        by = {(r["system"], r["aspect"]): r for r in rows if r["variant"] == label}
        systems = stats.systems(variant)
        for i, s in enumerate(systems):
            for j, a in enumerate(stats.aspects):
                parts += _drill(stats, variant, s, a, by[(s, a)], f"{anchor}-{i}-{j}", top)
    parts.append("<script>addEventListener('hashchange',()=>{const d=document.getElementById("
                 "location.hash.slice(1));if(d&&d.tagName==='DETAILS'){d.open=true;}});</script>")
    parts.append("</body></html>\n")
    out.write("\n".join(parts))


__all__ = ["write_aspect_report", "write_aspects_csv"]
