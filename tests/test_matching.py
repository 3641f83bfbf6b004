"""max_matching: the exact maximum clipped matching with synonyms."""

from __future__ import annotations

from collections import Counter
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from rouge2.synonyms import DictionaryMatcher, PositionwiseRelation, max_matching, relation_for

ALPHABET = "abcde"
PAIRS = [(x, y) for i, x in enumerate(ALPHABET) for y in ALPHABET[i + 1:]]


def brute_force(cand: dict, ref: dict, related) -> int:
    """Exhaustive search over occurrences: each occurrence used at most once."""
    cs = [u for u, c in sorted(cand.items(), key=repr) for _ in range(c)]
    rs = [v for v, r in sorted(ref.items(), key=repr) for _ in range(r)]

    @cache
    def best(i: int, used: int) -> int:
        if i == len(cs):
            return 0
        top = best(i + 1, used)  # leave candidate occurrence i unmatched
        for j, v in enumerate(rs):
            if not used >> j & 1 and (cs[i] == v or related(cs[i], v)):
                top = max(top, 1 + best(i + 1, used | 1 << j))
        return top

    return best(0, 0)


def sym_relation(edges):
    es = {frozenset(e) for e in edges}
    return lambda u, v: frozenset((u, v)) in es


counts = st.dictionaries(st.sampled_from(ALPHABET), st.integers(0, 3), max_size=5)
edges = st.sets(st.sampled_from(PAIRS), max_size=len(PAIRS))


def small(d: dict, limit: int = 8) -> dict:
    out, total = {}, 0
    for k, v in d.items():
        v = min(v, limit - total)
        if v > 0:
            out[k] = v
            total += v
    return out


def test_exact_first_is_not_enough():
    # exact-first takes a-a and then cannot use b~a or a~c: 1; the maximum is 2.
    rel = sym_relation([("a", "c"), ("a", "b")])
    assert max_matching({"a": 1, "b": 1}, {"a": 1, "c": 1}, rel) == 2
    assert brute_force({"a": 1, "b": 1}, {"a": 1, "c": 1}, rel) == 2


def test_no_relation_is_clipped_count():
    c = {"the": 3, "cat": 1, "sat": 2}
    r = {"the": 2, "cat": 2, "mat": 1}
    assert max_matching(c, r) == 2 + 1
    assert max_matching(c, r, lambda u, v: False) == 3
    assert max_matching({}, r) == 0 and max_matching(c, {}) == 0
    assert max_matching({"a": 0}, {"a": 5}) == 0


def test_counts_are_clipped_with_synonyms():
    rel = sym_relation([("screen", "display")])
    # Two 'screen' in the candidate, one 'display' in the reference: one match.
    assert max_matching({"screen": 2}, {"display": 1}, rel) == 1
    assert max_matching({"display": 1}, {"screen": 2}, rel) == 1
    # One reference occurrence cannot be matched twice (exact and synonym).
    assert max_matching({"screen": 1, "display": 1}, {"display": 1}, rel) == 1


@settings(max_examples=400, deadline=None)
@given(counts, counts, edges)
def test_against_brute_force(cand, ref, es):
    cand, ref = small(cand), small(ref)
    rel = sym_relation(es)
    got = max_matching(cand, ref, rel)
    assert got == brute_force(cand, ref, rel)
    # Never more than either side: P, R <= 1.
    assert got <= sum(cand.values()) and got <= sum(ref.values())
    # At least the plain clipped count; symmetric in the two sides.
    assert got >= max_matching(cand, ref)
    assert got == max_matching(ref, cand, rel)


@settings(max_examples=200, deadline=None)
@given(counts, counts, edges, edges)
def test_monotone_in_the_relation(cand, ref, es1, es2):
    small_rel = sym_relation(es1)
    big_rel = sym_relation(es1 | es2)
    assert max_matching(cand, ref, small_rel) <= max_matching(cand, ref, big_rel)


def _ngrams(tokens, n):
    return Counter(zip(*(tokens[i:] for i in range(n))))


bigram_texts = st.lists(st.sampled_from(ALPHABET), min_size=0, max_size=6)


@settings(max_examples=300, deadline=None)
@given(bigram_texts, bigram_texts, edges, st.integers(1, 3))
def test_ngrams_positionwise(ctoks, rtoks, es, n):
    tok_rel = sym_relation(es)
    nbrs = {}
    for x, y in es:
        nbrs.setdefault(x, set()).add(y)
        nbrs.setdefault(y, set()).add(x)
    fast = PositionwiseRelation(tok_rel, neighbors=lambda a: nbrs.get(a, ()))
    slow = PositionwiseRelation(tok_rel)  # no neighbour lists: tests every pair
    scan = PositionwiseRelation(tok_rel, neighbors=lambda a: nbrs.get(a, ()))
    scan.product_limit = 0  # always the scan path of pairs()

    def plain(u, v):  # a generic callable without .pairs
        return len(u) == len(v) and all(a == b or tok_rel(a, b) for a, b in zip(u, v))

    c, r = _ngrams(ctoks, n), _ngrams(rtoks, n)
    expect = brute_force(dict(c), dict(r), plain)
    assert max_matching(c, r, fast) == expect
    assert max_matching(c, r, slow) == expect
    assert max_matching(c, r, scan) == expect
    assert max_matching(c, r, plain) == expect
    assert expect <= min(sum(c.values()), sum(r.values()))


def _stem(w: str) -> str:
    return w[:-1] if w.endswith("s") else w


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["cat", "cats", "dog", "dogs", "hound"]), max_size=7),
    st.lists(st.sampled_from(["cat", "cats", "dog", "dogs", "hound"]), max_size=7),
    st.integers(1, 2),
)
def test_stem_key_without_synonyms_equals_clipped_stems(ctoks, rtoks, n):
    rel = PositionwiseRelation(lambda a, b: False, neighbors=lambda a: (), key=_stem)
    got = max_matching(_ngrams(ctoks, n), _ngrams(rtoks, n), rel)
    stems = max_matching(_ngrams([_stem(t) for t in ctoks], n), _ngrams([_stem(t) for t in rtoks], n))
    assert got == stems


def test_stem_key_with_synonyms():
    d = DictionaryMatcher.from_groups([["dog", "hound"]], lemmas=False)
    rel = relation_for(d, key=_stem)
    # 'dogs' stems to 'dog' (exact); 'hound' is a synonym of the word 'dog'.
    assert max_matching({"dogs": 1, "hound": 1}, {"dog": 2}, rel) == 2
    # Synonyms are decided on words: 'hounds' is not listed, its stem is not asked.
    assert max_matching({"hounds": 1}, {"dog": 1}, rel) == 0
    # Lemma-aware: WordNet's base form of 'hounds' is 'hound', a synonym of 'dog'.
    lemma_rel = relation_for(DictionaryMatcher.from_groups([["dog", "hound"]]), key=_stem)
    assert max_matching({"hounds": 1}, {"dog": 1}, lemma_rel) == 1


def test_bigrams_with_wordnet():
    from rouge2.synonyms import WordNetMatcher

    rel = relation_for(WordNetMatcher(), pos="NN")
    c = Counter([("bright", "screen"), ("screen", "is")])
    r = Counter([("bright", "display"), ("display", "is")])
    assert max_matching(c, r, rel) == 2
    assert max_matching(c, r) == 0


def test_large_mostly_exact_input():
    words = [f"w{i}" for i in range(3000)]
    cand = Counter(words[:2500] + ["screen"] * 3)
    ref = Counter(words[500:] + ["display"] * 2)
    d = DictionaryMatcher.from_groups([["screen", "display"], ["w1", "w2999"]])
    rel = relation_for(d)
    assert max_matching(cand, ref, rel) == 2000 + 2 + 1


def kuhn(cand: dict, ref: dict, related) -> int:
    """Occurrence-level maximum bipartite matching (Kuhn's augmenting paths)."""
    cs = [u for u, c in cand.items() for _ in range(c)]
    rs = [v for v, r in ref.items() for _ in range(r)]
    adj = [[j for j, v in enumerate(rs) if u == v or related(u, v)] for u in cs]
    owner = [-1] * len(rs)

    def augment(i, seen):
        for j in adj[i]:
            if j not in seen:
                seen.add(j)
                if owner[j] < 0 or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return sum(augment(i, set()) for i in range(len(cs)))


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.integers(0, 14), st.integers(1, 4), max_size=15),
    st.dictionaries(st.integers(0, 14), st.integers(1, 4), max_size=15),
    st.sets(st.tuples(st.integers(0, 14), st.integers(0, 14)), max_size=40),
)
def test_medium_instances_against_kuhn(cand, ref, es):
    rel = sym_relation(es)
    assert max_matching(cand, ref, rel) == kuhn(cand, ref, rel)


# --------------------------------------------------------------------------
# ordered_matching: ROUGE-W's clipping with synonyms (greedy in reference order)

from rouge2.synonyms import ordered_matching  # noqa: E402

ref_seqs = st.lists(st.sampled_from(ALPHABET), max_size=9)


@settings(max_examples=300, deadline=None)
@given(counts, ref_seqs, edges)
def test_ordered_matching_keeps_a_maximum_matching(cand, seq, es):
    cand = small(cand)
    rel = sym_relation(es)
    kept = ordered_matching(seq, cand, rel)
    assert sum(kept) == max_matching(cand, Counter(seq), rel) == brute_force(cand, dict(Counter(seq)), rel)
    # Greedy in reference order: an occurrence is kept exactly when it can be
    # matched together with the occurrences kept before it.
    before: Counter = Counter()
    for k, v in enumerate(seq):
        fits = max_matching(cand, before + Counter([v]), rel) == sum(before.values()) + 1
        assert kept[k] == fits, (k, v)
        if kept[k]:
            before[v] += 1


@settings(max_examples=200, deadline=None)
@given(counts, ref_seqs)
def test_ordered_matching_without_synonyms_is_the_scripts_clipping(cand, seq):
    left = dict(cand)
    expected = []
    for v in seq:
        ok = left.get(v, 0) > 0
        expected.append(ok)
        if ok:
            left[v] -= 1
    assert ordered_matching(seq, cand) == expected
    assert ordered_matching(seq, cand, sym_relation([])) == expected


def test_ordered_matching_moves_earlier_matches():
    # display ~ screen, panel; monitor ~ screen.  'display' first takes
    # 'screen'; 'monitor' is kept by moving 'display' to 'panel'.
    rel = sym_relation([("display", "screen"), ("display", "panel"), ("monitor", "screen")])
    assert ordered_matching(["display", "monitor"], {"screen": 1, "panel": 1}, rel) == [True, True]
