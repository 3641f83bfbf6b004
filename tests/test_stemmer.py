"""The ROUGE-1.5.5 stemmer against words stemmed by the original script."""

from __future__ import annotations

import gzip

import pytest
from shared_data import FULL, STEMMER_FIXTURE, missing

from rouge2.analysis import stem as stem_mod
from rouge2.analysis.stem import (
    exception_table,
    porter_stem,
    rouge155_stem,
    snowball_stemmer,
    stem_rouge155_token,
)
from rouge2.errors import UserError

FIXTURE = STEMMER_FIXTURE  # all 215,666 words with shared/, else the bundled sample


def _rows():
    if not FIXTURE.exists():
        missing(FIXTURE)
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as fh:
        rows = [
            line.rstrip("\n").split("\t")
            for line in fh
            if line.strip() and not line.startswith("#")
        ]
    assert all(len(r) == 3 for r in rows)
    return rows


@pytest.fixture(scope="module")
def rows():
    return _rows()


def test_fixture_is_complete(rows):
    assert len(rows) == (215_666 if FULL else 14_246)  # the sample: every 20th word and every -m exception


def test_porter_stem_matches_script_on_every_word(rows):
    bad = [(w, s, porter_stem(w)) for w, s, _ in rows if porter_stem(w) != s]
    assert not bad, f"{len(bad)} mismatches, first: {bad[:10]}"


def test_morph_stem_matches_script_on_every_word(rows):
    stem_mod.ROUGE155.clear()
    bad = [(w, m, rouge155_stem(w)) for w, _, m in rows if rouge155_stem(w) != m]
    assert not bad, f"{len(bad)} mismatches, first: {bad[:10]}"
    # second pass answers from the cache and must agree too
    assert all(rouge155_stem(w) == m for w, _, m in rows[:5000])


# Outputs below were produced by running the original script's stem() and its
# -m lookup (WordNet-2.0.exc.db) on these words; they cover cases the fixture
# (all words longer than 3 characters, all lowercase) does not.
SCRIPT_OUTPUTS = [
    # word, stem(), -m
    ("a", "a", "a"),
    ("is", "is", "be"),
    ("as", "as", "as"),
    ("yes", "ye", "ye"),
    ("ye", "ye", "ye"),
    ("sky", "sky", "sky"),
    ("yelled", "yell", "yell"),
    ("Yelling", "Yell", "yell"),
    ("yelling", "yell", "yell"),
    ("ABLE", "ABLE", "abl"),
    ("Running", "Run", "run"),
    ("gasses", "gass", "gas"),
    ("testes", "test", "testes"),
    ("best", "best", "good"),
    ("better", "better", "good"),
    ("axes", "ax", "ax"),
    ("lying", "ly", "lie"),
    ("yyyy", "yyyi", "yyyi"),
    ("happy", "happi", "happi"),
    ("agreement", "agreem", "agreem"),
    ("replacement", "replac", "replac"),
    ("government", "govern", "govern"),
    ("SKIES", "SKIES", "ski"),
    ("youth", "youth", "youth"),
    ("quizzes", "quizz", "quiz"),
    ("generalization", "gener", "gener"),
    ("conditional", "condit", "condit"),
]


@pytest.mark.parametrize("word,stem,morph", SCRIPT_OUTPUTS)
def test_script_outputs_outside_fixture(word, stem, morph):
    assert porter_stem(word) == stem
    assert rouge155_stem(word) == morph


def test_exception_precedence_matches_shipped_db():
    table = exception_table()
    # keys in more than one .exc file: the shipped DB keeps these values
    assert table["best"] == "good"  # adj over adv
    assert table["better"] == "good"  # adj over adv
    assert table["is"] == "be"  # verb over noun
    assert table["testes"] == "testes"  # verb over noun
    assert table["gasses"] == "gas"
    # repeated key inside noun.exc / adj.exc: the later line wins
    assert table["involucra"] == "involucrum"
    assert table["offer"] == "offer"
    # the shipped DB has 5,930 keys
    assert len(table) == 5930


def test_only_tokens_longer_than_three_are_stemmed():
    assert stem_rouge155_token("is") == "is"  # exception exists, but too short
    assert stem_rouge155_token("Axe") == "Axe"  # not even lowercased
    assert stem_rouge155_token("axes") == "ax"
    assert stem_rouge155_token("best") == "good"
    assert stem_rouge155_token("cats") == "cat"


def test_snowball_stemmer():
    en = snowball_stemmer("english")
    assert en("running") == "run"
    assert en("generously") == "generous"
    de = snowball_stemmer("German")
    assert de("katzen") == "katz"


def test_snowball_unknown_language():
    with pytest.raises(UserError) as info:
        snowball_stemmer("klingon")
    msg = str(info.value)
    assert "klingon" in msg and "english" in msg and "german" in msg
    assert "\n" not in msg
