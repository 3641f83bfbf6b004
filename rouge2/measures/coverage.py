"""Topic coverage of one (task, system) pair: which topic words are covered, missed, added.

For each reference the distinct topic words of the reference (the topic
selection's parts of speech, e.g. ``NN|JJ``; a word is its stem, as in
ROUGE-TopicUniq) are

* ``exact``   - covered by a candidate topic word with the same stem,
* ``synonym`` - covered by a candidate topic word related through the run's
  synonyms (only when synonyms are on),
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
words first occur, so the result is deterministic.

Across the references of a task, a word's *task-level* status is

* reference topic words: ``exact`` if it is covered exactly against at least
  one reference that contains it, else ``synonym`` if it is covered through a
  synonym against at least one, else ``missed``;
* candidate topic words: ``exact`` / ``synonym`` likewise, else ``added``
  (matched against no reference).

:class:`TopicCoverage` computes a :class:`PairCoverage` with a run's scorer
(analyzer, tagger, synonyms); it runs where the scoring runs (in worker
processes with ``--jobs``), so everything it returns is plain data.  The
dataset-level statistics are in :mod:`rouge2.stats.coverage`, the files in
:mod:`rouge2.io.topic_report`.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rouge2.aspects.lexicon import load_lexicon
from rouge2.errors import UserError
from rouge2.measures.topic import Topic, annotate
from rouge2.pos.tagger import load_tagger
from rouge2.synonyms.matching import relation_for

STATUSES = ("exact", "synonym", "missed", "added")
#: one-letter codes of a reference topic word's status against one reference
STATUS_CODE = {"exact": "e", "synonym": "s", "missed": "m"}

#: task, system, reference, topic, status, matched_with, stem, upos, aspects
Row = tuple[str, str, str, str, str, str, str, str, str]


# ---------------------------------------------------------------------------
# the assignment


def assign(cand: Sequence[tuple[str, str]], ref: Sequence[tuple[str, str]],
           related: Callable[[str, str], bool] | None = None) -> dict[int, tuple[int, str]]:
    """Maximum matching of distinct topic words with as many exact matches as possible.

    ``cand`` and ``ref`` are ``(stem, word)`` of the distinct topic words in
    order of first occurrence.  A pair matches exactly when the stems are
    equal, through a synonym when ``related(cand_word, ref_word)`` is true.
    Returns ``{ref_index: (cand_index, "exact"|"synonym")}``.
    """
    n, m = len(cand), len(ref)
    if not n or not m:
        return {}
    # Nodes: 0 source, 1..n candidates, n+1..n+m references, n+m+1 sink.
    src, sink = 0, n + m + 1
    net = _Network(n + m + 2)
    for i in range(n):
        net.edge(src, 1 + i, 0)
    pair_edges = _pair_edges(net, cand, ref, related)
    if not pair_edges:
        return {}
    for j in range(m):
        net.edge(1 + n + j, sink, 0)
    net.min_cost_flow(src, sink)
    out: dict[int, tuple[int, str]] = {}
    for e, (i, j, kind) in pair_edges.items():
        if net.cap[e] == 0:  # used
            out[j] = (i, kind)
    return dict(sorted(out.items()))


def _pair_edges(net: _Network, cand: Sequence[tuple[str, str]], ref: Sequence[tuple[str, str]],
                related: Callable[[str, str], bool] | None) -> dict[int, tuple[int, int, str]]:
    """The candidate -> reference edges (exact cost 0, synonym cost 1), in a
    deterministic order: ``{edge: (cand_index, ref_index, kind)}``."""
    n = len(cand)
    ref_by_stem = {stem: j for j, (stem, _) in enumerate(ref)}
    pair_edges: dict[int, tuple[int, int, str]] = {}
    for i, (stem, word) in enumerate(cand):
        j = ref_by_stem.get(stem)
        if j is not None:
            pair_edges[net.edge(1 + i, 1 + n + j, 0)] = (i, j, "exact")
        if related is not None:
            for j2, (rstem, rword) in enumerate(ref):
                if rstem != stem and related(word, rword):
                    pair_edges[net.edge(1 + i, 1 + n + j2, 1)] = (i, j2, "synonym")
    return pair_edges


class _Network:
    """A flow network of unit-capacity edges with costs; edge ``e ^ 1`` is the
    residual of edge ``e``."""

    def __init__(self, size: int):
        self.size = size
        self.to: list[int] = []
        self.cap: list[int] = []
        self.cost: list[int] = []
        self.adj: list[list[int]] = [[] for _ in range(size)]

    def edge(self, a: int, b: int, c: int) -> int:
        """Adds the edge a -> b of cost ``c`` (and its residual); returns its index."""
        e = len(self.to)
        self.adj[a].append(e); self.to.append(b); self.cap.append(1); self.cost.append(c)
        self.adj[b].append(e + 1); self.to.append(a); self.cap.append(0); self.cost.append(-c)
        return e

    def min_cost_flow(self, src: int, sink: int) -> None:
        """Successive shortest paths (Bellman-Ford / SPFA, deterministic order):
        each augmentation adds one match at the least extra synonym cost, so the
        final flow is a maximum matching of minimum cost."""
        while True:
            via = self._cheapest_path(src, sink)
            if via is None:
                break
            b = sink
            while b != src:
                e = via[b]
                self.cap[e] -= 1
                self.cap[e ^ 1] += 1
                b = self.to[e ^ 1]

    def _cheapest_path(self, src: int, sink: int) -> list[int] | None:
        """The edge into each node on a cheapest path from ``src`` with capacity
        left (None when ``sink`` is unreachable)."""
        to, cap, cost, adj = self.to, self.cap, self.cost, self.adj
        inf = float("inf")
        dist: list[float] = [inf] * self.size
        via = [-1] * self.size
        dist[src] = 0
        queue = deque([src])
        queued = [False] * self.size
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
        return None if dist[sink] == inf else via


# ---------------------------------------------------------------------------
# the data of one pair


@dataclass
class ReferenceCoverage:
    """One reference of a pair: its topic words and their status against the candidate."""

    name: str
    text: str
    #: distinct topic words in order of first occurrence: (stem, word, universal tag)
    topics: list[tuple[str, str, str]]
    #: one letter per topic word: e(xact), s(ynonym), m(issed)
    statuses: str
    #: where the topic words are in ``text``: (start, end, index into ``topics``)
    spans: list[tuple[int, int, int]]
    #: reference (topic words), exact, synonym, missed, added
    counts: dict[str, int]


@dataclass
class PairCoverage:
    """The coverage data of one (task, system) against all its references."""

    #: CSV rows: task, system, reference, topic, status, matched_with, stem, upos, aspects
    rows: list[Row] = field(default_factory=list)
    #: pooled over the references: reference (topic words), exact, synonym, missed, added
    counts: dict[str, int] = field(default_factory=dict)
    task: str = ""
    system: str = ""
    candidate: str = ""
    references: list[ReferenceCoverage] = field(default_factory=list)
    #: task-level status of each distinct reference topic word (union over the
    #: references, in order of first occurrence):
    #: (stem, word, universal tag, references containing it, "exact"|"synonym"|"missed")
    reference_topics: list[tuple[str, str, str, int, str]] = field(default_factory=list)
    #: task-level status of each distinct candidate topic word:
    #: (stem, word, universal tag, references it matched in, "exact"|"synonym"|"added")
    candidate_topics: list[tuple[str, str, str, int, str]] = field(default_factory=list)
    #: where the candidate's topic words are: (start, end, index into candidate_topics)
    candidate_spans: list[tuple[int, int, int]] = field(default_factory=list)

    @property
    def covered(self) -> int:
        return self.counts.get("exact", 0) + self.counts.get("synonym", 0)

    @property
    def coverage(self) -> float | None:
        """covered / reference topic words, pooled over the references
        (= ROUGE-TopicUniq recall with ``multi_reference: pooled``); None
        when the references have no topic word."""
        total = self.counts.get("reference", 0)
        return self.covered / total if total else None


def _distinct(units: Iterable[tuple]) -> list[tuple[str, str, str]]:
    """(stem, word, universal tag) of each distinct stem, first occurrence first."""
    seen: dict[str, tuple[str, str, str]] = {}
    for u in units:
        if u[0] not in seen:
            seen[u[0]] = (u[0], u[1], u[3] if len(u) > 3 else "")
    return list(seen.values())


class TopicCoverage:
    """Computes one pair's coverage with a run's scorer (analyzer, tagger, synonyms).

    ``auxiliaries`` None takes the setting of the scorer's first topic
    measure (False when it has none): whether verb-tagged auxiliaries are
    topic words (see :class:`rouge2.pos.topics.TopicSelector`).
    """

    #: reference texts whose highlighting spans are kept (a task's references
    #: are shared by all its systems)
    SPAN_CACHE = 256

    def __init__(self, scorer: Any, spec: str, auxiliaries: bool | None = None):
        analyzer = getattr(scorer, "analyzer", None)
        if analyzer is None:
            raise UserError("outputs.topic_report: needs rouge2's own scorer (no analyzer found)")
        measures = list(getattr(scorer, "measures", {}).values())
        if auxiliaries is None:
            auxiliaries = next((bool(getattr(m, "auxiliaries", False)) for m in measures
                                if isinstance(m, Topic)), False)
        self.scorer = scorer
        self.measure = Topic(spec, unique=True, auxiliaries=auxiliaries)
        tagger = getattr(scorer, "tagger", None)
        if tagger is None:
            tagger = load_tagger(scorer.options.tagger)
        self.measure.prepare(analyzer, tagger)
        self.relation = None
        for m in measures:
            if getattr(m, "relation", None) is not None:
                self.relation = m.relation
                break
        if self.relation is None and getattr(scorer, "synonyms", None) is not None:
            key = analyzer.stem_token if analyzer.stems else None
            self.relation = relation_for(scorer.synonyms, None, key=key)
        self.analyzer = analyzer
        self.tagger = tagger
        #: stem -> the aspects of the run's lexicon it is a one-word entry of ("a|b")
        self.aspects_of = _aspects_of(scorer, analyzer)
        self.selection = str(self.measure.selector)
        self.auxiliaries = bool(auxiliaries)
        self._span_cache: dict[str, list[tuple[int, int, str]]] = {}

    # -- token positions, for highlighting ---------------------------------
    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, stem) of each topic token in ``text``: the tokens
        :meth:`Topic.units` counts (same tagging, selection, tokenizing,
        stopwords), located in the raw text."""
        a = self.analyzer
        stop = a._stopwords
        tokenize = a._tokenize
        select = self.measure.selector.select
        spans = []
        cursor = 0
        for word, tag, upos in annotate(self.tagger, text):
            wpos = text.find(word, cursor)
            if wpos < 0:
                continue
            wend = wpos + len(word)
            cursor = wend
            if not select(tag, upos):
                continue
            sub = wpos
            for tok in tokenize(word):
                hit = re.compile(re.escape(tok), re.IGNORECASE).search(text, sub, wend)
                if hit is None:
                    continue
                sub = hit.end()
                if tok not in stop:
                    spans.append((hit.start(), hit.end(), a.stem_token(tok)))
        return spans

    def _reference_spans(self, text: str) -> list[tuple[int, int, str]]:
        cache = self._span_cache
        got = cache.get(text)
        if got is None:
            if len(cache) >= self.SPAN_CACHE:
                cache.clear()
            got = cache[text] = self.spans(text)
        return got

    # -- one pair ----------------------------------------------------------
    def pair(self, task: str, system: str, candidate: str, references: Sequence[str],
             reference_names: Sequence[str]) -> PairCoverage:
        cand3 = _distinct(self.measure.units(self.analyzer.analyze(candidate, cache=False)))
        result = PairCoverage(counts=dict.fromkeys(("reference", *STATUSES), 0), task=task,
                              system=system, candidate=candidate)
        union = _TaskTopics(len(cand3))
        for k, ref_text in enumerate(references):
            name = reference_names[k] if k < len(reference_names) else f"reference{k + 1}"
            result.references.append(self._against(result, union, cand3, name, ref_text))
        result.reference_topics = union.reference_topics()
        result.candidate_topics = union.candidate_topics(cand3)
        cindex = {stem: i for i, (stem, _, _) in enumerate(cand3)}
        result.candidate_spans = [(s, e, cindex[stem]) for s, e, stem in self.spans(candidate)
                                  if stem in cindex]
        return result

    def _against(self, result: PairCoverage, union: _TaskTopics, cand3: list[tuple[str, str, str]],
                 name: str, ref_text: str) -> ReferenceCoverage:
        """The candidate's topic words against one reference: its CSV rows and
        counts go into ``result``, the statuses into ``union``."""
        task, system = result.task, result.system
        cand = [(stem, word) for stem, word, _ in cand3]
        ref3 = _distinct(self.measure.units(self.analyzer.analyze(ref_text)))
        related = self.relation.tok if self.relation is not None else None
        match = assign(cand, [(stem, word) for stem, word, _ in ref3], related)
        local = dict.fromkeys(("reference", *STATUSES), 0)
        codes = []
        aspects = self.aspects_of.get
        for j, (stem, word, upos) in enumerate(ref3):
            local["reference"] += 1
            if j in match:
                i, kind = match[j]
                result.rows.append((task, system, name, word, kind, cand[i][1], stem, upos, aspects(stem, "")))
            else:
                i, kind = -1, "missed"
                result.rows.append((task, system, name, word, kind, "", stem, upos, aspects(stem, "")))
            union.reference_word(stem, word, upos, kind, i)
            local[kind] += 1
            codes.append(STATUS_CODE[kind])
        used = {i for i, _ in match.values()}
        for i, (stem, word, upos) in enumerate(cand3):
            if i not in used:
                result.rows.append((task, system, name, word, "added", "", stem, upos, aspects(stem, "")))
                local["added"] += 1
        for key, v in local.items():
            result.counts[key] += v
        index = {stem: j for j, (stem, _, _) in enumerate(ref3)}
        spans = [(s, e, index[stem]) for s, e, stem in self._reference_spans(ref_text) if stem in index]
        return ReferenceCoverage(name, ref_text, ref3, "".join(codes), spans, local)


def _aspects_of(scorer: Any, analyzer: Any) -> dict[str, str]:
    """Stem -> the aspects (``|``-joined, lexicon order) whose one-word entries
    it is, for the run's aspect lexicon (empty without one)."""
    lexicon = load_lexicon(getattr(getattr(scorer, "options", None), "aspects", "none"))
    if lexicon is None:
        return {}
    out: dict[str, list[str]] = {}
    for entry in lexicon.top(scorer.options.aspect_top).entries:
        key = analyzer._finish(analyzer._tokenize(entry.text))[0]
        if len(key) == 1 and entry.aspect not in out.setdefault(key[0], []):
            out[key[0]].append(entry.aspect)
    return {stem: "|".join(a) for stem, a in out.items()}


class _TaskTopics:
    """Task-level statuses of a pair's topic words, over its references."""

    def __init__(self, n_candidate: int):
        # stem -> [word, upos, refs, exact refs, synonym refs], in order of first occurrence
        self.reference: dict[str, list[Any]] = {}
        self.cand_exact = [0] * n_candidate
        self.cand_syn = [0] * n_candidate

    def reference_word(self, stem: str, word: str, upos: str, kind: str, cand_index: int) -> None:
        """A reference topic word's status (``kind``) against one reference,
        matched with candidate word ``cand_index`` unless missed."""
        entry = self.reference.get(stem)
        if entry is None:
            entry = self.reference[stem] = [word, upos, 0, 0, 0]
        entry[2] += 1
        if kind == "exact":
            entry[3] += 1
            self.cand_exact[cand_index] += 1
        elif kind == "synonym":
            entry[4] += 1
            self.cand_syn[cand_index] += 1

    def reference_topics(self) -> list[tuple[str, str, str, int, str]]:
        return [(stem, word, upos, n, "exact" if ex else "synonym" if syn else "missed")
                for stem, (word, upos, n, ex, syn) in self.reference.items()]

    def candidate_topics(self, cand3: list[tuple[str, str, str]]) -> list[tuple[str, str, str, int, str]]:
        out = []
        for i, (stem, word, upos) in enumerate(cand3):
            ex, syn = self.cand_exact[i], self.cand_syn[i]
            out.append((stem, word, upos, ex + syn, "exact" if ex else "synonym" if syn else "added"))
        return out


__all__ = ["STATUSES", "STATUS_CODE", "PairCoverage", "ReferenceCoverage", "TopicCoverage", "assign"]
