"""The report's HTML pieces: number formats, highlighted text, the stylesheet and script.

``report.css`` and ``report.js`` are package data beside this module: the
single-page report inlines them, the split report writes them into its folder.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import Any

from rouge2.stats.coverage import family_label, family_sort_key


def _asset(name: str) -> str:
    return resources.files("rouge2.io.topic_report").joinpath(name).read_text(encoding="utf-8").strip()


#: the pages' stylesheet and script (no network: the pages work from ``file://``)
CSS = _asset("report.css")
JS = _asset("report.js")

FAMILY_COLORS = {"NOUN": "#4e79a7", "PROPN": "#f28e2b", "VERB": "#59a14f", "ADJ": "#e15759",
                 "ADV": "#76b7b2", "AUX": "#b8a034", "NUM": "#b07aa1"}
OTHER_COLOR = "#9c755f"

esc = html.escape


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 task``, ``2 tasks``: a count with its noun in the right number."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def pct(x: float | None, digits: int = 1) -> str:
    return "n/a" if x is None else f"{100.0 * x:.{digits}f}"


def num(x: float | None) -> str:
    """Sort value for data-v: repr, or very low for missing."""
    return "-1e308" if x is None else repr(float(x))


def fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1f}"


def marked(text: str, spans: Iterable[tuple[int, int, str]]) -> str:
    """``text`` escaped, with each span ``(start, end, attributes)`` in a ``<mark>``."""
    parts = []
    pos = 0
    for start, end, attrs in spans:
        if start < pos:
            continue
        parts.append(esc(text[pos:start]))
        parts.append(f"<mark {attrs}>{esc(text[start:end])}</mark>")
        pos = end
    parts.append(esc(text[pos:]))
    return "".join(parts)


def scrolling(markup: str) -> str:
    """Each table in a box that scrolls sideways when the table is wider than the page
    (user text is escaped, so the tags found are ours)."""
    return (markup.replace('<table class="sortable"', '<div class="tw"><table class="sortable"')
            .replace("</tbody></table>", "</tbody></table></div>"))


def filter_box(table_id: str, what: str) -> str:
    return (f'<p><input type="search" class="filter" data-for="{table_id}" '
            f'placeholder="Filter {esc(what)}&#8230;" aria-label="Filter {esc(what)}"/>'
            f'<span class="count"></span></p>\n')


def legend() -> str:
    return ('<p class="legend"><mark class="exact">exact</mark><mark class="synonym">synonym</mark>'
            '<mark class="missed">missed</mark><mark class="added">added</mark>'
            '<mark class="topic">topic word</mark></p>\n')


def words_tables(rows: Sequence[dict[str, Any]], status: str, prefix: str,
                 limit: int | None) -> str:
    """One sortable table of ``status`` (missed or added) topic words per family."""
    by_family: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_family.setdefault(r["family"], []).append(r)
    if not by_family:
        return f'<p class="note">No topic word was {status}.</p>\n'
    out = ['<div class="families">\n']
    for fam in sorted(by_family, key=family_sort_key):
        tid = f"{prefix}-{status}-{fam.lower() or 'x'}"
        shown = by_family[fam][:limit] if limit is not None else by_family[fam]
        out.append(f'<div><h3 id="{tid}-h">{esc(family_label(fam).capitalize())} '
                   f'<span class="stats">{esc(fam)}</span></h3>\n'
                   f'<table class="sortable" id="{tid}"><thead><tr><th class="l">topic</th>'
                   '<th data-type="num">tasks</th><th data-type="num">share %</th>'  # the glossary's names
                   '<th data-type="num">occurs</th><th data-type="num">rate %</th></tr></thead><tbody>\n')
        for r in shown:
            out.append(f'<tr><td class="l">{esc(r["topic"])}</td><td>{r["tasks"]}</td>'
                       f'<td data-v="{num(r["share"])}">{pct(r["share"])}</td>'
                       f'<td>{r["occurs"]}</td><td data-v="{num(r["rate"])}">{pct(r["rate"], 0)}</td></tr>\n')
        out.append("</tbody></table></div>\n")
    out.append("</div>\n")
    return "".join(out)
