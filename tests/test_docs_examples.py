"""The worked examples of docs/synonyms.md and docs/topics.md, number for number."""

import pytest
from test_paper_example import REF, SYS1, SYS2

import rouge2
from rouge2.pos import SpacyTagger
from rouge2.synonyms import WordNetMatcher


def rpf(s, nd=6):
    return tuple(round(v, nd) for v in (s.recall, s.precision, s.fmeasure))


# -- docs/synonyms.md ---------------------------------------------------------


def test_symmetry_table():
    ms = ["rouge-1", "rouge-2", "rouge-s4", "rouge-su4"]
    a, b = "the screen is very bright", "the display is bright"
    ab = rouge2.score(a, b, ms, synonyms=True)
    ba = rouge2.score(b, a, ms, synonyms=True)
    assert rpf(ab["rouge-1"]) == (1.0, 0.8, 0.888889)
    assert rpf(ab["rouge-2"]) == (0.666667, 0.5, 0.571429)
    assert rpf(ab["rouge-s4"]) == (1.0, 0.6, 0.75)
    assert rpf(ab["rouge-su4"]) == (1.0, 0.642857, 0.782609)
    for m in ms:
        assert (ab[m].recall, ab[m].precision) == (ba[m].precision, ba[m].recall)


def test_synonym_matches_are_clipped():
    s = rouge2.score("screen screen screen", "the display", ["rouge-1"], synonyms=True)["rouge-1"]
    assert (s.recall, s.precision) == (0.5, pytest.approx(1 / 3))


def test_maximum_not_exact_first(tmp_path):
    d = tmp_path / "dev.txt"
    d.write_text("screen, display\nmonitor\tscreen\n", encoding="utf-8")
    s = rouge2.score("screen monitor", "screen display", ["rouge-1"], synonyms=str(d))["rouge-1"]
    assert s.recall == s.precision == 1.0
    # headword lines do not relate the listed words to each other
    s = rouge2.score("display", "monitor", ["rouge-1"], synonyms=str(d))["rouge-1"]
    assert s.recall == 0.0


def test_rouge_w_maximum_matching_in_reference_order(tmp_path):
    d = tmp_path / "w.txt"
    d.write_text("display\tscreen, panel\nmonitor\tscreen\n", encoding="utf-8")
    out = rouge2.score("screen\npanel", "display monitor", ["rouge-l", "rouge-w-1.2"], synonyms=str(d))
    assert rpf(out["rouge-l"]) == (1.0, 1.0, 1.0)
    # one run of two counted positions, as for the identical text: R = 2 ** -0.2
    assert rpf(out["rouge-w-1.2"]) == (0.870551, 1.0, 0.930796)
    same = rouge2.score("display monitor", "display monitor", ["rouge-w-1.2"])["rouge-w-1.2"]
    assert rpf(same) == rpf(out["rouge-w-1.2"])
    assert out["rouge-w-1.2"].recall == pytest.approx(2 ** -0.2)


def test_monotone_example():
    ms = ["rouge-l"]
    plain = rouge2.score("a great\na good", "a a great", ms)["rouge-l"]
    syn = rouge2.score("a great\na good", "a a great", ms, synonyms=[["good", "great"]])["rouge-l"]
    assert plain.recall == syn.recall == 1.0


def test_combining_sources(tmp_path):
    p = tmp_path / "phone.txt"
    p.write_text("# phone reviews\nsuperb, lightweight\n", encoding="utf-8")
    expected = {False: 0.0, True: 0.5, str(p): 0.5}
    for syn, value in expected.items():
        s = rouge2.score("superb screen", "lightweight display", ["rouge-1"], synonyms=syn)["rouge-1"]
        assert s.fmeasure == value
    for syn in (["wordnet", str(p)], ["wordnet", ["superb", "lightweight"]]):
        s = rouge2.score("superb screen", "lightweight display", ["rouge-1"], synonyms=syn)["rouge-1"]
        assert s.fmeasure == 1.0


@pytest.mark.parametrize(
    "stem, syn, r1, r2",
    [(False, False, 0.25, 0.0), (False, "nolemmas", 0.5, 0.0), (False, True, 0.75, 0.333333),
     (True, False, 0.5, 0.0), (True, "nolemmas", 0.75, 0.333333), (True, True, 1.0, 1.0)],
)
def test_stemming_and_synonyms(stem, syn, r1, r2):
    if syn == "nolemmas":
        syn = WordNetMatcher(lemmas=False)
    out = rouge2.score("the screens look brilliant", "the display looks bright", ["rouge-1", "rouge-2"], stem=stem, synonyms=syn)
    assert round(out["rouge-1"].fmeasure, 6) == r1
    assert round(out["rouge-2"].fmeasure, 6) == r2


# -- docs/topics.md -----------------------------------------------------------

TOPICS = ["rouge-topic-nn|jj", "rouge-topicuniq-nn|jj"]
REF2 = "Great phone, light and with a bright screen."


@pytest.mark.parametrize(
    "mode, topic, uniq",
    [
        ("pooled", (0.7, 0.583333, 0.636364), (0.7, 0.7, 0.7)),
        ("best", (0.8, 0.666667, 0.727273), (0.8, 0.8, 0.8)),
        ("average", (0.7, 0.583333, 0.636364), (0.7, 0.7, 0.7)),
        ("max-f", (0.8, 0.666667, 0.727273), (0.8, 0.8, 0.8)),
    ],
)
def test_topic_multi_reference(mode, topic, uniq):
    out = rouge2.score(SYS1, [REF, REF2], TOPICS, multi_reference=mode)
    assert rpf(out[TOPICS[0]]) == topic
    assert rpf(out[TOPICS[1]]) == uniq


def test_topic_sys2_with_spacy_and_with_paper_tag():
    plain = rouge2.score(SYS2, REF, TOPICS)
    syn = rouge2.score(SYS2, REF, TOPICS, synonyms=True)
    assert [round(plain[m].precision, 3) for m in TOPICS] == [0.286, 0.333]
    assert [round(syn[m].precision, 3) for m in TOPICS] == [0.357, 0.417]
    # Pre-tagged with the paper's (Stanford) reading of "Hmmm" as a non-topic word.
    tagger = SpacyTagger()

    def pretag(text, fix):
        return "\n".join(
            " ".join(f"{w}/{fix.get(w, t)}" for w, t in tagger.tag(line)) for line in text.split("\n")
        )

    ref, sys2 = pretag(REF, {}), pretag(SYS2, {"Hmmm": "UH"})
    expected = {
        (False, TOPICS[0]): (0.800, 0.308, 0.444),
        (False, TOPICS[1]): (0.800, 0.364, 0.500),
        (True, TOPICS[0]): (1.000, 0.385, 0.556),
        (True, TOPICS[1]): (1.000, 0.455, 0.625),
    }
    for s in (False, True):
        out = rouge2.Scorer(TOPICS, tagger="pretagged", synonyms=s).score(sys2, ref)
        for m in TOPICS:
            assert rpf(out[m], 3) == expected[(s, m)]


def test_topic_selection_and_stemming():
    c = "The phone was running hot and crashed twice."
    r = "The phone crashed and runs hot."
    got = {m: rpf(rouge2.score(c, r, [m])[m]) for m in ("rouge-topic-vb", "rouge-topic-vbd", "rouge-topic-nn")}
    # "was" is an auxiliary here (universal tag AUX), so it is not a verb topic
    assert got == {
        "rouge-topic-vb": (0.5, 0.5, 0.5),
        "rouge-topic-vbd": (1.0, 1.0, 1.0),
        "rouge-topic-nn": (1.0, 1.0, 1.0),
    }
    # with auxiliaries kept (the paper's "all verbs"), "was" counts:
    # VB: was, running, crashed against crashed, runs; VBD: was, crashed against crashed
    from rouge2.analysis.analyzer import Analyzer
    from rouge2.measures.topic import Topic

    analyzer = Analyzer()
    for spec, stats in (("vb", (1, 2, 3)), ("vbd", (1, 1, 2))):
        m = Topic(spec, auxiliaries=True)
        m.prepare(analyzer)
        assert tuple(m.stats(analyzer.analyze(c), analyzer.analyze(r))) == stats
    plain = rouge2.score("Bright screens.", "The screen is bright.", TOPICS)
    stemmed = rouge2.score("Bright screens.", "The screen is bright.", TOPICS, stem=True)
    assert [plain[m].fmeasure for m in TOPICS] == [0.5, 0.5]
    assert [stemmed[m].fmeasure for m in TOPICS] == [1.0, 1.0]


def test_topic_measure_names():
    from rouge2.measures import parse_measure

    assert parse_measure("ROUGE-TopicUniq-jj|nn|nns").name == "rouge-topicuniq-nn|jj"
    out = rouge2.score(SYS1, REF, ["ROUGE-Topic-NN|JJ"])
    assert list(out) == ["rouge-topic-nn|jj"]  # results are keyed by canonical names


def test_length_limit_applies_to_topic_words():
    cand = "Bright screen and great phone with a very nice battery."
    ref = "A bright screen."
    full = rouge2.score(cand, ref, TOPICS)
    cut = rouge2.score(cand, ref, TOPICS, word_limit=4)
    # full: bright screen great phone nice battery; limited: bright screen great
    assert [full[m].precision for m in TOPICS] == [pytest.approx(1 / 3)] * 2
    assert [cut[m].precision for m in TOPICS] == [pytest.approx(2 / 3)] * 2
    assert [cut[m].recall for m in TOPICS] == [1.0, 1.0]
