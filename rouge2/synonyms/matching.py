"""Clipped, order-independent matching of units with synonyms.

Every measure with synonyms asks the same question: given the unit counts
of a candidate and of a reference (tokens, n-grams, skip-bigrams) and a
relation saying which units may stand for each other, how many units can be
matched if each unit *occurrence* is used at most once?  That is a maximum
bipartite b-matching, computed here exactly as a maximum flow over the
distinct unit types::

    source --count--> candidate type --(equal or related)--> reference type --count--> sink

Because every occurrence is used at most once, the result never exceeds the
candidate's total nor the reference's total, so precision and recall stay
within [0, 1].  Without synonyms (only equality relates units) it is the
usual clipped count ``sum(min(c[u], r[u]))``.  The result is the maximum
matching size, which is unique, so it does not depend on the order in which
units or edges are visited.

Taking exact matches first is *not* optimal in general: with candidate
``{a, b}``, reference ``{a, c}`` and synonyms a~c, b~a, exact-first matches
a-a and then nothing (1), the maximum is a-c, b-a (2).  Exact matches are
taken up front only where it is provably safe (a type whose candidate or
reference side has no synonym edge: any maximum matching can be rearranged
to match it exactly as often as possible); augmenting paths do the rest.

Relations
---------
``related(u, v)`` may be any symmetric predicate; it is asked about pairs of
distinct units only (equal units always match).  For speed, use
:class:`PositionwiseRelation` (or :func:`relation_for`): it relates tokens,
and n-gram tuples of equal length position by position (every position equal
or related), and enumerates related pairs through neighbour lists instead of
testing every pair.

Stemming: synonym resources list words, not stems, so the measure layer
counts units over the *unstemmed* lowercased word forms and passes the
stemmer as ``key``: two tokens are then related when their stems are equal
(what plain ROUGE counts as a match) or when the words are synonyms.  With
only the ``key`` relation, the result equals the clipped count over stems.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from itertools import product
from typing import Any, TypeVar

from rouge2.kernels import clipped_hits
from rouge2.synonyms.base import SynonymMatcher

__all__ = ["PositionwiseRelation", "max_matching", "ordered_matching", "relation_for"]

U = TypeVar("U", bound=Hashable)


def max_matching(
    cand_counts: Mapping[U, int],
    ref_counts: Mapping[U, int],
    related: Callable[[U, U], bool] | None = None,
) -> int:
    """Maximum number of matched unit occurrences, each used at most once.

    A candidate unit ``u`` may match a reference unit ``v`` when ``u == v`` or
    ``related(u, v)``.  ``related=None`` means equality only.  If ``related``
    has a ``pairs(cand_types, ref_types)`` method (as
    :class:`PositionwiseRelation` does) it is used to list the related pairs
    of distinct units; otherwise every pair is tested.
    """
    cand = {u: c for u, c in cand_counts.items() if c > 0}
    ref = {v: r for v, r in ref_counts.items() if r > 0}
    if not cand or not ref:
        return 0
    if related is None:
        return clipped_hits(cand, ref)

    pairs = getattr(related, "pairs", None)
    if pairs is not None:
        syn_edges = [(u, v) for u, v in pairs(cand, ref) if u != v]
    else:
        syn_edges = [(u, v) for u in cand for v in ref if u != v and related(u, v)]
    if not syn_edges:
        return clipped_hits(cand, ref)

    has_syn_c = {u for u, _ in syn_edges}
    has_syn_r = {v for _, v in syn_edges}
    total = 0
    # Safe exact matches: a side without synonym edges has only its exact
    # partner, and any maximum matching can be rearranged to use that edge
    # min(c, r) times.
    for u, c in cand.items():
        r = ref.get(u)
        if r and (u not in has_syn_c or u not in has_syn_r):
            m = c if c < r else r
            total += m
            cand[u] = c - m
            ref[u] = r - m
    cand = {u: c for u, c in cand.items() if c > 0}
    ref = {v: r for v, r in ref.items() if r > 0}
    if not cand or not ref:
        return total
    syn_edges = [(u, v) for u, v in syn_edges if u in cand and v in ref]
    if not syn_edges:
        return total + clipped_hits(cand, ref)
    return total + _max_flow(cand, ref, syn_edges)


def _max_flow(cand: dict[U, int], ref: dict[U, int], syn_edges: list[tuple[U, U]]) -> int:
    """Maximum b-matching on the bipartite type graph (exact + synonym edges)."""
    c_ids = {u: i for i, u in enumerate(cand)}
    r_ids = {v: j for j, v in enumerate(ref)}
    rem_c = list(cand.values())  # unused candidate occurrences per type
    rem_r = list(ref.values())  # unused reference occurrences per type
    adj: list[list[int]] = [[] for _ in rem_c]
    for u, i in c_ids.items():
        j = r_ids.get(u)
        if j is not None:
            adj[i].append(j)  # exact edge first: greedy start prefers it
    for u, v in syn_edges:
        adj[c_ids[u]].append(r_ids[v])
    # flow[j][i]: occurrences of candidate type i matched to reference type j.
    flow: list[dict[int, int]] = [{} for _ in rem_r]

    # Greedy start; augmenting paths correct any bad choice.
    total = _greedy_flow(adj, rem_c, rem_r, flow)
    # Augment (BFS, shortest paths) until no path from a free candidate
    # occurrence to a free reference occurrence remains.
    while True:
        path = _augmenting_path(adj, rem_c, rem_r, flow)
        if path is None:
            break
        total += _augment(path, rem_c, rem_r, flow)
    return total


def _greedy_flow(adj: list[list[int]], rem_c: list[int], rem_r: list[int],
                 flow: list[dict[int, int]]) -> int:
    """Each candidate type takes what its neighbours (exact first) have left."""
    total = 0
    for i, nbrs in enumerate(adj):
        for j in nbrs:
            if not rem_c[i]:
                break
            m = min(rem_c[i], rem_r[j])
            if m:
                rem_c[i] -= m
                rem_r[j] -= m
                flow[j][i] = flow[j].get(i, 0) + m
                total += m
    return total


#: an augmenting path: (its free reference type, reference type -> the candidate type
#: reached from, candidate type -> the reference type it was reached through, -1 at a start)
_Path = tuple[int, dict[int, int], dict[int, int]]


def _augmenting_path(adj: list[list[int]], rem_c: list[int], rem_r: list[int],
                     flow: list[dict[int, int]]) -> _Path | None:
    """A shortest path (BFS) from a candidate type with free occurrences to a
    reference type with free occurrences, or None.  Forward edges have
    unbounded capacity; a backward step j -> i needs flow[j][i] > 0."""
    starts = [i for i, c in enumerate(rem_c) if c > 0]
    if not starts:
        return None
    par_c: dict[int, int] = {i: -1 for i in starts}
    par_r: dict[int, int] = {}
    queue = deque(starts)
    while queue:
        i = queue.popleft()
        for j in adj[i]:
            if j in par_r:
                continue
            par_r[j] = i
            if rem_r[j] > 0:
                return j, par_r, par_c
            for i2, f in flow[j].items():
                if f > 0 and i2 not in par_c:
                    par_c[i2] = j
                    queue.append(i2)
    return None


def _augment(path: _Path, rem_c: list[int], rem_r: list[int], flow: list[dict[int, int]]) -> int:
    """Pushes the path's bottleneck along it; returns the bottleneck."""
    end, par_r, par_c = path
    delta = rem_r[end]
    j = end
    while True:
        i = par_r[j]
        pj = par_c[i]
        if pj < 0:
            delta = min(delta, rem_c[i])
            break
        delta = min(delta, flow[pj][i])
        j = pj
    rem_r[end] -= delta
    j = end
    while True:
        i = par_r[j]
        flow[j][i] = flow[j].get(i, 0) + delta
        pj = par_c[i]
        if pj < 0:
            rem_c[i] -= delta
            break
        flow[pj][i] -= delta
        j = pj
    return delta


def ordered_matching(
    ref_seq: Sequence[U],
    cand_counts: Mapping[U, int],
    related: Callable[[U, U], bool] | None = None,
) -> list[bool]:
    """Which reference occurrences are matched, taken greedily in reference order.

    ``ref_seq`` lists reference unit occurrences in order (ROUGE-W: the
    marked positions of the reference sentences, sentence after sentence).
    Each occurrence is *kept* when it can be matched together with the ones
    kept before it, every candidate occurrence used at most once (units
    match when equal or ``related``): an augmenting path may move earlier
    occurrences to other candidate words, but never drops one.

    The sets of reference occurrences that can be matched at once are the
    independent sets of a transversal matroid, so this greedy pass keeps a
    *maximum* number of occurrences, ``max_matching(cand_counts,
    Counter(ref_seq), related)`` of them (and, among maximum sets, the
    earliest in reference order).  With equality only, an occurrence is kept
    exactly when the candidate still has an unused copy of its unit, which
    is ROUGE-1.5.5's clipping for ROUGE-L and ROUGE-W.
    """
    out = [False] * len(ref_seq)
    rem = {u: c for u, c in cand_counts.items() if c > 0}
    if not rem or not ref_seq:
        return out
    adj = _reference_neighbours(rem, dict.fromkeys(ref_seq, 1), related)
    users: dict[U, dict[U, int]] = {u: {} for u in rem}  # candidate unit -> {reference unit: matched}
    for k, v in enumerate(ref_seq):
        first = adj[v]
        if not first:
            continue
        if rem[first[0]] > 0:  # the common case: no path needed
            u = first[0]
            rem[u] -= 1
            users[u][v] = users[u].get(v, 0) + 1
            out[k] = True
        else:
            out[k] = _augment_from(v, adj, rem, users)
    return out


def _reference_neighbours(rem: dict[U, int], ref_types: dict[U, int],
                          related: Callable[[U, U], bool] | None) -> dict[U, list[U]]:
    """Reference unit -> the candidate units it may match: itself first, if the
    candidate has it, then the related ones."""
    adj: dict[U, list[U]] = {v: ([v] if v in rem else []) for v in ref_types}
    if related is not None:
        pairs = getattr(related, "pairs", None)
        if pairs is not None:
            edges = pairs(rem, ref_types)
        else:
            edges = [(u, v) for u in rem for v in ref_types if u != v and related(u, v)]
        for u, v in edges:
            if u != v:
                adj[v].append(u)
    return adj


def _augment_from(v: U, adj: dict[U, list[U]], rem: dict[U, int], users: dict[U, dict[U, int]]) -> bool:
    """Matches one more occurrence of reference unit ``v`` through an augmenting
    path v -> u -> v' -> u' ... (breadth-first), moving earlier occurrences to
    other candidate units; False when there is none."""
    par_u: dict[U, U] = {}
    par_v: dict[U, U | None] = {v: None}
    queue = deque([v])
    end = None
    while queue and end is None:
        x = queue.popleft()
        for u in adj[x]:
            if u in par_u:
                continue
            par_u[u] = x
            if rem[u] > 0:
                end = u
                break
            for y, f in users[u].items():
                if f > 0 and y not in par_v:
                    par_v[y] = u
                    queue.append(y)
    if end is None:
        return False
    rem[end] -= 1
    u = end
    while True:
        x = par_u[u]
        users[u][x] = users[u].get(x, 0) + 1
        prev = par_v[x]
        if prev is None:
            break
        users[prev][x] -= 1
        u = prev
    return True


class PositionwiseRelation:
    """Relation on tokens, and on equal-length token tuples position by position.

    Two tokens ``a``, ``b`` are related when ``a == b``, ``key(a) == key(b)``
    (``key`` is e.g. the stemmer; default: none) or ``token_related(a, b)``.
    Two tuples are related when they have the same length and every position
    is related.  ``lookup(pool)``, if given, must return a function giving,
    for a token ``a``, every ``b`` of ``pool`` with ``token_related(a, b)``
    (it may include ``a``); :meth:`pairs` builds it once per reference and
    looks related units up instead of testing all pairs.  ``neighbors(a)``
    (every ``b`` with ``token_related(a, b)``, set-like) is the older form of
    the same help, used when ``lookup`` is not given.

    ``token_related`` must be symmetric for the matching to be symmetric.
    """

    #: :meth:`pairs` enumerates combinations of related tokens up to this many
    #: per candidate tuple, and scans the reference beyond it.
    product_limit = 64

    def __init__(
        self,
        token_related: Callable[[str, str], bool],
        neighbors: Callable[[str], Collection[str]] | None = None,
        key: Callable[[str], Hashable] | None = None,
        lookup: Callable[[Collection[str]], Callable[[str], Iterable[str]]] | None = None,
    ):
        self.token_related = token_related
        self.neighbors = neighbors
        self.lookup = lookup
        self.key = key
        self._memo: dict[tuple[str, str], bool] = {}

    # -- tokens ---------------------------------------------------------
    def tok(self, a: str, b: str) -> bool:
        if a == b:
            return True
        key = self.key
        if key is not None and key(a) == key(b):
            return True
        memo = self._memo
        k = (a, b)
        hit = memo.get(k)
        if hit is None:
            if len(memo) > 1_000_000:
                memo.clear()
            hit = memo[k] = bool(self.token_related(a, b))
        return hit

    def __call__(self, u: Any, v: Any) -> bool:
        if isinstance(u, tuple):
            if not isinstance(v, tuple) or len(u) != len(v):
                return False
            tok = self.tok
            return all(tok(a, b) for a, b in zip(u, v))
        return self.tok(u, v)

    def _index(self, pool: Collection[str]) -> Callable[[str], set[str]]:
        """A function: token ``a`` -> the tokens of ``pool`` related to it (``a`` included if present)."""
        key = self.key
        by_key: dict[Hashable, list[str]] | None = None
        if key is not None and (self.lookup is not None or self.neighbors is not None):
            by_key = {}
            for t in pool:
                by_key.setdefault(key(t), []).append(t)
        look: Callable[[str], Iterable[str]]
        if self.lookup is not None:
            look = self.lookup(pool)
        elif self.neighbors is not None:
            look = _pool_neighbours(self.neighbors, pool)
        else:
            tok = self.tok
            return lambda a: {t for t in pool if tok(a, t)}

        def related(a: str) -> set[str]:
            out = set(look(a))
            if a in pool:
                out.add(a)
            if by_key is not None and key is not None:
                out.update(by_key.get(key(a), ()))
            return out

        return related

    def pairs(self, cand: Mapping[Any, int], ref: Mapping[Any, int]) -> list[tuple[Any, Any]]:
        """All ``(u, v)``, ``u`` in ``cand``, ``v`` in ``ref``, ``u != v``, related."""
        if not cand or not ref:
            return []
        sample = next(iter(cand))
        if not isinstance(sample, tuple):
            ref_set = ref.keys() if isinstance(ref, dict) else set(ref)
            related_in = self._index(ref_set)
            return [(u, v) for u in cand for v in related_in(u) if v != u]
        return self._tuple_pairs(cand, ref)

    def _tuple_pairs(self, cand: Mapping[tuple[str, ...], int],
                     ref: Mapping[tuple[str, ...], int]) -> list[tuple[Any, Any]]:
        """:meth:`pairs` of n-gram tuples: the tokens of the reference related to
        each candidate token, then either every combination of those looked up
        in ``ref`` (few synonyms: the usual case) or a scan of the reference
        units that share a related first token."""
        pool: set[str] = set()
        by_first: dict[str, list[tuple[str, ...]]] = {}
        for v in ref:
            if v:
                pool.update(v)
                by_first.setdefault(v[0], []).append(v)
        related_in = self._index(pool)
        near: dict[str, set[str]] = {}

        def related_tokens(a: str) -> set[str]:
            got = near.get(a)
            if got is None:
                got = near[a] = related_in(a)
            return got

        out: list[tuple[Any, Any]] = []
        for u in cand:
            if not u:
                continue
            sets = [related_tokens(a) for a in u]
            size = 1
            for s in sets:
                size *= len(s)
            if not size:
                continue
            if size <= self.product_limit:
                out.extend((u, combo) for combo in product(*sets) if combo != u and combo in ref)
                continue
            n = len(u)
            rest = sets[1:]
            for h in sets[0]:
                for v in by_first.get(h, ()):
                    if v != u and len(v) == n and all(v[k + 1] in rest[k] for k in range(n - 1)):
                        out.append((u, v))
        return out


def _pool_neighbours(nb: Callable[[str], Collection[str]],
                     pool: Collection[str]) -> Callable[[str], Iterable[str]]:
    """``look(a)``: the neighbours ``nb(a)`` that are in ``pool`` (the smaller side scanned)."""

    def look(a: str) -> Iterable[str]:
        near = nb(a)
        if not near:
            return ()
        if len(near) <= len(pool):
            return [t for t in near if t in pool]
        return [t for t in pool if t in near]

    return look


def relation_for(matcher: SynonymMatcher, pos: str | None = None,
                 key: Callable[[str], Hashable] | None = None) -> PositionwiseRelation:
    """A :class:`PositionwiseRelation` from a :class:`~rouge2.synonyms.SynonymMatcher`.

    ``pos`` is passed to the matcher for every token pair (``None``: any part
    of speech); ``key`` is the stemmer when stemming is on (see the module
    docs: units are then unstemmed lowercased words).
    """
    return PositionwiseRelation(
        lambda a, b: matcher.matches(a, b, pos),
        neighbors=lambda a: matcher.neighbors(a, pos),
        key=key,
        lookup=lambda pool: matcher.lookup(pool, pos),
    )
