"""rouge2's copy of nltk's Porter stemmer against nltk itself (the oracle, test-only).

rouge-score stems with ``nltk.stem.porter.PorterStemmer()``;
:mod:`rouge2.analysis.porter_nltk` (the definition) and the C copy in
``rouge2/kernels/rouge_score.h`` must give the same stem for every word:
here on the 215,666 words of the ROUGE-1.5.5 stemmer fixture, every word of
SummEval and Opinosis, every short stem followed by every suffix the rules
know, and generated words.
"""

from __future__ import annotations

import gzip
import itertools
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.stem.porter import PorterStemmer
from shared_data import missing

import rouge2.kernels as kernels
from rouge2.analysis import porter_nltk
from rouge2.analysis.porter_nltk import porter_stem_nltk

NLTK = PorterStemmer()  # the default mode, NLTK_EXTENSIONS, as rouge-score builds it
C_STEM = kernels.nltk_porter_stem  # None without the C kernels
_WORD = re.compile(r"[a-z0-9]+")


def _differences(words) -> list:
    """(word, nltk, ours[, C]) for the words where any two disagree."""
    out = []
    for w in words:
        expected = NLTK.stem(w)
        ours = porter_stem_nltk(w)
        c = C_STEM(w) if C_STEM is not None else ours
        if not expected == ours == c:
            out.append((w, expected, ours, c))
    return out


@pytest.fixture(scope="module")
def vocabulary(shared) -> list[str]:
    """The fixture's words, and every [a-z0-9] word of SummEval and Opinosis (lowercased)."""
    fixture = shared / "fixtures" / "stemmer" / "rouge155_stems.tsv.gz"
    summeval = shared / "data" / "summeval" / "summeval.jsonl"
    opinosis = shared / "data" / "opinosis"
    for path in (fixture, summeval, opinosis):
        if not path.exists():
            missing(path)
    words: set[str] = set()
    with gzip.open(fixture, "rt", encoding="utf-8") as fh:
        words.update(line.split("\t", 1)[0] for line in fh if not line.startswith("#"))
    with open(summeval, encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            texts = [row["src"], *row["ref_summs"], *(s["sys_summ"] for s in row["sys_summs"].values())]
            words.update(_WORD.findall(" ".join(texts).lower()))
    corpus_files = [p for p in opinosis.rglob("*") if p.is_file() and p.suffix in (".gold", ".data", ".txt")]
    for path in corpus_files:
        words.update(_WORD.findall(path.read_text(encoding="utf-8", errors="replace").lower()))
    assert len(corpus_files) > 100
    return sorted(words)


def test_identical_on_the_corpora_vocabularies(vocabulary):
    assert len(vocabulary) > 218_000
    assert _differences(vocabulary) == []


# every suffix the steps look at, and some chains of them
SUFFIXES = sorted({
    "", "s", "ss", "sses", "ies", "ied", "eed", "ed", "ing", "y", "e", "l", "ll",
    "ational", "tional", "enci", "anci", "izer", "bli", "alli", "entli", "eli", "ousli", "ization",
    "ation", "ator", "alism", "iveness", "fulness", "ousness", "aliti", "iviti", "biliti", "fulli",
    "logi", "logy", "lessli", "lessly", "icate", "ative", "alize", "iciti", "ical", "ful", "ness",
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "sion",
    "tion", "ou", "ism", "ate", "iti", "ous", "ive", "ize", "ly", "ally", "fully", "at", "bl", "iz",
    "ating", "bling", "izing", "ated", "izations", "ationally", "yed", "ying", "ely", "alities",
})
LETTERS = "aeiouybclstwxzdgnr0"


def test_identical_on_short_stems_with_every_suffix():
    stems = ["".join(p) for k in range(3) for p in itertools.product(LETTERS, repeat=k)]
    words = [stem + suffix for stem in stems for suffix in SUFFIXES]
    assert len(words) > 30_000
    assert _differences(words) == []


def test_irregular_forms_and_short_words():
    assert _differences(list(porter_nltk.IRREGULAR) + ["a", "is", "as", "yy", "by", "sky", "ies"]) == []
    assert porter_stem_nltk("dying") == "die" and porter_stem_nltk("skies") == "sky"


def test_long_runs_do_not_recurse():
    for word in ("y" * 5000, "ay" * 3000 + "ing", "b" * 5000 + "ies", "yay" * 2000 + "ational"):
        assert _differences([word]) == []


letters = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=14)
built = st.tuples(st.text(alphabet=LETTERS, max_size=5), st.lists(st.sampled_from(SUFFIXES), max_size=3)).map(
    lambda parts: parts[0] + "".join(parts[1]))


@settings(max_examples=3000, deadline=None)
@given(st.one_of(letters, built))
def test_identical_on_generated_words(word):
    assert _differences([word]) == []


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=12))
def test_any_text_is_lowercased_first_as_nltk_does(word):
    assert porter_stem_nltk(word) == NLTK.stem(word)


@settings(max_examples=1000, deadline=None)
@given(st.one_of(letters, built).filter(lambda w: len(w) > 3))
def test_a_stem_is_always_a_token_rouge_score_keeps(word):
    """rouge-score drops a stemmed token unless it matches ^[a-z0-9]+$; no stem of a token is dropped."""
    assert _WORD.fullmatch(porter_stem_nltk(word))


@pytest.mark.skipif(C_STEM is None, reason="C kernels not built")
def test_c_stemmer_takes_only_its_alphabet():
    for bad in ("Cats", "caf\u00e9", "a-b", "x y"):
        with pytest.raises(ValueError):
            C_STEM(bad)
