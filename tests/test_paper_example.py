"""ROUGE 2.0 paper (Ganesan 2018), Example 1.1: Tables 1, 2 and 4, to three decimals."""

import pytest

import rouge2

REF = "The phone is very lightweight.\nThe display is also very bright and clear."
SYS1 = "Lightweight phone.\nBright screen.\nScreen is very clear."
SYS2 = (
    "I really love this phone it is just superb, it is extremely lightweight.\n"
    "Hmmm, this was actually a gift to my girlfriend and I do feel that the screen is quite nice and extremely bright.\n"
    "In terms of screen, the screen is really clear and crisp."
)


def rpf(s):
    return tuple(round(v, 3) for v in (s.recall, s.precision, s.fmeasure))


# (system, stopwords, synonyms) -> ROUGE-1 (R, P, F), Tables 1 and 2
TABLE_2 = {
    (SYS1, False, False): (0.462, 0.750, 0.571),
    (SYS1, False, True): (0.538, 0.875, 0.667),
    (SYS1, True, False): (0.800, 0.667, 0.727),
    (SYS1, True, True): (1.000, 0.833, 0.909),
    (SYS2, False, False): (0.692, 0.196, 0.305),
    (SYS2, False, True): (0.769, 0.217, 0.339),
    (SYS2, True, False): (0.800, 0.174, 0.286),
    (SYS2, True, True): (1.000, 0.217, 0.357),
}


@pytest.mark.parametrize("key", list(TABLE_2), ids=lambda k: f"{'sys1' if k[0] is SYS1 else 'sys2'}-stop{k[1]}-syn{k[2]}")
def test_table_1_and_2_rouge1(key):
    system, stop, syn = key
    s = rouge2.score(system, REF, ["rouge-1"], stopwords="rouge2-java" if stop else False, synonyms=syn)
    assert rpf(s["rouge-1"]) == TABLE_2[key]


# Table 4 (topics NN|JJ): SysSum1 every value; SysSum2 recall only (its topic
# precision depends on the tagger: docs/pos-tagging.md lists spaCy's tags).
TABLE_4 = {
    ("rouge-topic-nn|jj", False): ((0.800, 0.667, 0.727), 0.800),
    ("rouge-topic-nn|jj", True): ((1.000, 0.833, 0.909), 1.000),
    ("rouge-topicuniq-nn|jj", False): ((0.800, 0.800, 0.800), 0.800),
    ("rouge-topicuniq-nn|jj", True): ((1.000, 1.000, 1.000), 1.000),
}


@pytest.mark.parametrize("key", list(TABLE_4), ids=lambda k: f"{k[0]}-syn{k[1]}")
def test_table_4_topics(key):
    measure, syn = key
    sys1_expected, sys2_recall = TABLE_4[key]
    s1 = rouge2.score(SYS1, REF, [measure], synonyms=syn)[measure]
    s2 = rouge2.score(SYS2, REF, [measure], synonyms=syn)[measure]
    assert rpf(s1) == sys1_expected
    assert round(s2.recall, 3) == sys2_recall


def test_topic_never_matches_by_substring_of_word_tag():
    # The Java tool keeps `running_vbg` for `nn` because "nn" is a substring.
    tagged = rouge2.Scorer(["rouge-topic-nn"], tagger="pretagged")
    s = tagged.score("running/VBG dog/NN", "running/VBG dog/NN cat/NN")["rouge-topic-nn"]
    assert (s.recall, s.precision) == (0.5, 1.0)


def test_domain_synonym_file_changes_scores(tmp_path):
    syn = tmp_path / "phone.txt"
    syn.write_text("# phone domain\nsuperb, lightweight\n", encoding="utf-8")
    plain = rouge2.score("a superb phone", "a lightweight phone", ["rouge-1"])["rouge-1"]
    domain = rouge2.score("a superb phone", "a lightweight phone", ["rouge-1"], synonyms=str(syn))["rouge-1"]
    assert (plain.recall, domain.recall) == (2 / 3, 1.0)
