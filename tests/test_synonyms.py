"""Synonym layer: WordNet resource, user dictionaries, combination, load_synonyms."""

from __future__ import annotations

import gzip
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from rouge2.errors import UserError
from rouge2.synonyms import (
    DictionaryMatcher,
    SynonymMatcher,
    UnionMatcher,
    WordNetMatcher,
    coarse_pos,
    load_synonyms,
    max_matching,
    relation_for,
)
from rouge2.synonyms.wordnet import parse_resource

RESOURCE_DIR = Path(__file__).resolve().parents[1] / "resources" / "wordnet"
RESOURCE = RESOURCE_DIR / "synonyms-wn30.tsv.gz"


@pytest.fixture(scope="module")
def wn() -> WordNetMatcher:
    return WordNetMatcher()


# --------------------------------------------------------------------------
# WordNet


def test_paper_example_screen_display(wn):
    # Ganesan 2018, Example 1.1: 'display' and 'screen' mean the same thing.
    assert wn.matches("screen", "display")
    assert wn.matches("display", "screen")
    assert wn.matches("Screen", "DISPLAY", "NN")
    assert wn.matches("screens", "screens", "NNS")
    assert wn.matches("screen", "display", "n")
    # Under the verb reading they are not related, nor for a function-word tag.
    assert not wn.matches("screen", "display", "VB")
    assert not wn.matches("screen", "display", "DT")
    assert "display" in wn.neighbors("screen", "NN")


def test_other_parts_of_speech(wn):
    assert wn.matches("buy", "purchase", "VBP")
    assert wn.matches("purchase", "buy", "v")
    assert wn.matches("clear", "transparent", "JJ")
    assert wn.matches("clear", "transparent", "s")  # satellite code reads as adjective
    assert not wn.matches("clear", "transparent", "NN")
    assert not wn.matches("quickly", "rapidly")  # adverbs are not in the resource


def test_identity_always_matches(wn):
    for word in ("screen", "zzzz-not-a-word", "the", "", "Ünïcode"):
        for pos in (None, "NN", "VB", "JJ", "DT", "RB", "x"):
            assert wn.matches(word, word, pos)
    assert wn.matches("The", "the", "DT")


def test_symmetry_over_random_pairs(wn):
    table = wn.table
    rng = random.Random(20180)
    words = {p: sorted(table[p]) for p in table}
    all_words = sorted(set().union(*words.values()))
    checked = 0
    for pos in ("n", "v", "a"):
        for a in rng.sample(words[pos], 400):
            nbrs = sorted(table[pos][a])
            assert a not in nbrs
            for b in rng.sample(nbrs, min(3, len(nbrs))):
                assert wn.matches(a, b, pos) and wn.matches(b, a, pos)
                assert wn.matches(a, b) and wn.matches(b, a)
                assert a in wn.neighbors(b, pos)
                checked += 1
    # Random (mostly unrelated) pairs, under every pos argument.
    for _ in range(5000):
        a, b = rng.choice(all_words), rng.choice(all_words)
        for pos in (None, "NN", "VBD", "JJ", "RB"):
            assert wn.matches(a, b, pos) == wn.matches(b, a, pos)
    assert checked > 1000


def test_loader_symmetrises_asymmetric_input():
    data = b"# test\nscreen\tn\tdisplay monitor\nfast\ta\tquick\n"
    table = parse_resource(data, "test")
    assert table["n"]["display"] == {"screen"}
    assert table["n"]["monitor"] == {"screen"}
    assert table["a"]["quick"] == {"fast"}


def test_loader_rejects_bad_lines():
    with pytest.raises(UserError, match=r"bad:2: expected"):
        parse_resource(b"# c\nscreen display\n", "bad")


def test_custom_resource_path(tmp_path):
    p = tmp_path / "mini.tsv"
    p.write_text("car\tn\tauto\n", encoding="utf-8")
    m = WordNetMatcher(p)
    assert m.matches("auto", "car", "NN")
    assert not m.matches("screen", "display")
    assert m.name == "wordnet-file:mini.tsv"


def test_resource_file_format_and_counts():
    raw = RESOURCE.read_bytes()
    assert len(raw) < 3_000_000
    assert raw[:2] == b"\x1f\x8b"
    assert raw[4:8] == b"\0\0\0\0"  # gzip mtime 0: rebuilding gives the same bytes
    text = gzip.decompress(raw).decode("utf-8")
    lines = text.split("\n")
    assert lines[-1] == ""
    header = [l for l in lines if l.startswith("#")]
    body = [l for l in lines[:-1] if not l.startswith("#")]
    keys = []
    for line in body:
        word, pos, syns = line.split("\t")
        assert pos in ("n", "v", "a")
        assert word == word.lower() and "_" not in word and " " not in word
        items = syns.split(" ")
        assert items == sorted(set(items)) and word not in items
        assert all(s == s.lower() and "_" not in s for s in items)
        keys.append((word, pos))
    assert keys == sorted(keys)
    # The counts written in the header agree with the data.
    counts = dict(
        (m.group(1), (int(m.group(2)), int(m.group(3))))
        for m in re.finditer(r"(\w+) (\d+) headwords (\d+) pairs", next(h for h in header if "counts" in h))
    )
    per_pos = Counter(pos for _, pos in keys)
    directed = Counter()
    for line in body:
        _, pos, syns = line.split("\t")
        directed[pos] += len(syns.split(" "))
    for pos in ("n", "v", "a"):
        assert counts[pos] == (per_pos[pos], directed[pos] // 2)
    # Shipped file is symmetric as written (the loader would fix it anyway).
    rel = {}
    for line in body:
        word, pos, syns = line.split("\t")
        rel[(word, pos)] = set(syns.split(" "))
    for (word, pos), syns in rel.items():
        for s in syns:
            assert word in rel[(s, pos)]


def test_licence_shipped():
    text = (RESOURCE_DIR / "LICENSE-WordNet-3.0.txt").read_text(encoding="ascii")
    assert "WordNet 3.0 Copyright 2006 by Princeton University.  All rights reserved." in text
    assert "Permission to use, copy, modify and distribute" in text
    readme = (RESOURCE_DIR / "README.md").read_text(encoding="utf-8")
    assert "greater than 3" in readme


def _tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


REF = "The phone is very lightweight.\nThe display is also very bright and clear."
SYS1 = "Lightweight phone.\nBright screen.\nScreen is very clear."
SYS2 = (
    "I really love this phone it is just superb, it is extremely lightweight.\n"
    "Hmmm, this was actually a gift to my girlfriend and I do feel that the screen is quite nice and\n"
    "extremely bright.\nIn terms of screen, the screen is really clear and crisp."
)


@pytest.mark.parametrize(
    "cand, ref, recall, precision, recall_syn, precision_syn",
    [
        # Ganesan 2018, Tables 1 and 2 (ROUGE-1, with and without synonyms).
        (SYS1, REF, 0.462, 0.750, 0.538, 0.875),
        (SYS2, REF, 0.692, 0.196, 0.769, 0.217),
        # ROUGE-1 + StopWordRemoval for SysSum1, stop words removed by hand.
        ("lightweight phone bright screen screen clear", "phone lightweight display bright clear",
         0.800, 0.667, 1.000, 0.833),
    ],
)
def test_paper_table_2_rouge1_synonyms(wn, cand, ref, recall, precision, recall_syn, precision_syn):
    c, r = Counter(_tokens(cand)), Counter(_tokens(ref))
    nc, nr = sum(c.values()), sum(r.values())
    plain = max_matching(c, r)
    syn = max_matching(c, r, relation_for(wn))
    assert (round(plain / nr, 3), round(plain / nc, 3)) == (recall, precision)
    assert (round(syn / nr, 3), round(syn / nc, 3)) == (recall_syn, precision_syn)


# --------------------------------------------------------------------------
# coarse_pos


@pytest.mark.parametrize(
    "tag, expected",
    [(None, None), ("NN", "n"), ("nns", "n"), ("NNP", "n"), ("NNPS", "n"), ("VB", "v"),
     ("VBZ", "v"), ("JJ", "a"), ("JJR", "a"), ("JJS", "a"), ("RB", "r"), ("n", "n"),
     ("v", "v"), ("a", "a"), ("s", "a"), ("r", "r"), ("NOUN", "n"), ("PROPN", "n"),
     ("ADJ", "a"), ("MD", ""), ("WRB", ""), ("DT", ""), ("NNX", ""), ("", "")],
)
def test_coarse_pos(tag, expected):
    assert coarse_pos(tag) == expected


# --------------------------------------------------------------------------
# dictionaries


def _write(tmp_path: Path, content: bytes | str, name: str = "syn.txt") -> Path:
    p = tmp_path / name
    p.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return p


def test_dictionary_group_formats(tmp_path):
    p = _write(
        tmp_path,
        "# phone words\n"
        "\n"
        "screen, display, monitor\n"
        "Cheap inexpensive   # trailing comment\n"
        "   \n"
        "big,,large,\n",
    )
    d = DictionaryMatcher(p)
    assert d.matches("screen", "monitor") and d.matches("monitor", "display")
    assert d.matches("CHEAP", "Inexpensive")
    assert d.matches("big", "large")
    assert not d.matches("screen", "cheap")
    assert not d.matches("comment", "trailing")
    assert len(d) == 7


def test_dictionary_headword_format_is_not_transitive(tmp_path):
    p = _write(tmp_path, "screen\tdisplay, monitor\nmonitor\tsupervise\n")
    d = DictionaryMatcher(p)
    assert d.matches("screen", "display") and d.matches("display", "screen")
    assert d.matches("monitor", "screen")
    assert not d.matches("display", "monitor")  # listed words are not related to each other
    assert d.matches("monitor", "supervise")
    assert not d.matches("screen", "supervise")  # no transitivity across lines
    assert d.neighbors("screen") == {"display", "monitor"}


def test_dictionary_tab_without_commas_and_crlf_bom(tmp_path):
    p = _write(tmp_path, b"\xef\xbb\xbfcar\tauto automobile\r\n# x\r\n\ttruck lorry\r\n")
    d = DictionaryMatcher(p)
    assert d.matches("car", "automobile") and d.matches("auto", "car")
    assert d.matches("truck", "lorry")
    assert not d.matches("auto", "automobile")


def test_dictionary_unicode_words(tmp_path):
    d = DictionaryMatcher(_write(tmp_path, "Écran, affichage\n"))
    assert d.matches("écran", "affichage")


def test_dictionary_pos_is_ignored(tmp_path):
    d = DictionaryMatcher(_write(tmp_path, "the, a\n"))
    assert d.matches("the", "a", "DT") and d.matches("a", "the", "NN")


@pytest.mark.parametrize(
    "content, line, pattern",
    [
        ("screen, display\nmobile, cell phone\n", 2, "'cell phone' is a multi-word entry"),
        ("# c\n\nscreen\n", 3, "needs at least two different words"),
        ("screen, screen\n", 1, "needs at least two different words"),
        ("ok, fine\nscreen\t\n", 2, "has no synonyms after the TAB"),
        ("ok, fine\nscreen\t , \n", 2, "has no synonyms after the TAB"),
        ("cell phone\tmobile\n", 1, "'cell phone' is a multi-word entry"),
        ("phone\tmobile, cell phone\n", 1, "'cell phone' is a multi-word entry"),
    ],
)
def test_dictionary_errors_name_file_and_line(tmp_path, content, line, pattern):
    p = _write(tmp_path, content)
    with pytest.raises(UserError) as err:
        DictionaryMatcher(p)
    msg = str(err.value)
    assert msg.startswith(f"{p}:{line}: ")
    assert pattern in msg
    assert "\n" not in msg


def test_dictionary_invalid_utf8_names_line_and_column(tmp_path):
    p = _write(tmp_path, b"ok, fine\n# comment\nscr\xe9en, display\n")
    with pytest.raises(UserError) as err:
        DictionaryMatcher(p)
    msg = str(err.value)
    assert msg.startswith(f"{p}:3: not valid UTF-8")
    assert "0xe9" in msg and "column 4" in msg and "save the file as UTF-8" in msg


def test_dictionary_missing_file_and_folder(tmp_path):
    with pytest.raises(UserError, match="synonym dictionary not found"):
        DictionaryMatcher(tmp_path / "nope.txt")
    with pytest.raises(UserError, match="is a folder"):
        DictionaryMatcher(tmp_path)


def test_dictionary_signature_follows_content(tmp_path):
    a = DictionaryMatcher(_write(tmp_path, "a, b\n", "d1.txt"))
    b = DictionaryMatcher(_write(tmp_path, "a, b\n", "d2.txt"))
    c = DictionaryMatcher(_write(tmp_path, "a, c\n", "d3.txt"))
    assert a.version == b.version != c.version
    assert a.signature == f"dict:d1.txt@{a.version}/lemmas"
    assert DictionaryMatcher(tmp_path / "d1.txt", lemmas=False).signature == f"dict:d1.txt@{a.version}"
    assert len(a.version) == 12


def test_inline_groups():
    d = DictionaryMatcher.from_groups([["screen", "display"], ("cheap", "Inexpensive")])
    assert d.matches("display", "screen") and d.matches("inexpensive", "cheap")
    with pytest.raises(UserError, match="synonym group 2: 'cell phone' is a multi-word entry"):
        DictionaryMatcher.from_groups([["a", "b"], ["mobile", "cell phone"]])
    with pytest.raises(UserError, match="synonym group 1: a synonym group needs at least two"):
        DictionaryMatcher.from_groups([["a"]])


# --------------------------------------------------------------------------
# combination and load_synonyms


def test_union_on_top_of_wordnet(tmp_path):
    p = _write(tmp_path, "lol, haha\n")
    u = load_synonyms(["wordnet", p])
    assert isinstance(u, UnionMatcher)
    assert u.matches("lol", "haha") and u.matches("haha", "lol")
    assert u.matches("screen", "display", "NN")
    assert not u.matches("screen", "display", "VB")
    assert u.neighbors("screen", "NN") >= {"display"}
    assert u.signature.startswith("wordnet-3.0@r1/lemmas+dict:syn.txt@")
    assert load_synonyms(["wordnet", p], lemmas=False).signature.startswith("wordnet-3.0@r1+dict:syn.txt@")


def test_dictionary_instead_of_wordnet(tmp_path):
    d = load_synonyms(str(_write(tmp_path, "lol, haha\n")))
    assert isinstance(d, DictionaryMatcher)
    assert d.matches("lol", "haha")
    assert not d.matches("screen", "display")


def test_load_synonyms_specs(tmp_path, wn):
    assert load_synonyms(None) is None
    assert load_synonyms(False) is None
    assert load_synonyms([]) is None
    assert isinstance(load_synonyms(True), WordNetMatcher)
    assert load_synonyms(True) is load_synonyms("WordNet")  # one shared, lazily loaded resource
    assert load_synonyms(wn) is wn
    inline = load_synonyms([["screen", "monitor"], ["cheap", "inexpensive"]])
    assert isinstance(inline, DictionaryMatcher) and inline.matches("monitor", "screen")
    both = load_synonyms([True, ["foo", "bar"]])
    assert both.matches("foo", "bar") and both.matches("screen", "display")
    # Nested unions flatten, repeats are dropped.
    again = UnionMatcher([both, load_synonyms(True)])
    assert len(again.members) == 2
    with pytest.raises(UserError, match="unknown synonym source"):
        load_synonyms(42)
    with pytest.raises(UserError, match="synonym dictionary not found"):
        load_synonyms(str(tmp_path / "missing.txt"))


def test_matcher_contract_on_all_kinds(tmp_path, wn):
    d = DictionaryMatcher(_write(tmp_path, "screen, monitor\n"))
    for m in (wn, d, UnionMatcher([wn, d])):
        assert isinstance(m, SynonymMatcher)
        assert isinstance(m.name, str) and isinstance(m.version, str)
        for a, b in [("screen", "monitor"), ("screen", "display"), ("x", "y"), ("a", "a")]:
            for pos in (None, "NN", "VB"):
                assert m.matches(a, b, pos) == m.matches(b, a, pos)
