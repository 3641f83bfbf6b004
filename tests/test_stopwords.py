"""Stopword lists by name and from files."""

from __future__ import annotations

from pathlib import Path

import pytest

from rouge2.analysis.stopwords import load_stopwords
from rouge2.errors import UserError


def test_smart_list_is_the_scripts_list():
    smart = load_stopwords("smart")
    # smart_common_words.txt has 598 lines; "may" and "would" appear twice
    assert len(smart) == 596
    for word in ("the", "a", "reuters", "jan", "ain't", "c'mon", "zero", "'s"):
        assert word in smart
    for word in ("summary", "rouge", "", "The"):
        assert word not in smart
    assert load_stopwords(True) == smart
    assert load_stopwords("SMART") == smart


def test_rouge2_java_list():
    java = load_stopwords("rouge2-java")
    assert len(java) == 318
    for word in ("a", "about", "above", "i'll", "the"):
        assert word in java
    assert "reuters" not in java  # SMART-only entry
    # three entries carry a stray 0x94 byte upstream; decoded as U+FFFD
    assert "herse\ufffd" in java
    assert "herself" not in java


def test_no_stopwords():
    assert load_stopwords(None) == frozenset()
    assert load_stopwords(False) == frozenset()


def test_spacy_list():
    pytest.importorskip("spacy")
    en = load_stopwords("spacy:en")
    assert {"the", "and", "whereas"} <= en
    assert "summary" not in en
    de = load_stopwords("spacy:de")
    assert {"und", "der", "nicht"} <= de


def test_spacy_unknown_language():
    pytest.importorskip("spacy")
    with pytest.raises(UserError, match=r"spacy:qq"):
        load_stopwords("spacy:qq")


def test_file_with_comments_and_blank_lines(tmp_path: Path):
    f = tmp_path / "stop.txt"
    f.write_text(
        "# my stopwords\n"
        "the\n"
        "\n"
        "  of  \n"
        "   # indented comment\n"
        "naïve\n"
        "und\r\n",
        encoding="utf-8",
    )
    assert load_stopwords(f) == frozenset({"the", "of", "naïve", "und"})
    assert load_stopwords(str(f)) == frozenset({"the", "of", "naïve", "und"})


def test_file_with_bom(tmp_path: Path):
    f = tmp_path / "bom.txt"
    f.write_bytes(b"\xef\xbb\xbfthe\nof\n")
    assert load_stopwords(f) == frozenset({"the", "of"})


def test_missing_file(tmp_path: Path):
    missing = tmp_path / "nope.txt"
    with pytest.raises(UserError) as info:
        load_stopwords(str(missing))
    msg = str(info.value)
    assert str(missing) in msg
    assert "not found" in msg
    assert "\n" not in msg


def test_unknown_name_is_treated_as_missing_file():
    with pytest.raises(UserError, match="smrt"):
        load_stopwords("smrt")


def test_bad_encoding_names_file_and_line(tmp_path: Path):
    f = tmp_path / "latin1.txt"
    f.write_bytes("the\n# comment\ncafé\nof\n".encode("latin-1"))
    with pytest.raises(UserError) as info:
        load_stopwords(f)
    msg = str(info.value)
    assert str(f) in msg
    assert "line 3" in msg
    assert "UTF-8" in msg
    assert "\n" not in msg


def test_bad_spec_type():
    with pytest.raises(UserError):
        load_stopwords(42)  # type: ignore[arg-type]
