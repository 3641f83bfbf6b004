"""The installed package must hold every subpackage and the shipped data."""

import os
import shutil
import subprocess
import sys
import zipfile
from importlib import resources
from pathlib import Path

import pytest
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


def test_report_assets_and_py_typed_are_reachable_from_the_imported_package():
    from rouge2.io.topic_report.markup import CSS, JS

    root = resources.files("rouge2.io.topic_report")
    assert root.joinpath("report.css").read_text(encoding="utf-8").strip() == CSS
    assert root.joinpath("report.js").read_text(encoding="utf-8").strip() == JS
    assert CSS.startswith(":root{") and "function sortBy(th)" in JS
    assert resources.files("rouge2").joinpath("py.typed").is_file()


def test_wheel_carries_the_package_data(tmp_path):
    """A wheel built from the tracked files holds the report's stylesheet and
    script, py.typed and the shipped resources (package data, not only files
    an editable install happens to find in the tree)."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True)
    if files.returncode != 0:
        pytest.skip("not a git checkout: the tracked files are unknown")
    src = tmp_path / "src"
    for name in files.stdout.decode().split("\0"):
        if name and (REPO / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, src / name)
    # CC=false: the optional C extension is skipped (what a wheel carries besides it is the point)
    env = {**os.environ, "CC": "false"}
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"),
                           str(src)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = (tmp_path / "dist").glob("rouge2-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("rouge2/py.typed", "rouge2/io/topic_report/report.css", "rouge2/io/topic_report/report.js",
                 "rouge2/resources/wordnet/synonyms-wn30.tsv.gz", "rouge2/docs/options.md",
                 "rouge2/configs/quickstart.yaml"):
        assert name in names, name
