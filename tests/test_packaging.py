"""The installed package must hold every subpackage and the shipped data."""

import tomllib
from importlib import resources
from pathlib import Path

import rouge2

REPO = Path(__file__).resolve().parents[1]


def test_every_subpackage_is_listed_in_pyproject():
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(REPO).parts)
        for p in (REPO / "rouge2").rglob("__init__.py")
    }
    assert found | {"rouge2.resources"} == listed


def test_shipped_data_is_reachable_from_the_imported_package():
    root = resources.files("rouge2.resources")
    for name in (
        "rouge155/verb.exc",
        "rouge155/smart_common_words.txt",
        "stopwords/rouge2-java-default.txt",
        "wordnet/synonyms-wn30.tsv.gz",
        "wordnet/lemmas-wn30.tsv.gz",
        "wordnet/exceptions-wn30.tsv.gz",
        "wordnet/LICENSE-WordNet-3.0.txt",
        "rouge155/LICENSE-WordNet.txt",
    ):
        assert root.joinpath(name).is_file(), name
    assert rouge2.score("a screen", "a display", ["rouge-1"], synonyms=True)["rouge-1"].recall == 1.0
