"""The topic-coverage report of a run (``outputs.topic_report``).

For each (task, system, reference) the distinct topic words of the
reference (the topic selection's parts of speech, e.g. ``NN|JJ``; a word is
its stem, as in ROUGE-TopicUniq) are

* ``exact``   - covered by a candidate topic word with the same stem,
* ``synonym`` - covered by a candidate topic word related through the run's
  synonyms (only when ``preprocess.synonyms`` is on),
* ``missed``  - not covered;

and the candidate's distinct topic words left unmatched are ``added``.

The assignment is a maximum matching between the distinct candidate and
reference topic words (each used at most once), so the number of covered
reference words equals the hit count of ROUGE-TopicUniq for that pair
(covered / reference topics = its recall, covered / (covered + added) its
precision).  Among the maximum matchings it takes one with as many exact
matches as possible (a minimum-cost maximum flow, exact edges cost 0 and
synonym edges 1: exact-first greedy matching is not maximum in general, see
:mod:`rouge2.synonyms.matching`).  Ties are broken by the order in which the
words first occur, so the report is deterministic.

Outputs (written atomically with the run's other files):

* ``<name>.csv`` - ``task,system,reference,topic,status,matched_with``;
* ``<name>.html`` - one self-contained page (inline CSS, no scripts, no
  external assets): per-system coverage at a glance, then every summary with
  its topic words highlighted (``<mark class="exact|synonym|missed">`` in the
  reference, ``<mark class="exact|synonym|added">`` in the system summary).

The per-pair work (:class:`TopicCoverage`) runs where the scoring runs (in
worker processes with ``--jobs``); the writer (:class:`TopicReportWriter`)
streams CSV rows and HTML sections to disk, keeping only per-system counts.
"""

from __future__ import annotations

import csv
import html
import re
import shutil
import tempfile
from collections import deque
from dataclasses import dataclass, field
from typing import IO, Any, Iterable, Sequence

from rouge2.errors import UserError

CSV_HEADER = ("task", "system", "reference", "topic", "status", "matched_with")
STATUSES = ("exact", "synonym", "missed", "added")


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


# ---------------------------------------------------------------------------
# the assignment


def assign(cand: Sequence[tuple[str, str]], ref: Sequence[tuple[str, str]],
           related=None) -> dict[int, tuple[int, str]]:
    """Maximum matching of distinct topic words with as many exact matches as possible.

    ``cand`` and ``ref`` are ``(stem, word)`` of the distinct topic words in
    order of first occurrence.  A pair matches exactly when the stems are
    equal, through a synonym when ``related(cand_word, ref_word)`` is true.
    Returns ``{ref_index: (cand_index, "exact"|"synonym")}``.
    """
    n, m = len(cand), len(ref)
    if not n or not m:
        return {}
    ref_by_stem = {stem: j for j, (stem, _) in enumerate(ref)}
    # Nodes: 0 source, 1..n candidates, n+1..n+m references, n+m+1 sink.
    src, sink = 0, n + m + 1
    to: list[int] = []
    cap: list[int] = []
    cost: list[int] = []
    adj: list[list[int]] = [[] for _ in range(n + m + 2)]

    def edge(a: int, b: int, c: int) -> None:
        adj[a].append(len(to)); to.append(b); cap.append(1); cost.append(c)
        adj[b].append(len(to)); to.append(a); cap.append(0); cost.append(-c)

    for i in range(n):
        edge(src, 1 + i, 0)
    pair_edges: dict[int, tuple[int, int, str]] = {}
    any_pair = False
    for i, (stem, word) in enumerate(cand):
        j = ref_by_stem.get(stem)
        if j is not None:
            pair_edges[len(to)] = (i, j, "exact")
            edge(1 + i, 1 + n + j, 0)
            any_pair = True
        if related is not None:
            for j2, (rstem, rword) in enumerate(ref):
                if rstem != stem and related(word, rword):
                    pair_edges[len(to)] = (i, j2, "synonym")
                    edge(1 + i, 1 + n + j2, 1)
                    any_pair = True
    if not any_pair:
        return {}
    for j in range(m):
        edge(1 + n + j, sink, 0)

    # Successive shortest paths (Bellman-Ford / SPFA, deterministic order):
    # each augmentation adds one match at the least extra synonym cost, so the
    # final flow is a maximum matching of minimum cost.
    size = n + m + 2
    inf = float("inf")
    while True:
        dist = [inf] * size
        via = [-1] * size
        dist[src] = 0
        queue = deque([src])
        queued = [False] * size
        queued[src] = True
        while queue:
            a = queue.popleft()
            queued[a] = False
            for e in adj[a]:
                if cap[e] > 0 and dist[a] + cost[e] < dist[to[e]]:
                    b = to[e]
                    dist[b] = dist[a] + cost[e]
                    via[b] = e
                    if not queued[b]:
                        queued[b] = True
                        queue.append(b)
        if dist[sink] == inf:
            break
        b = sink
        while b != src:
            e = via[b]
            cap[e] -= 1
            cap[e ^ 1] += 1
            b = to[e ^ 1]
    out: dict[int, tuple[int, str]] = {}
    for e, (i, j, kind) in pair_edges.items():
        if cap[e] == 0:  # used
            out[j] = (i, kind)
    return dict(sorted(out.items()))


# ---------------------------------------------------------------------------
# one pair


@dataclass
class PairCoverage:
    """The report's data for one (task, system): CSV rows, counts, an HTML section."""

    rows: list[tuple[str, str, str, str, str, str]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # reference, exact, synonym, missed, added
    html: str = ""


def _distinct(units: Iterable[tuple[str, str, str]]) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for stem, word, _ in units:
        seen.setdefault(stem, word)
    return list(seen.items())


class TopicCoverage:
    """Computes one pair's coverage with a run's scorer (analyzer, tagger, synonyms)."""

    def __init__(self, scorer: Any, spec: str):
        from rouge2.measures.topic import Topic
        from rouge2.pos.tagger import load_tagger

        analyzer = getattr(scorer, "analyzer", None)
        if analyzer is None:
            raise UserError("outputs.topic_report: needs rouge2's own scorer (no analyzer found)")
        self.scorer = scorer
        self.measure = Topic(spec, unique=True)
        tagger = getattr(scorer, "tagger", None)
        if tagger is None:
            tagger = load_tagger(scorer.options.tagger)
        self.measure.prepare(analyzer, tagger)
        self.relation = None
        for m in getattr(scorer, "measures", {}).values():
            if getattr(m, "relation", None) is not None:
                self.relation = m.relation
                break
        if self.relation is None and getattr(scorer, "synonyms", None) is not None:
            from rouge2.synonyms.matching import relation_for

            key = analyzer.stem_token if analyzer.stems else None
            self.relation = relation_for(scorer.synonyms, None, key=key)
        self.analyzer = analyzer
        self.tagger = tagger
        self.selection = str(self.measure.selector)

    # -- token positions, for highlighting ---------------------------------
    def _spans(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, stem) of each topic token in ``text``, the tokens
        :meth:`Topic.units` counts (same tagging, tokenizing, stopwords)."""
        a = self.analyzer
        stop = a._stopwords
        tokenize = a._tokenize
        select = self.measure.selector.select
        spans = []
        cursor = 0
        for word, tag in self.tagger.tag(text):
            wpos = text.find(word, cursor)
            if wpos < 0:
                continue
            wend = wpos + len(word)
            sub = wpos
            for tok in tokenize(word):
                hit = re.compile(re.escape(tok), re.IGNORECASE).search(text, sub, wend)
                start, end = (hit.start(), hit.end()) if hit else (-1, -1)
                if hit:
                    sub = end
                if tok in stop or not select(tag):
                    continue
                if start >= 0:
                    spans.append((start, end, a.stem_token(tok)))
            cursor = wend
        return spans

    def _marked(self, text: str, status_of: dict[str, tuple[str, str]]) -> str:
        """HTML of ``text`` with its topic tokens in ``<mark>``; everything escaped."""
        parts = []
        pos = 0
        for start, end, stem in self._spans(text):
            got = status_of.get(stem)
            if got is None or start < pos:
                continue
            status, note = got
            parts.append(html.escape(text[pos:start]))
            title = f' title="{html.escape(note)}"' if note else ""
            parts.append(f'<mark class="{status}"{title}>{html.escape(text[start:end])}</mark>')
            pos = end
        parts.append(html.escape(text[pos:]))
        return "".join(parts)

    # -- one pair ----------------------------------------------------------
    def pair(self, task: str, system: str, candidate: str, references: Sequence[str],
             reference_names: Sequence[str]) -> PairCoverage:
        analyze = self.analyzer.analyze
        units = self.measure.units
        cand = _distinct(units(analyze(candidate, cache=False)))
        result = PairCoverage(counts=dict.fromkeys(("reference", *STATUSES), 0))
        blocks = []
        for k, ref_text in enumerate(references):
            name = reference_names[k] if k < len(reference_names) else f"reference{k + 1}"
            ref = _distinct(units(analyze(ref_text)))
            match = assign(cand, ref, self.relation.tok if self.relation is not None else None)
            used = {i: (j, kind) for j, (i, kind) in match.items()}
            ref_status: dict[str, tuple[str, str]] = {}
            cand_status: dict[str, tuple[str, str]] = {}
            local = dict.fromkeys(("reference", *STATUSES), 0)
            for j, (stem, word) in enumerate(ref):
                local["reference"] += 1
                if j in match:
                    i, kind = match[j]
                    cword = cand[i][1]
                    result.rows.append((task, system, name, word, kind, cword))
                    ref_status[stem] = (kind, f"{kind}: {cword}")
                    cand_status[cand[i][0]] = (kind, f"{kind}: {word}")
                else:
                    kind = "missed"
                    result.rows.append((task, system, name, word, kind, ""))
                    ref_status[stem] = (kind, "missed")
                local[kind] += 1
            for i, (stem, word) in enumerate(cand):
                if i not in used:
                    result.rows.append((task, system, name, word, "added", ""))
                    cand_status[stem] = ("added", "added")
                    local["added"] += 1
            for key, v in local.items():
                result.counts[key] += v
            blocks.append(self._pair_html(task, system, name, candidate, ref_text,
                                          cand_status, ref_status, local))
        result.html = "".join(blocks)
        return result

    def _pair_html(self, task, system, ref_name, candidate, ref_text, cand_status, ref_status,
                   c) -> str:
        e = html.escape
        total = c["reference"]
        covered = c["exact"] + c["synonym"]
        pct = f"{100.0 * covered / total:.1f}%" if total else "n/a"
        return (
            f'<section class="pair" data-task="{e(task)}" data-system="{e(system)}" '
            f'data-reference="{e(ref_name)}">\n'
            f'<h3>task {e(task)} &middot; system {e(system)} &middot; reference {e(ref_name)}</h3>\n'
            f'<p class="stats">covered {covered}/{total} ({pct}): {c["exact"]} exact, '
            f'{c["synonym"]} synonym, {c["missed"]} missed; {c["added"]} added</p>\n'
            f'<div class="texts">\n'
            f'<div class="text system"><h4>system summary</h4>'
            f'<p class="summary">{self._marked(candidate, cand_status)}</p></div>\n'
            f'<div class="text reference"><h4>reference</h4>'
            f'<p class="summary">{self._marked(ref_text, ref_status)}</p></div>\n'
            f'</div>\n</section>\n'
        )


# ---------------------------------------------------------------------------
# the files

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222}
h1{font-size:1.6em}h3{font-size:1.05em;margin:0 0 .3em}h4{font-size:.85em;margin:0 0 .3em;color:#555;text-transform:uppercase;letter-spacing:.05em}
table.coverage{border-collapse:collapse;margin:1em 0}
table.coverage th,table.coverage td{border:1px solid #ccc;padding:.3em .7em;text-align:right}
table.coverage th:first-child,table.coverage td:first-child{text-align:left}
table.coverage th{background:#f3f3f3}
section.pair{border-top:1px solid #ddd;padding:1em 0}
.texts{display:flex;gap:1.5em;flex-wrap:wrap}.text{flex:1 1 28em}
p.summary{white-space:pre-wrap;line-height:1.6;margin:0}
p.stats{color:#555;margin:.2em 0 .6em}
mark{border-radius:3px;padding:0 .15em}
mark.exact{background:#b7e4b0}
mark.synonym{background:#a9d2f5}
mark.missed{background:#f6b3b3}
mark.added{background:#f7dc8c}
.legend mark{margin-right:.6em}
"""


class TopicReportWriter:
    """Streams the CSV rows and HTML sections; writes the page at :meth:`finish`."""

    def __init__(self, csv_handle: IO[str], selection: str, synonyms: bool,
                 title: str | None = None):
        self._csv = csv.writer(csv_handle, lineterminator="\n")
        self._csv.writerow(CSV_HEADER)
        self._body = tempfile.TemporaryFile("w+", encoding="utf-8", newline="")
        self.selection = selection
        self.synonyms = synonyms
        self.title = title
        self.systems: dict[str, dict[str, int]] = {}

    def add(self, system: str, cov: PairCoverage) -> None:
        self._csv.writerows(cov.rows)
        self._body.write(cov.html)
        s = self.systems.setdefault(system, dict.fromkeys(("tasks", "reference", *STATUSES), 0))
        s["tasks"] += 1
        for key, v in cov.counts.items():
            s[key] += v

    def table_rows(self) -> list[dict[str, Any]]:
        rows = []
        for system in sorted(self.systems):
            s = self.systems[system]
            total = s["reference"]
            def pct(x: int) -> float | None:
                return 100.0 * x / total if total else None
            rows.append({"system": system, "tasks": s["tasks"], "reference_topics": total,
                         "covered_pct": pct(s["exact"] + s["synonym"]), "exact_pct": pct(s["exact"]),
                         "synonym_pct": pct(s["synonym"]), "missed": s["missed"], "added": s["added"]})
        return rows

    def finish(self, out: IO[str]) -> None:
        e = html.escape
        title = "Topic coverage" + (f": {self.title}" if self.title else "")
        out.write('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8"/>\n'
                  f'<title>{e(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n')
        out.write(f"<h1>{e(title)}</h1>\n")
        out.write(f'<p>Topic words: parts of speech <code>{e(self.selection)}</code>, distinct words '
                  f'(stems) as in ROUGE-TopicUniq; synonyms {"on" if self.synonyms else "off"}. '
                  f'Covered = exact + synonym, over all reference topic words of the system\'s tasks '
                  f'and references; added = the system\'s topic words matched to no reference topic word.</p>\n')
        out.write('<p class="legend"><mark class="exact">exact</mark><mark class="synonym">synonym</mark>'
                  '<mark class="missed">missed</mark><mark class="added">added</mark></p>\n')
        out.write('<table class="coverage">\n<thead><tr><th>system</th><th>tasks</th>'
                  '<th>reference topics</th><th>covered %</th><th>exact %</th><th>synonym %</th>'
                  '<th>missed</th><th>added</th></tr></thead>\n<tbody>\n')
        for r in self.table_rows():
            def f(x):
                return "n/a" if x is None else f"{x:.1f}"
            out.write(f'<tr data-system="{e(r["system"])}"><td>{e(r["system"])}</td><td>{r["tasks"]}</td>'
                      f'<td>{r["reference_topics"]}</td><td class="covered">{f(r["covered_pct"])}</td>'
                      f'<td class="exact">{f(r["exact_pct"])}</td><td class="synonym">{f(r["synonym_pct"])}</td>'
                      f'<td class="missed">{r["missed"]}</td><td class="added">{r["added"]}</td></tr>\n')
        out.write("</tbody>\n</table>\n<h2>Summaries</h2>\n")
        self._body.seek(0)
        shutil.copyfileobj(self._body, out)
        out.write("</body>\n</html>\n")
        self.close()

    def close(self) -> None:
        if not self._body.closed:
            self._body.close()


def csv_path_for(html_path):
    """The CSV next to the HTML file: same name, ``.csv``."""
    return html_path.with_suffix(".csv")


__all__ = ["assign", "TopicCoverage", "TopicReportWriter", "PairCoverage", "report_topics",
           "CSV_HEADER", "STATUSES", "csv_path_for"]
