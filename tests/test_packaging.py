"""The installed package must hold every subpackage and the shipped data."""

from importlib import resources
from pathlib import Path

import tomllib

import rouge2

REPO = Path(__file__).resolve().parents[1]


def test_every_subpackage_is_listed_in_pyproject():
    """Code packages, and every data folder with an importable name (so setuptools
    installs it without warning); docs/ and configs/ ship as rouge2.docs, rouge2.configs."""
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    code = {".".join(p.parent.relative_to(REPO).parts) for p in (REPO / "rouge2").rglob("__init__.py")}
    data = {"rouge2.resources"} | {
        "rouge2.resources." + ".".join(p.relative_to(REPO / "resources").parts)
        for p in (REPO / "resources").rglob("*")
        if p.is_dir() and "__pycache__" not in p.parts
        and all(part.isidentifier() for part in p.relative_to(REPO / "resources").parts)
    }
    assert code | data | {"rouge2.docs", "rouge2.configs"} == listed


def test_docs_and_configs_are_installed():
    """A regular install ships docs/ and configs/ inside the package (CI installs so);
    an editable install or a source checkout on PYTHONPATH reads them from the tree."""
    from rouge2.cli.help import configs_folder, docs_folder

    installed = "site-packages" in str(Path(rouge2.__file__))
    assert (docs_folder() / "options.md").is_file()
    assert ("site-packages" in str(docs_folder())) == installed
    assert (configs_folder() / "quickstart.yaml").is_file()


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
