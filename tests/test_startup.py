"""What a fresh process imports: ``import rouge2``, the rouge-score drop-in and ``rouge2 --help``
load no heavy dependency and no more of rouge2 than they use.  (Start-up *times* are measured
by benchmarks/bench_startup.py, never here.)"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import rouge2
import rouge2.analysis
import rouge2.synonyms

HEAVY = ("spacy", "nltk", "numpy", "yaml", "tqdm", "scipy", "importlib.metadata")


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return set(json.loads(out.splitlines()[-1]))


def heavy(mods: set[str]) -> list[str]:
    return sorted(m for m in mods if m in HEAVY or m.split(".")[0] in HEAVY[:-1])


def test_import_rouge2_loads_almost_nothing():
    mods = modules_after("import rouge2")
    assert heavy(mods) == []
    assert sorted(m for m in mods if m.startswith("rouge2")) == ["rouge2", "rouge2._version", "rouge2.errors"]


def test_scoring_loads_no_heavy_dependency():
    mods = modules_after("import rouge2\nrouge2.score('the cat sat', 'the cat sat down')")
    assert heavy(mods) == []
    assert "rouge2.scoring.scorer" in mods


def test_the_drop_in_loads_no_heavy_dependency_and_no_engine():
    code = ("from rouge2.compat.rouge_score import rouge_scorer\n"
            "rouge_scorer.RougeScorer(['rouge1', 'rougeLsum'], use_stemmer=True).score('Cats ran.', 'A cat runs.')")
    mods = modules_after(code)
    assert heavy(mods) == []  # nltk's stemmer is rouge2's own copy (tests/test_porter_nltk.py)
    assert not {"rouge2.registry", "rouge2.scoring", "rouge2.analysis.analyzer"} & mods


def test_help_loads_no_scoring_engine():
    mods = modules_after("import contextlib, io\nfrom rouge2.cli import main\n"
                         "with contextlib.redirect_stdout(io.StringIO()):\n    main(['--help'])")
    assert heavy(mods) == []
    assert not any(m.startswith(("rouge2.scoring", "rouge2.stats", "rouge2.registry")) for m in mods)


@pytest.mark.parametrize("package", [rouge2, rouge2.analysis, rouge2.synonyms], ids=lambda p: p.__name__)
def test_lazy_names_are_the_implementing_modules_objects(package):
    for name in package.__all__:
        value = getattr(package, name)
        module = package._LAZY.get(name) if hasattr(package, "_LAZY") else None
        if module is not None:
            full = module if module.startswith("rouge2.") else f"{package.__name__}.{module}"
            assert value is getattr(sys.modules[full], name)
        assert name in dir(package)
    with pytest.raises(AttributeError, match="no_such_name"):
        package.no_such_name  # noqa: B018


def test_star_import_gives_the_public_api():
    namespace: dict = {}
    exec("from rouge2 import *", namespace)
    assert set(rouge2.__all__) <= set(namespace)
    assert namespace["score"]("the cat sat", "the cat sat down")["rouge-1"].recall == 0.75
