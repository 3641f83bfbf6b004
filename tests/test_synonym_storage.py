"""Dictionary storage: group ids and stars, linear memory, same relation as the naive reading."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rouge2
from rouge2.synonyms import DictionaryMatcher, load_synonyms
from rouge2.synonyms.dictionary import parse_dictionary
from rouge2.synonyms.lemmas import morphy_data

# Bytes per entry allowed while loading.  The group-id design peaks near
# 190 (a dict entry, the word, its group id); storing every word's whole
# neighbour set peaks above 190,000 per word for a 2,000-word group, and
# grows with the group.
BYTES_PER_WORD = 400


def _peak_per_word(path, n: int) -> float:
    """Peak bytes per entry of parsing the file's bytes into the stored relation.

    The file is read first: reading is not the dictionary's design, and
    rouge2.files.read_bytes allocates its size limit up front (a constant).
    """
    data = path.read_bytes()
    tracemalloc.start()
    try:
        groups = parse_dictionary(data, str(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(groups) >= n
    return peak / n


@pytest.mark.parametrize("n", [2_000, 100_000])
def test_one_big_group_loads_in_linear_memory(tmp_path, n):
    p = tmp_path / "big.txt"
    p.write_text(", ".join(f"w{i}" for i in range(n)) + "\n", encoding="utf-8")
    assert _peak_per_word(p, n) < BYTES_PER_WORD
    d = DictionaryMatcher(p)
    assert len(d.groups.members) == 1
    assert d.matches("w0", f"w{n - 1}") and d.matches(f"w{n // 2}", "w1")
    assert not d.matches("w0", "v0")
    assert len(d.neighbors("w7")) == n - 1


@pytest.mark.parametrize("n", [2_000, 100_000])
def test_one_big_headword_line_loads_in_linear_memory(tmp_path, n):
    p = tmp_path / "star.txt"
    p.write_text("head\t" + ", ".join(f"w{i}" for i in range(n)) + "\n", encoding="utf-8")
    assert _peak_per_word(p, n) < BYTES_PER_WORD
    d = DictionaryMatcher(p)
    assert d.matches("head", f"w{n - 1}") and d.matches("w3", "head")
    assert not d.matches("w0", "w1")


def test_scoring_with_a_100000_word_group(tmp_path):
    n = 100_000
    p = tmp_path / "big.txt"
    p.write_text(", ".join(f"w{i}" for i in range(n)) + "\nhead\t" + ", ".join(f"v{i}" for i in range(n)) + "\n",
                 encoding="utf-8")
    scorer = rouge2.Scorer(["rouge-1", "rouge-2", "rouge-l", "rouge-su4"], synonyms=str(p))
    out = scorer.score("w1 w2 the head v5", "w99999 w7 the v3 head")
    # unigrams: w1~w99999, w2~w7, the, head~v3, v5~head; bigrams: w1 w2 ~ w99999 w7,
    # w2 the ~ w7 the, the head ~ the v3, head v5 ~ v3 head
    assert out["rouge-1"].recall == 1.0 and out["rouge-2"].recall == 1.0
    assert out["rouge-l"].recall == 1.0


def test_identical_groups_are_stored_once():
    d = DictionaryMatcher.from_text("a, b, c\nc, b, a\nb, a, c, a\na, b\n")
    assert len(d.groups.members) == 2  # {a, b, c} once, {a, b}
    assert d.matches("a", "c") and d.matches("b", "a")
    g = DictionaryMatcher.from_groups([["x", "y"], ["Y", "X"]])
    assert len(g.groups.members) == 1


# --------------------------------------------------------------------------
# the relation equals the naive reading of the file, on random dictionaries

VOCAB = ["screen", "screens", "display", "displays", "monitor", "buy", "bought", "purchase",
         "purchased", "cheap", "cheaper", "inexpensive", "a", "b", "c"]

group_line = st.lists(st.sampled_from(VOCAB), min_size=2, max_size=5).filter(lambda ws: len(set(ws)) > 1)
head_line = st.tuples(st.sampled_from(VOCAB), st.lists(st.sampled_from(VOCAB), min_size=1, max_size=4))
lines = st.lists(st.one_of(group_line, head_line), min_size=1, max_size=6)


def _text(entries) -> str:
    out = []
    for e in entries:
        if isinstance(e, tuple):
            out.append(f"{e[0]}\t{', '.join(e[1])}")
        else:
            out.append(", ".join(e))
    return "\n".join(out) + "\n"


def _naive_pairs(entries) -> set:
    rel = set()
    for e in entries:
        if isinstance(e, tuple):
            head, words = e
            for w in words:
                if w != head:
                    rel |= {(head, w), (w, head)}
        else:
            rel |= {(x, y) for x in e for y in e if x != y}
    return rel


@settings(max_examples=150, deadline=None)
@given(lines, st.booleans())
def test_relation_equals_naive_reading(entries, lemmas):
    d = DictionaryMatcher.from_text(_text(entries), lemmas=lemmas)
    rel = _naive_pairs(entries)
    morphy = morphy_data()

    def forms(w):
        return morphy.forms(w) if lemmas else (w,)

    def naive(a, b):
        return a == b or any(x != y and (x, y) in rel for x in forms(a) for y in forms(b))

    pool = set(VOCAB)
    for pos in (None, "NN", "DT"):
        look = d.lookup(pool, pos)
        for a in VOCAB:
            got = set(look(a)) - {a}
            expected = set()
            for b in VOCAB:
                want = naive(a, b) if pos != "DT" else (a == b or (a, b) in rel)
                if pos == "NN" and lemmas:
                    fa, fb = morphy.forms(a, "n"), morphy.forms(b, "n")
                    want = a == b or any(x != y and (x, y) in rel for x in fa for y in fb)
                assert d.matches(a, b, pos) == want, (a, b, pos)
                if want and b != a:
                    expected.add(b)
            assert got == expected, (a, pos)
    if not lemmas:
        for a in VOCAB:
            assert d.neighbors(a) == {b for b in VOCAB if (a, b) in rel}


@settings(max_examples=60, deadline=None)
@given(st.lists(group_line, min_size=1, max_size=6))
def test_inline_groups_equal_the_same_file(groups):
    inline = DictionaryMatcher.from_groups(groups)
    file = DictionaryMatcher.from_text(_text(groups))
    for a in VOCAB:
        for b in VOCAB:
            assert inline.matches(a, b) == file.matches(a, b)


def test_load_synonyms_inline_groups_use_the_same_structure():
    m = load_synonyms([["screen", "display"], ["display", "show"]])
    assert isinstance(m, DictionaryMatcher) and len(m.groups.members) == 2
    assert m.matches("screen", "display") and not m.matches("screen", "show")
