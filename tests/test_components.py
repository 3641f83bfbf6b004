"""Every component has a passport: documented, fingerprinted when it reads data, in the signature;
measure capabilities are what the doors read (no measure names spelled in the doors)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rouge2.kernels.python import M_LCS, M_LCS_FLAT, M_NGRAM, M_SKIP, M_WLCS
from rouge2.measures import MEASURES, batch_spec, measure_capability, parse_measure
from rouge2.measures.base import BatchSpec, Measure
from rouge2.registry import KINDS
from rouge2.scoring.batch import measure_spec
from rouge2.scoring.options import REGISTRY_OPTIONS, Options
from rouge2.scoring.signature import data_versions

REPO = Path(__file__).resolve().parents[1]

#: the components that read data (a file, shipped data, a model, a third-party package):
#: each needs a fingerprint, so the signature says which data
READS_DATA = {
    "tokenizer": {"unicode"},
    "stemmer": {"rouge155", "snowball:<language>"},
    "stopword list": {"smart", "rouge2-java", "spacy:<lang>", "<file path>"},
    "synonym source": {"wordnet", "file:<path>"},
    "tagger": {"spacy", "spacy:<pipeline>"},
}
MEASURE_CAPABILITIES = {"batch", "needs_tagger", "uses_sentences", "default_score", "options"}


def test_every_component_has_a_summary_and_a_version():
    for kind, registry in KINDS.items():
        for p in registry.passports():
            assert p.summary and "\n" not in p.summary, (kind, p.name)
            assert p.version, (kind, p.name)


def test_components_that_read_data_have_a_fingerprint():
    for kind, names in READS_DATA.items():
        have = {p.name: p for p in KINDS[kind].passports()}
        for name in names:
            assert have[name].fingerprint is not None, (kind, name)


def test_the_data_fingerprints_name_the_data():
    assert STEM("rouge155").startswith("sha256:")
    assert STEM("snowball:english").startswith("nltk ")
    assert KINDS["stopword list"].identity("smart")["data"].startswith("sha256:")
    assert KINDS["synonym source"].identity("wordnet")["data"].startswith("wordnet-3.0@")
    assert KINDS["stemmer"].identity("none")["data"] is None


def STEM(name):
    return KINDS["stemmer"].identity(name)["data"]


def test_every_measure_family_declares_its_capabilities():
    for p in MEASURES.passports():
        assert set(p.capabilities) >= MEASURE_CAPABILITIES, p.name
        assert p.capabilities["default_score"] in ("fmeasure", "recall", "precision"), p.name
        assert p.examples, p.name


@pytest.mark.parametrize("name", ["rouge-1", "rouge-4", "rouge-l", "rouge-l-flat", "rouge-w-1.2",
                                  "rouge-w-2", "rouge-s4", "rouge-s*", "rouge-su0", "rouge-su*",
                                  "rouge-topic-nn|jj", "rouge-topicuniq-vb"])
def test_batch_capability_agrees_with_the_batch_path(name):
    """What a measure family declares the kernels count is what the batch path counts."""
    kinds = {"ngram": M_NGRAM, "lcs": M_LCS, "lcs-flat": M_LCS_FLAT, "wlcs": M_WLCS, "skip": M_SKIP}
    m = parse_measure(name)
    spec = batch_spec(m)
    expected = measure_spec(m)
    if name.startswith("rouge-topic"):  # counted from the topic tokens (scoring/topic_batch.py)
        assert expected is None and spec == BatchSpec("topic", 1)
        assert batch_spec(parse_measure(name, topic_weights="idf")) is None
    elif expected is None:
        assert spec is None
    else:
        assert isinstance(spec, BatchSpec)
        assert (kinds[spec.kind], spec.n, spec.unigrams, spec.weight) == expected


def test_a_measure_object_of_another_class_gets_no_batch_spec():
    class Custom(Measure):
        name = "rouge-1"

        def stats(self, cand, ref):  # pragma: no cover - never scored here
            raise AssertionError

    assert batch_spec(Custom()) is None
    assert measure_capability(Custom(), "needs_tagger") is False  # the name's family answers
    unnamed = Custom()
    unnamed.name = "my-measure"
    assert measure_capability(unnamed, "needs_tagger", "default") == "default"


def test_measure_capabilities_answer_for_topic_and_plain_measures():
    assert MEASURES.capability("ROUGE-TopicUniq-JJ|NN", "needs_tagger") is True
    assert MEASURES.capability("rouge-topic-nn", "options") == ("topic_auxiliaries", "topic_weights")
    assert MEASURES.capability("rouge-topic-nn|jj", "default_score") == "recall"
    assert MEASURES.capability("rougeL", "needs_tagger") is False
    assert MEASURES.capability("rouge-l", "uses_sentences") is True
    assert MEASURES.capability("rouge-l-flat", "uses_sentences") is False
    tags = MEASURES.capability("rouge-topicuniq-jj|nn", "topic_tags")
    assert tags(MEASURES.canonical("rouge-topicuniq-jj|nn")) == "nn|jj"


def test_the_signature_records_every_registry_option_and_measure():
    o = Options.make(stem=True, stopwords="smart", synonyms=True)
    v = data_versions(o, ["rouge-1", "rouge-su4"])
    for option in REGISTRY_OPTIONS:
        # the tagger only when a measure needs one; aspects and topic weights only when set
        if option not in ("tagger", "aspects", "topic_weights"):
            assert option in v, option
    assert "aspects" not in v and "topic_weights" not in v
    with_aspects = data_versions(Options.make(aspects="space", aspect_top=50, topic_weights="idf"),
                                 ["rouge-aspect"])
    assert with_aspects["aspects"]["name"] == "space"
    assert with_aspects["aspects"]["data"].startswith("sha256:")
    assert with_aspects["aspect_top"] == 50 and with_aspects["topic_weights"]["name"] == "idf"
    assert "tagger" not in v
    assert set(v["measures"]) == {"rouge-1", "rouge-su4"}
    assert v["stem"] == {"name": "rouge155", "version": "1", "origin": "rouge2", "data": STEM("rouge155")}
    tagged = data_versions(Options.make(tagger="pretagged"), ["rouge-topic-nn"])
    assert tagged["tagger"]["name"] == "pretagged" and tagged["topic_auxiliaries"] is False


def test_the_doors_spell_no_measure_names():
    """The doors read measure capabilities; no door tests a measure's name for 'topic'."""
    leak = re.compile(r"""["']topic["']\s+in\s|startswith\(["']rouge-topic|["']rouge-topic(uniq)?-["'],""")
    for path in (REPO / "rouge2").rglob("*.py"):
        if path.parent.name == "measures":
            continue
        text = path.read_text(encoding="utf-8")
        assert not leak.search(text), path


def test_options_docs_list_the_measure_forms_and_the_components_command():
    text = (REPO / "docs" / "options.md").read_text(encoding="utf-8")
    for p in MEASURES.passports():
        assert f"`{p.name}`" in text, p.name
    assert "rouge2 components" in text


def test_every_registry_of_rouge2_is_listed_under_its_own_kind():
    import importlib
    import pkgutil

    import rouge2
    from rouge2.registry import Registry

    found = {}
    for info in pkgutil.walk_packages(rouge2.__path__, "rouge2."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, Registry):
                found.setdefault(id(value), (value, f"{info.name}.{name}"))
    assert len(found) >= 9
    for registry, where in found.values():
        assert KINDS[registry.kind] is registry, f"{where}: two registries of kind {registry.kind!r}"
