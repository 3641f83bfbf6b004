"""The index page: overview charts, systems, most-missed and most-added words, contrasts, tasks."""

from __future__ import annotations

from rouge2.io.topic_report.charts import svg_coverage, svg_top_words
from rouge2.io.topic_report.markup import esc, filter_box, fmt, legend, num, pct, plural, scrolling, words_tables
from rouge2.io.topic_report.site import Site


def index_body(site: Site) -> str:
    d = site.data
    c = d["counts"]
    parts = [f'<header id="top"><h1>{esc(site.title)}</h1>\n']
    aux = "auxiliaries included" if d["auxiliaries"] else "verb auxiliaries left out"
    parts.append(
        f'<p class="meta">Topic words: parts of speech <code>{esc(d["selection"])}</code> ({aux}); '
        f'distinct words (stems) as in ROUGE-TopicUniq; synonyms {"on" if d["synonyms"] else "off"}. '
        f'{plural(c["systems"], "system")}, {plural(c["tasks"], "task")}, '
        f'{plural(c["pairs"], "summary", "summaries")}.</p>'
        + "".join(f'<p class="meta">See also: <a href="{esc(href)}">{esc(label)}</a></p>'
                  for label, href in d.get("links", ()))
        + '</header>\n')
    sections = [("overview", "Overview"), ("systems", "Systems"),
                ("missed", "Most-missed topic words"), ("added", "Most-added topic words"),
                ("contrast", "Contrasts"), ("tasks", "Tasks"), ("about", "Definitions and files")]
    parts.append('<nav class="toc" id="contents" aria-label="Contents"><strong>Contents</strong><ol>'
                 + "".join(f'<li><a href="#{a}">{esc(n)}</a></li>' for a, n in sections)
                 + "</ol></nav>\n")
    parts.append(overview(site))
    parts.append(systems_section(site))
    for status in ("missed", "added"):
        parts.append(words_section(site, status))
    parts.append(contrast_section(site))
    parts.append(tasks_section(site))
    parts.append(about_section(site))
    return scrolling("".join(parts))


def overview(site: Site) -> str:
    d = site.data
    rows = [r for r in d["systems"] if r["coverage"] is not None]
    out = ['<section id="overview"><h2>Overview</h2>\n']
    if rows:
        best = max(rows, key=lambda r: (r["coverage"], -site.system_rank[r["system"]]))
        worst = min(rows, key=lambda r: (r["coverage"], site.system_rank[r["system"]]))
        ci = ""
        if best["ci_low"] is not None:
            ci = (f" ({100 * d['bootstrap']['confidence']:g}% interval "
                  f"{pct(best['ci_low'])}&#8211;{pct(best['ci_high'])}%)")
        if best["coverage"] == worst["coverage"]:  # one system, or all tied: no highest and lowest
            who = (f'<strong>{esc(best["system"])}</strong> covers' if len(rows) == 1
                   else f"All {len(rows)} systems cover")
            out.append(f'<p>{who} {pct(best["coverage"])}% of the reference topic words per task '
                       f'on average{ci if len(rows) == 1 else ""}.</p>\n')
        else:
            out.append(f'<p>Highest coverage: <strong>{esc(best["system"])}</strong>, '
                       f'{pct(best["coverage"])}% of the reference topic words per task on average{ci}; '
                       f'lowest: <strong>{esc(worst["system"])}</strong>, {pct(worst["coverage"])}%.</p>\n')
    cap = "Coverage per system: mean over tasks of covered / reference topic words"
    if d["bootstrap"]:
        b = d["bootstrap"]
        cap += (f", with {100 * b['confidence']:g}% percentile bootstrap intervals over tasks "
                f"({b['resamples']} resamples, seed {b['seed']})")
    out.append(f"<figure>{svg_coverage(d['systems'])}<figcaption>{esc(cap)}.</figcaption></figure>\n")
    top = site.stats.top_words("missed", 15)
    out.append(f"<figure>{svg_top_words(top, 'missed')}<figcaption>The 15 most-missed topic words "
               "over all systems: share of the (task, system) pairs that missed the word "
               "(number of pairs in brackets); colour and tag: the word's family.</figcaption></figure>\n")
    out.append("</section>\n")
    return "".join(out)


def systems_section(site: Site) -> str:
    d = site.data
    conf = f"{100 * d['bootstrap']['confidence']:g}% " if d["bootstrap"] else ""
    out = ['<section id="systems"><h2>Systems</h2>\n',
           filter_box("t-systems", "systems"),
           '<table class="sortable" id="t-systems"><thead><tr>'
           '<th class="l" data-type="num">system</th><th data-type="num">tasks</th>'
           '<th data-type="num">coverage %</th>'
           f'<th data-type="num">{conf}interval</th>'
           '<th data-type="num">pooled %</th><th data-type="num">exact %</th>'
           '<th data-type="num">synonym %</th><th data-type="num">missed words / task</th>'
           '<th data-type="num">added words / task</th></tr></thead><tbody>\n']
    for r in d["systems"]:
        ci = "" if r["ci_low"] is None else f"{pct(r['ci_low'])}&#8211;{pct(r['ci_high'])}"
        out.append(
            f'<tr data-system="{esc(r["system"])}">'
            f'<td class="l" data-v="{site.system_rank[r["system"]]}">'
            f'<a href="{esc(site.system_href(r["system"]))}">{esc(r["system"])}</a></td>'
            f'<td>{r["tasks"]}</td>'
            f'<td class="coverage" data-v="{num(r["coverage"])}">{pct(r["coverage"])}</td>'
            f'<td data-v="{num(r["ci_low"])}">{ci}</td>'
            f'<td class="covered" data-v="{num(r["pooled_coverage"])}">{pct(r["pooled_coverage"])}</td>'
            f'<td class="exact" data-v="{num(r["exact_share"])}">{pct(r["exact_share"])}</td>'
            f'<td class="synonym" data-v="{num(r["synonym_share"])}">{pct(r["synonym_share"])}</td>'
            f'<td class="missed" data-v="{num(r["missed_words_per_task"])}">'
            f'{fmt(r["missed_words_per_task"])}</td>'
            f'<td class="added" data-v="{num(r["added_words_per_task"])}">'
            f'{fmt(r["added_words_per_task"])}</td></tr>\n')
    out.append("</tbody></table>\n")
    out.append('<p class="note">coverage: mean over the system\'s tasks of covered / reference topic '
               'words (pooled over each task\'s references; equals the ROUGE-TopicUniq recall with '
               'multi_reference pooled). pooled: the same ratio over all tasks at once. '
               'exact / synonym: shares of the reference topic words covered each way. '
               'missed / added words per task: distinct words per task.</p>\n</section>\n')
    return "".join(out)


def words_section(site: Site, status: str) -> str:
    title = "Most-missed topic words" if status == "missed" else "Most-added topic words"
    what = ("reference topic words the systems did not cover (in any reference that has them)"
            if status == "missed" else "system topic words that match no reference topic word")
    out = [f'<section id="{status}"><h2>{title}</h2>\n'
           f'<p class="note">All systems: {what}; counted in (task, system) pairs. Per system: see '
           f'the system pages ({", ".join(site.system_links())}). Top {site.html_top} per family '
           f'here; the topics CSV has more.</p>\n']
    out.append(words_tables(site.data[status]["all"], status, "all", site.html_top))
    out.append("</section>\n")
    return "".join(out)


def contrast_section(site: Site) -> str:
    out = ['<section id="contrast"><h2>Contrasts</h2>\n']
    if not site.data["contrast"]:
        out.append('<p class="note">No contrast (fewer than two systems).</p>\n')
    for k, c in enumerate(site.data["contrast"]):
        a, b = c["system_a"], c["system_b"]
        out.append(f'<h3 id="contrast-{k + 1}">{esc(a)} vs {esc(b)} '
                   f'<span class="stats">{plural(c["tasks"], "shared task")}</span></h3>\n<div class="twocol">\n')
        for key, x, y in (("a_covers_b_misses", a, b), ("b_covers_a_misses", b, a)):
            rows = c[key][: site.html_top]
            tid = f"t-contrast-{k + 1}-{'ab' if key.startswith('a_') else 'ba'}"
            out.append(f'<div><p><strong>{esc(x)}</strong> covers, <strong>{esc(y)}</strong> misses: '
                       f'{c[key + "_total"]} words over the tasks</p>\n'
                       f'<table class="sortable" id="{tid}"><thead><tr><th class="l">topic</th>'
                       '<th class="l">family</th><th data-type="num">tasks</th>'
                       '<th data-type="num">share %</th></tr></thead><tbody>\n')
            for r in rows:
                out.append(f'<tr><td class="l">{esc(r["topic"])}</td><td class="l">{esc(r["family"])}</td>'
                           f'<td>{r["tasks"]}</td><td data-v="{num(r["share"])}">{pct(r["share"])}</td></tr>\n')
            out.append("</tbody></table></div>\n")
        out.append("</div>\n")
    out.append("</section>\n")
    return "".join(out)


def tasks_section(site: Site) -> str:
    out = ['<section id="tasks"><h2>Tasks</h2>\n',
           '<p class="note">One row per task, task names in natural order (task2 before task10). '
           'Coverage of the task\'s systems: mean, lowest, highest.</p>\n',
           filter_box("t-tasks", "tasks"),
           '<table class="sortable" id="t-tasks"><thead><tr><th class="l" data-type="num">task</th>'
           '<th data-type="num">systems</th><th data-type="num">references</th>'
           '<th data-type="num">reference topic words</th><th data-type="num">mean %</th>'
           '<th data-type="num">min %</th><th data-type="num">max %</th>'
           '<th class="l">best</th><th class="l">worst</th></tr></thead><tbody>\n']
    for i, r in enumerate(site.data["tasks"]):
        out.append(
            f'<tr><td class="l" data-v="{i}"><a href="{esc(site.task_href(r["task"]))}">{esc(r["task"])}</a></td>'
            f'<td>{r["systems"]}</td><td>{r["references"]}</td><td>{r["reference_topics"]}</td>'
            f'<td data-v="{num(r["mean_coverage"])}">{pct(r["mean_coverage"])}</td>'
            f'<td data-v="{num(r["min_coverage"])}">{pct(r["min_coverage"])}</td>'
            f'<td data-v="{num(r["max_coverage"])}">{pct(r["max_coverage"])}</td>'
            f'<td class="l">{esc(r["best_system"])}</td><td class="l">{esc(r["worst_system"])}</td></tr>\n')
    out.append("</tbody></table>\n</section>\n")
    return "".join(out)


def about_section(site: Site) -> str:
    d = site.data
    out = ['<section id="about"><h2>Definitions and files</h2>\n<dl>\n']
    for k, v in d["definitions"].items():
        out.append(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>\n")
    out.append("</dl>\n")
    out.append(legend())
    if site.folder is not None:
        base = site.index_name[: -len(".html")] if site.index_name.endswith(".html") else site.index_name
        files = [f"{base}.csv", f"{base}_systems.csv", f"{base}_topics.csv", f"{base}_contrast.csv",
                 f"{base}_summary.json"]
        out.append("<p>Files: " + ", ".join(f'<a href="{esc(f)}">{esc(f)}</a>' for f in files)
                   + f"; the task and system pages are in <code>{esc(site.folder.name)}/</code>.</p>\n")
    out.append("</section>\n")
    return "".join(out)

