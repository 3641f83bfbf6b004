"""Other languages: the Unicode tokenizer, Snowball stemmers, stopword lists by name.

The Persian pair is the Java ROUGE 2.0 sample project's task 2, which the
Java tool and ROUGE-1.5.5's byte rules both score 0.
"""

from collections import Counter

import pytest

import rouge2
from rouge2.analysis.tokenize import unicode_tokens

PROJECT = ("data", "rouge2_java", "v1.2.2", "projects", "test-summarization")
PUNCT = "…،,.()؟?:!؛«»\"'"


@pytest.fixture(scope="module")
def persian(shared):
    base = shared.joinpath(*PROJECT)
    system = (base / "system" / "task2_persianSyssum1.txt").read_text(encoding="utf-8")
    reference = (base / "reference" / "task2_persianReference1.txt").read_text(encoding="utf-8")
    return system, reference


def whitespace_words(text):
    """An independent count: split at whitespace (and BOMs), strip punctuation, casefold."""
    out = []
    for chunk in text.replace("\ufeff", " ").split():
        word = chunk.strip(PUNCT)
        if word:
            out.append(word.casefold())
    return out


def test_persian_pair_scores_with_unicode_tokenizer(persian):
    system, reference = persian
    sys_words, ref_words = whitespace_words(system), whitespace_words(reference)
    assert (len(sys_words), len(ref_words)) == (220, 550)
    hit = sum((Counter(sys_words) & Counter(ref_words)).values())
    assert hit == 215
    s = rouge2.score(system, reference, ["rouge-1"], tokenizer="unicode")["rouge-1"]
    assert s.recall == pytest.approx(hit / len(ref_words))  # 0.390909
    assert s.precision == pytest.approx(hit / len(sys_words))  # 0.977273
    assert s.recall > 0.3 and s.precision > 0.9
    # The tokenizer keeps the zero-width non-joiner inside words (واکنش‌ها is one word).
    assert unicode_tokens(system) == sys_words
    assert "واکنش\u200cها" in sys_words


def test_persian_pair_has_no_tokens_with_rouge155_tokenizer(persian):
    system, reference = persian
    from rouge2.analysis.tokenize import rouge155_tokens

    assert rouge155_tokens(system) == [] and rouge155_tokens(reference) == []
    s = rouge2.score(system, reference, ["rouge-1", "rouge-l"])
    assert all(v == (0.0, 0.0, 0.0) for v in s.values())


def test_persian_stopwords_by_name(persian):
    pytest.importorskip("spacy")
    from spacy.lang.fa.stop_words import STOP_WORDS

    system, reference = persian
    sys_words = [w for w in whitespace_words(system) if w not in STOP_WORDS]
    ref_words = [w for w in whitespace_words(reference) if w not in STOP_WORDS]
    hit = sum((Counter(sys_words) & Counter(ref_words)).values())
    s = rouge2.score(system, reference, ["rouge-1"], tokenizer="unicode", stopwords="spacy:fa")["rouge-1"]
    assert len(sys_words) < 220 and len(ref_words) < 550
    assert (s.recall, s.precision) == (pytest.approx(hit / len(ref_words)), pytest.approx(hit / len(sys_words)))


def test_snowball_german_stemming():
    cand = "Die Häuser der Katzen"
    ref = "das Haus der Katze"
    plain = rouge2.score(cand, ref, ["rouge-1"], tokenizer="unicode")["rouge-1"]
    stemmed = rouge2.score(cand, ref, ["rouge-1"], tokenizer="unicode", stem="snowball:german")["rouge-1"]
    assert plain.recall == 0.25  # only "der"
    # häuser, haus -> haus; katzen, katze -> katz; die/das stay different
    assert stemmed.recall == 0.75 and stemmed.precision == 0.75


def test_unicode_tokenizer_case_folds_any_script():
    assert unicode_tokens("Straße STRASSE") == ["strasse", "strasse"]
    assert unicode_tokens("ΣΟΦΙΑ σοφία") == ["σοφια", "σοφία"]
    assert unicode_tokens("Число 42, число!") == ["число", "42", "число"]


@pytest.mark.parametrize("text, ref", [("café au lait", "café noir"), ("Ā ā", "Ā"),
                                       ("東京 大阪\n京都", "東京 京都"), ("naïve über", "über naïve")])
def test_word_limit_keeps_non_ascii_words_whole(text, ref):
    # a word limit above the word count changes nothing (it once decoded the
    # text as if it were bytes: "café" became "caf", "Ā" a traceback)
    import rouge2

    for limit in (20, 100):
        assert (rouge2.score(text, [ref], ("rouge-1", "rouge-l"), tokenizer="unicode", word_limit=limit)
                == rouge2.score(text, [ref], ("rouge-1", "rouge-l"), tokenizer="unicode"))
    first = rouge2.score(text, [ref], ("rouge-1",), tokenizer="unicode", word_limit=1)["rouge-1"]
    # the limit applies to both: one word each, the same word or not
    assert first.precision == (1.0 if text.split()[0] == ref.split()[0] else 0.0)
