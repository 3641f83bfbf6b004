"""The C stemmer (porter155.h, _speedups.Rouge155Stemmer) against the Python definition.

Differential tests: ``porter_stem`` and ``rouge155_stem_uncached`` in
rouge2/analysis/stem.py are the definition; the C versions must give the
same string on every word of the bundled word lists, on the SummEval
vocabulary and on generated words.  The script's own outputs are checked in
tests/test_stemmer.py.  Tests of the C versions are skipped when the
extension is not built; the memo's behaviour is tested on both paths.
"""

from __future__ import annotations

import gzip
import json
import re
import string

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from shared_data import DATA, FULL, STEMMER_FIXTURE, missing
from test_speedups import _speedups, needs_c

from rouge2 import kernels
from rouge2.analysis import stem as stem_mod
from rouge2.analysis.stem import (
    EXCEPTION_FILES,
    exception_table,
    porter_stem,
    rouge155_stem,
    rouge155_stem_uncached,
)
from rouge2.data import read_resource
from rouge2.kernels import python as py_kernels

WORD = re.compile(r"[a-z0-9]+")


def _c_porter(word: str) -> str:
    return _speedups.porter155_stem(word)


def _fresh_c(**kw):
    return _speedups.Rouge155Stemmer(exception_table, rouge155_stem_uncached, **kw)


def _diff(words, *, porter=True):
    """Words on which C and Python disagree (porter stem, then -m stem)."""
    c = _fresh_c()
    bad = []
    for w in words:
        if porter and "\n" not in w and w.isascii() and _c_porter(w) != porter_stem(w):
            bad.append(("porter", w, _c_porter(w), porter_stem(w)))
        if c.stem(w) != rouge155_stem_uncached(w):
            bad.append(("-m", w, c.stem(w), rouge155_stem_uncached(w)))
    return bad


# -- (a) the bundled exception lists: every field of every line


def _exception_words() -> set[str]:
    words: set[str] = set()
    for name in EXCEPTION_FILES:
        for line in read_resource("rouge155", name).decode("latin-1").splitlines():
            words.update(line.split())
    return words


@needs_c
def test_exception_lists_every_word_and_form():
    words = _exception_words() | set(exception_table()) | set(exception_table().values())
    assert len(words) > 8000
    # the forms as listed (some hold '_' or '-'), their [a-z0-9] pieces, upper-cased
    pieces = {p for w in words for p in WORD.findall(w)}
    upper = {w.upper() for w in words} | {w.capitalize() for w in words}
    bad = _diff(sorted(words | pieces | upper))
    assert not bad, f"{len(bad)} mismatches, first: {bad[:10]}"


# -- (b) vocabularies: SummEval, the bundled word lists, the script-stemmed fixture


@needs_c
def test_summeval_vocabulary():
    path = DATA / "data" / "summeval" / "summeval.jsonl"
    if not path.exists():
        missing(path)
    vocab: set[str] = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            texts = [row["src"], *row["ref_summs"], *row["sys_summs"].values()]
            for t in texts:
                text = t if isinstance(t, str) else json.dumps(t)
                vocab.update(kernels.py_rouge155_tokens(text))
                vocab.update(text.split())  # raw whitespace words: case, punctuation, non-ASCII
    assert len(vocab) > (5_000 if FULL else 2_000)  # 100 documents, or the 12 of the excerpt
    bad = _diff(sorted(vocab))
    assert not bad, f"{len(bad)} mismatches, first: {bad[:10]}"


def _resource_words() -> set[str]:
    words: set[str] = set()
    for folder, name in [("rouge155", "smart_common_words.txt"), ("stopwords", "rouge2-java-default.txt")]:
        words.update(read_resource(folder, name).decode("latin-1").split())
    for name in ("lemmas-wn30.tsv.gz", "exceptions-wn30.tsv.gz"):
        text = gzip.decompress(read_resource("wordnet", name)).decode("utf-8")
        for line in text.splitlines():
            if line and not line.startswith("#"):
                fields = line.split("\t")
                words.add(fields[0])
                if len(fields) > 2:
                    words.update(fields[2].split())
    return words


@needs_c
def test_resource_word_lists():
    words = _resource_words()
    assert len(words) > 80_000
    pieces = {p for w in words for p in WORD.findall(w.lower())}
    bad = _diff(sorted(words | pieces))
    assert not bad, f"{len(bad)} mismatches, first: {bad[:10]}"


@needs_c
def test_script_stemmed_fixture_words():
    path = STEMMER_FIXTURE
    if not path.exists():
        missing(path)
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        words = [line.split("\t", 1)[0] for line in fh if line.strip() and not line.startswith("#")]
    bad = _diff(words)
    assert not bad, f"{len(bad)} mismatches, first: {bad[:10]}"


# -- (c) generated words and edge cases

EDGE = [
    "", "a", "y", "s", "ss", "is", "ye", "yy", "sky", "yes", "ies", "eed", "sses", "ing", "ed",
    "ying", "yed", "yyy", "yyyy", "Yyyy", "YES", "y0y", "000", "0", "1234567", "0s", "0ies",
    "agreed", "feed", "bleed", "caresses", "ponies", "ties", "caress", "cats", "hopping",
    "filing", "falling", "hissing", "fizzed", "failing", "sized", "conflated", "troubled",
    "happy", "sky", "relational", "conditional", "rational", "valenci", "hesitanci",
    "digitizer", "conformabli", "radicalli", "differentli", "vileli", "analogousli",
    "vietnamization", "predication", "operator", "feudalism", "decisiveness", "hopefulness",
    "callousness", "formaliti", "sensitiviti", "sensibiliti", "triplicate", "formative",
    "formalize", "electriciti", "electrical", "hopeful", "goodness", "revival", "allowance",
    "inference", "airliner", "gyroscopic", "adjustable", "defensible", "irritant",
    "replacement", "adjustment", "dependent", "adoption", "homologou", "communism",
    "activate", "angulariti", "homologous", "effective", "bowdlerize", "probate", "rate",
    "cease", "controll", "roll", "yelling", "yttrium", "beyond", "toy", "toys", "played",
    "sion", "tion", "ment", "ent", "ement", "ation", "ational", "aaaa", "bbbb", "xyzzy",
    "a" * 200, "ab" * 100 + "ational", "y" + "ing" * 50, "sses" * 40,
]


def _c_or_python_stemmer(**kw):
    return kernels.rouge155_stemmer(exception_table, rouge155_stem_uncached, **kw)


@needs_c
@pytest.mark.parametrize("word", EDGE)
def test_edge_cases(word):
    assert _c_porter(word) == porter_stem(word)
    assert _fresh_c().stem(word) == rouge155_stem_uncached(word)


@needs_c
@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=string.ascii_lowercase + string.digits, max_size=30))
@example("yies")
@example("yeed")
def test_generated_words(word):
    assert _c_porter(word) == porter_stem(word)
    assert _fresh_c().stem(word) == rouge155_stem_uncached(word)


# letters that drive the rules, so short random words hit many of them
RULES = "aeiouyslbdtnmgrczw"


@needs_c
@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=RULES, max_size=12),
       st.sampled_from(["", "s", "es", "ies", "sses", "ed", "eed", "ing", "y", "ational", "ement",
                        "ment", "ent", "sion", "tion", "e", "ll", "izer", "iveness", "ical"]))
def test_generated_suffixed_words(stem, suffix):
    word = stem + suffix
    assert _c_porter(word) == porter_stem(word)
    assert _fresh_c().stem(word) == rouge155_stem_uncached(word)


@needs_c
@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=string.printable + "ÀéßY\u0130", max_size=16))
def test_any_text_token(word):
    # uppercase, punctuation, newlines and non-ASCII: C or its fallback, same result
    if "\n" not in word and word.isascii():
        assert _c_porter(word) == porter_stem(word)
    assert _fresh_c().stem(word) == rouge155_stem_uncached(word)


@needs_c
def test_porter155_refuses_what_it_does_not_take():
    with pytest.raises(ValueError):
        _speedups.porter155_stem("ab\n")
    with pytest.raises(ValueError):
        _speedups.porter155_stem("café")
    with pytest.raises(TypeError):
        _speedups.porter155_stem(b"cats")


# -- the memo and the table, both paths


@pytest.mark.parametrize("impl", ["c", "python"])
def test_memo_is_bounded_and_answers_stay_right(impl):
    if impl == "c" and _speedups is None:
        pytest.skip("C extension not built")
    make = _speedups.Rouge155Stemmer if impl == "c" else py_kernels.MemoStemmer
    stemmer = make(exception_table, rouge155_stem_uncached, memo_limit=3)
    words = ["cats", "running", "is", "better", "Generalization", "ponies", "cats", "ABLE"] * 3
    for w in words:
        assert stemmer.stem(w) == rouge155_stem_uncached(w)
        assert 1 <= stemmer.memo_size <= 3
    assert stemmer.memo_limit == 3
    stemmer.clear()
    assert stemmer.memo_size == 0
    with pytest.raises(ValueError):
        make(exception_table, rouge155_stem_uncached, memo_limit=0)


@pytest.mark.parametrize("impl", ["c", "python"])
def test_stem_many(impl):
    if impl == "c" and _speedups is None:
        pytest.skip("C extension not built")
    make = _speedups.Rouge155Stemmer if impl == "c" else py_kernels.MemoStemmer
    stemmer = make(exception_table, rouge155_stem_uncached)
    tokens = ["the", "cats", "is", "were", "running", "Axe", "axes", "", "best"]
    assert stemmer.stem_many(tokens) == [rouge155_stem_uncached(t) for t in tokens]
    # min_length=4: the script's rule (stem_rouge155_token)
    assert stemmer.stem_many(tokens, 4) == [stem_mod.stem_rouge155_token(t) for t in tokens]
    assert stemmer.stem_many(()) == []


@needs_c
def test_table_loader_called_once_on_first_need():
    calls = []

    def load():
        calls.append(1)
        return exception_table()

    stemmer = _speedups.Rouge155Stemmer(load, rouge155_stem_uncached)
    assert calls == []
    assert stemmer.stem("") == ""  # needs no table
    assert calls == []
    assert stemmer.stem("went") == "go"
    assert stemmer.stem("testes") == "testes"
    assert stemmer.stem("cats") == "cat"
    assert calls == [1]


@needs_c
def test_fallback_only_for_tokens_c_does_not_take():
    seen = []

    def fallback(token):
        seen.append(token)
        return rouge155_stem_uncached(token)

    stemmer = _speedups.Rouge155Stemmer(exception_table(), fallback)
    for w in ["cats", "Running", "a-b", "x y", "ab\n", "cafés", "ÉTÉS"]:
        assert stemmer.stem(w) == rouge155_stem_uncached(w)
    assert seen == ["ab\n", "cafés", "ÉTÉS"]


@needs_c
def test_bad_arguments():
    with pytest.raises(TypeError):
        _speedups.Rouge155Stemmer(42, rouge155_stem_uncached)
    with pytest.raises(TypeError):
        _speedups.Rouge155Stemmer({}, None)
    with pytest.raises(TypeError):
        _speedups.Rouge155Stemmer(lambda: [], rouge155_stem_uncached).stem("cats")
    stemmer = _fresh_c()
    with pytest.raises(TypeError):
        stemmer.stem(3)
    with pytest.raises(TypeError):
        stemmer.stem_many(["cats", None])


def test_rouge155_stem_dispatch():
    # one place chooses: the registry's stemmer is the kernels' choice
    expected = _speedups.Rouge155Stemmer if kernels.HAVE_C else py_kernels.MemoStemmer
    assert isinstance(stem_mod.ROUGE155, expected)
    assert stem_mod.STEMMERS.get("rouge155").stem == rouge155_stem
    assert rouge155_stem("Generalizations") == rouge155_stem_uncached("Generalizations")


# -- the exception table's fast line split is Perl's split(/\s+/) as _perl_split has it

WS_AND_TEXT = " \t\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u2028\u3000ab_-é"


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=WS_AND_TEXT, max_size=12))
@example("   ")
@example(" a b ")
@example("")
def test_fast_perl_split(line):
    assert stem_mod._fast_perl_split(line) == stem_mod._perl_split(line)


def test_every_character_re_calls_space_is_a_str_split_space():
    space = re.compile(r"\s")
    assert all(bool(space.fullmatch(chr(c))) == chr(c).isspace() for c in range(0x110000))


def test_exception_table_as_split_by_the_regex():
    table: dict[str, str] = {}
    for name in EXCEPTION_FILES:
        lines = read_resource("rouge155", name).decode("latin-1").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        for line in lines:
            fields = stem_mod._perl_split(line)
            table[fields[0] if fields else ""] = fields[1] if len(fields) > 1 else ""
    assert exception_table() == table


# -- the analyzer stems a token list in one call with the ROUGE-1.5.5 stemmer


def test_analyzer_batch_path_equals_per_token_path():
    from rouge2.analysis.analyzer import Analyzer

    assert stem_mod.batch_stemmer(rouge155_stem) is not None
    assert stem_mod.batch_stemmer(rouge155_stem_uncached) is None
    assert stem_mod.batch_stemmer(None) is None
    texts = [
        "The cats were running; Generalizations ABOUT 3 ponies is BETTER.",
        "He went to the agreements\nyelling 'yes' at 1234 skies.",
        "a an axe axes AXES Axes",
        "",
    ]
    batch = Analyzer(stemmer=rouge155_stem, stem_min_length=4, cache=False)
    single = Analyzer(stemmer=lambda t: rouge155_stem_uncached(t), stem_min_length=4, cache=False)
    assert batch._stem_many is not None and single._stem_many is None
    for text in texts:
        a, b = batch.analyze(text), single.analyze(text)
        assert a.tokens == b.tokens
        assert a.sentences == b.sentences
        assert a.surface == b.surface


@needs_c
def test_uninitialised_object_and_a_fallback_that_changes_the_list():
    bare = _speedups.Rouge155Stemmer.__new__(_speedups.Rouge155Stemmer)
    with pytest.raises(RuntimeError):
        bare.stem("cats")
    with pytest.raises(RuntimeError):
        bare.stem_many(["cats"])
    assert bare.memo_size == 0
    bare.clear()

    tokens = ["cats", "café", "dogs", "ponies"]

    def shrinking(token):
        del tokens[1:]
        return rouge155_stem_uncached(token)

    stemmer = _speedups.Rouge155Stemmer(exception_table, shrinking)
    with pytest.raises(RuntimeError):
        stemmer.stem_many(tokens)
