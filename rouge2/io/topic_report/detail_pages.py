"""The drill-down pages: one per task (each system summary once, the references
collapsed) and one per system (its words and its tasks)."""

from __future__ import annotations

from rouge2.io.topic_report.markup import (
    esc,
    filter_box,
    fmt,
    legend,
    marked,
    num,
    pct,
    plural,
    scrolling,
    words_tables,
)
from rouge2.io.topic_report.site import Record, Site
from rouge2.stats.coverage import family_label, family_sort_key, natural_key

# ---------------------------------------------------------------------------
# a task

#: a reference as spooled: name, text, topics, statuses, spans, counts (see ReferenceCoverage)
Reference = tuple[str, str, list[tuple[str, str, str]], str, list[tuple[int, int, int]], dict[str, int]]
#: a task-level topic word: stem, word, universal tag, references, status (see PairCoverage)
TopicWord = tuple[str, str, str, int, str]


def task_body(site: Site, task: str, from_folder: bool) -> str:
    """A task's systems table, its references (once) and each system's summary."""
    records = sorted(site.records(task), key=lambda rec: natural_key(rec[1]))
    tid = site.task_id[task]
    refs, ref_index = _distinct_references(records)
    topics: set[str] = set()
    for rec in records:
        topics.update(t[0] for t in rec[6])
    out = [f'<div class="task" id="{tid}">\n<h2>Task {esc(task)}</h2>\n'
           f'<p class="meta">{plural(len(records), "system")}, {plural(len(refs), "reference")}, '
           f'{len(topics)} distinct reference topic words.</p>\n']
    out.append(legend())
    out.append(_task_systems_table(site, tid, records))
    out.append(_task_references(refs))
    out.append("<h3>System summaries</h3>\n")
    for rec in records:
        out.append(_summary_section(site, tid, rec, refs, ref_index, from_folder))
    out.append("</div>\n")
    return scrolling("".join(out))


def _distinct_references(records: list[Record]) -> tuple[list[Reference], dict[tuple[str, str], int]]:
    """The task's distinct references (name and text), in order of first appearance,
    and the position of each."""
    refs: list[Reference] = []
    ref_index: dict[tuple[str, str], int] = {}
    for rec in records:
        for ref in rec[7]:
            key = (ref[0], ref[1])
            if key not in ref_index:
                ref_index[key] = len(refs)
                refs.append(ref)
    return refs, ref_index


def _task_systems_table(site: Site, tid: str, records: list[Record]) -> str:
    out = [f'<h3>Systems</h3>\n<table class="sortable" id="{tid}-table"><thead><tr>'
           '<th class="l" data-type="num">system</th><th data-type="num">coverage %</th>'
           '<th data-type="num">covered</th><th data-type="num">reference topic words</th>'
           '<th data-type="num">exact</th><th data-type="num">synonym</th>'
           '<th data-type="num">missed words</th><th data-type="num">added words</th></tr></thead><tbody>\n']
    for rec in records:
        system, counts = rec[1], rec[2]
        total = counts["reference"]
        covered = counts["exact"] + counts["synonym"]
        cov = covered / total if total else None
        missed_words = sum(1 for t in rec[6] if t[4] == "missed")
        added_words = sum(1 for t in rec[4] if t[4] == "added")
        out.append(f'<tr><td class="l" data-v="{site.system_rank[system]}">'
                   f'<a href="#{tid}-{site.system_id[system]}">{esc(system)}</a></td>'
                   f'<td data-v="{num(cov)}">{pct(cov)}</td><td>{covered}</td><td>{total}</td>'
                   f'<td>{counts["exact"]}</td><td>{counts["synonym"]}</td>'
                   f'<td>{missed_words}</td><td>{added_words}</td></tr>\n')
    out.append("</tbody></table>\n")
    return "".join(out)


def _task_references(refs: list[Reference]) -> str:
    """Each reference once, collapsed, its topic words marked (coloured by the script)."""
    out = ['<h3>References</h3>\n<p class="note">Topic words are underlined; '
           '"show in references" on a system colours them by that system\'s coverage. '
           'Shown: <span class="ref-system">none</span>.</p>\n']
    for name, text, rtopics, _, spans, _ in refs:
        marks = [(s, e, f'class="topic" data-i="{i}"') for s, e, i in spans]
        lead = " ".join(text.split())
        cut = len(lead) > 90
        if cut:
            lead = lead[:90].rsplit(" ", 1)[0]
        out.append(f'<details class="ref"><summary>{esc(name)} &#183; {len(rtopics)} topic words: '
                   f'<span class="lead">{esc(lead)}{" &#8230;" if cut else ""}</span>'
                   f'</summary><p class="text">{marked(text, marks)}</p></details>\n')
    return "".join(out)


def _summary_section(site: Site, tid: str, rec: Record, refs: list[Reference],
                     ref_index: dict[tuple[str, str], int], from_folder: bool) -> str:
    """One system's summary with its topic words marked, and the words it missed."""
    system, counts, candidate, ctopics, cspans, rtopics, prefs = rec[1:8]
    total = counts["reference"]
    covered = counts["exact"] + counts["synonym"]
    statuses = [""] * len(refs)
    for ref in prefs:
        statuses[ref_index[(ref[0], ref[1])]] = ref[3]
    nrefs = len(prefs)
    marks = []
    for s, e, i in cspans:
        n, status = ctopics[i][3:5]
        note = f"{status} in {n}/{plural(nrefs, 'reference')}" if status != "added" else "added"
        marks.append((s, e, f'class="{status}" title="{esc(note)}"'))
    missed: list[TopicWord] = [t for t in rtopics if t[4] == "missed"]
    pct_text = pct(covered / total) + "%" if total else "n/a"
    return (f'<section class="sys" id="{tid}-{site.system_id[system]}" data-system="{esc(system)}" '
            f'data-st="{esc("|".join(statuses))}">\n'
            f'<h3><span><a href="{esc(site.system_href(system, from_folder))}">{esc(system)}</a></span>'
            f'<span class="stats">covered {covered}/{total} ({pct_text}): {counts["exact"]} exact, '
            f'{counts["synonym"]} synonym, {counts["missed"]} missed, {counts["added"]} added '
            f'(over {plural(nrefs, "reference")})</span>'
            f'<button class="show" type="button">show in references</button></h3>\n'
            f'<p class="text">{marked(candidate, marks)}</p>\n'
            f'<p class="missed-words" title="superscript: references that have the word">'
            f'missed ({len(missed)}): {_missed_chips(missed) or "none"}</p>\n</section>\n')


def _missed_chips(missed: list[TopicWord]) -> str:
    """The missed words by family, most references first."""
    groups: dict[str, list[TopicWord]] = {}
    for t in missed:
        groups.setdefault(t[2], []).append(t)
    return "; ".join(
        f'<span class="fam">{esc(family_label(fam))}</span> '
        + "".join(f'<span class="chip">{esc(t[1])}<sup>{t[3]}</sup></span>'
                  for t in sorted(groups[fam], key=lambda t: (-t[3], natural_key(t[1]))))
        for fam in sorted(groups, key=family_sort_key))


# ---------------------------------------------------------------------------
# a system


def system_body(site: Site, system: str, from_folder: bool) -> str:
    """A system's coverage, its most-missed and most-added words, and its tasks."""
    d = site.data
    row = next(r for r in d["systems"] if r["system"] == system)
    sid = site.system_id[system]
    out = [f'<div class="system" id="{sid}">\n<h2>System {esc(system)}</h2>\n']
    ci = ""
    if row["ci_low"] is not None:
        ci = (f" ({100 * d['bootstrap']['confidence']:g}% interval "
              f"{pct(row['ci_low'])}&#8211;{pct(row['ci_high'])}%)")
    out.append(f'<p>Coverage {pct(row["coverage"])}%{ci} over {plural(row["tasks"], "task")}; pooled '
               f'{pct(row["pooled_coverage"])}%; {fmt(row["missed_words_per_task"])} missed and '
               f'{fmt(row["added_words_per_task"])} added words per task.</p>\n')
    for status in ("missed", "added"):
        out.append(f"<h3>Most-{status} topic words</h3>\n")
        out.append(words_tables(d[status]["systems"][system], status, sid, site.html_top))
    out.append(_system_tasks_table(site, system, sid, from_folder))
    out.append("</div>\n")
    return scrolling("".join(out))


def _system_tasks_table(site: Site, system: str, sid: str, from_folder: bool) -> str:
    out = [f'<h3>Tasks</h3>\n{filter_box(sid + "-tasks", "tasks")}'
           f'<table class="sortable" id="{sid}-tasks"><thead><tr><th class="l" data-type="num">task</th>'
           '<th data-type="num">coverage %</th><th data-type="num">covered</th>'
           '<th data-type="num">reference topic words</th><th data-type="num">missed words</th>'
           '<th data-type="num">added words</th><th class="l">missed (most references first)</th>'
           '</tr></thead><tbody>\n']
    for i, task in enumerate(site.tasks):
        p = site.stats.pairs.get((task, system))
        if p is None:
            continue
        total = p.counts["reference"]
        covered = p.counts["exact"] + p.counts["synonym"]
        words = sorted(p.missed_words, key=lambda w: (-w[1], natural_key(w[0])))[:8]
        more = " &#8230;" if len(p.missed_words) > 8 else ""
        out.append(f'<tr><td class="l" data-v="{i}"><a href="{esc(site.task_href(task, system, from_folder))}">'
                   f'{esc(task)}</a></td><td data-v="{num(p.coverage)}">{pct(p.coverage)}</td>'
                   f'<td>{covered}</td><td>{total}</td><td>{len(p.missed)}</td><td>{p.added_words}</td>'
                   f'<td class="l">{esc(", ".join(w for w, _ in words))}{more}</td></tr>\n')
    out.append("</tbody></table>\n")
    return "".join(out)
