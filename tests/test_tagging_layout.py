"""Topic words do not depend on layout (issue 18, item 6): a text's sentences on
separate lines or all on one line give the same tags, because each sentence is
tagged as a unit (rouge2.pos.tagger.tagging_units)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rouge2
from rouge2.analysis.sentences import rule_sentences
from rouge2.pos.tagger import tagging_units

pytest.importorskip("spacy")


@pytest.fixture(scope="module")
def tagger():
    from rouge2.pos.tagger import load_tagger

    return load_tagger("spacy")


def _topic_words(tagger, text):
    from rouge2.pos.topics import TopicSelector

    sel = TopicSelector.parse("nn|jj")
    return [w.lower() for w, tag, upos in tagger.annotate(text) if sel.select(tag, upos)]


def test_the_issue_example_newline_before_overall(tagger):
    # "A newline before 'Overall,' makes it a proper noun" (issue 18)
    lines = "The boots fit well.\nOverall, great value for the money."
    one = "The boots fit well. Overall, great value for the money."
    assert tagger.annotate(lines) == tagger.annotate(one)
    assert ("Overall", "NNP") not in [(w, t) for w, t, _ in tagger.annotate(lines)]


def test_summeval_op_layout_target(tagger, shared):
    """At most 2% of SummEval-OP summaries may get different NN|JJ topic words
    with one sentence a line and all on one line (24% when whole texts were
    tagged; 0 of 416 now)."""
    path = shared / "data" / "summeval_op" / "summeval-op.jsonl"
    texts = [s["summary"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
             for s in json.loads(line)["summaries"].values()]
    assert len(texts) == 416  # 32 products x (12 systems + the human summary)
    differ = 0
    for text in texts:
        sentences = rule_sentences(text)
        if _topic_words(tagger, "\n".join(sentences)) != _topic_words(tagger, " ".join(sentences)):
            differ += 1
    assert differ <= 0.02 * len(texts)


def test_topic_scores_do_not_depend_on_layout():
    ref = "The room was spotless.\nOverall, the location near the station was great."
    cand_lines = "Great location.\nOverall, a clean room."
    cand_one = "Great location. Overall, a clean room."
    a = rouge2.score(cand_lines, ref, ["rouge-topic-nn|jj"])["rouge-topic-nn|jj"]
    b = rouge2.score(cand_one, ref.replace("\n", " "), ["rouge-topic-nn|jj"])["rouge-topic-nn|jj"]
    assert a == b


_words = st.sampled_from(["the", "room", "was", "clean", "Overall", "staff", "great", "Mr.", "a",
                          "location", "near", "U.S.", "ok", "breakfast", "e.g."])
_last = st.sampled_from(["room", "clean", "staff", "great", "location", "ok", "breakfast"])
_sentence = st.builds(lambda words, last, end: " ".join([*words, last]) + end,
                      st.lists(_words, max_size=7), _last, st.sampled_from([".", "!", "?", "!!", ".)"]))


@settings(max_examples=200, deadline=None)
@given(st.lists(_sentence, min_size=1, max_size=5), st.sampled_from(["\n", " ", "  \n  ", "\n\n"]))
def test_units_are_the_same_whatever_the_separator(sentences, sep):
    """Sentences ending in . ! ? give the same units joined by any whitespace.
    (Abbreviations and initials inside a sentence do not end it, on one line
    or not.  A line ending in one, "in the U.S.", still ends a sentence there,
    which the same words on one line cannot tell: the one exception.)"""
    assert tagging_units(sep.join(sentences)) == tagging_units(" ".join(sentences)) == sentences


def test_a_line_without_final_punctuation_is_a_unit():
    # a line break ends a sentence (a list of phrases, one a line)
    assert tagging_units("Great battery\nPoor screen") == ["Great battery", "Poor screen"]
