"""Third-party components through entry points: the plugin package of docs/plugins.md,
installed as a distribution, used from the API, ``rouge2 score`` and a YAML run."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rouge2
from rouge2 import registry
from rouge2.cli import main as cli_main
from rouge2.config.yaml_config import load_config
from rouge2.run.runner import run

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "plugins.md"

CAND = "The cat sat on the mat"
REF = "a cat lay on the rug"


def doc_files() -> dict[str, str]:
    """The files of the plugin package, as docs/plugins.md shows them."""
    text = DOC.read_text(encoding="utf-8")
    found = re.findall(r"^`rouge2-demo/([^`]+)`[^\n]*\n\n```[a-z]*\n(.*?)^```", text, re.M | re.S)
    return dict(found)


def entry_points_txt(pyproject: str) -> str:
    """The ``entry_points.txt`` pip writes from a pyproject's entry-point tables."""
    out, group = [], None
    for line in pyproject.splitlines():
        m = re.fullmatch(r'\[project\.entry-points\."([^"]+)"\]', line.strip())
        if m:
            group = m.group(1)
            out.append(f"\n[{group}]")
        elif line.startswith("["):
            group = None
        elif group and "=" in line:
            name, value = (x.strip().strip('"') for x in line.split("=", 1))
            out.append(f"{name} = {value}")
    return "\n".join(out).strip() + "\n"


def install(site: Path, files: dict[str, str]) -> None:
    """Install the package's files into ``site`` the way pip lays them out."""
    pyproject = files["pyproject.toml"]
    name = re.search(r'^name = "([^"]+)"', pyproject, re.M).group(1)
    version = re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1)
    for rel, text in files.items():
        if rel != "pyproject.toml":
            (site / rel).parent.mkdir(parents=True, exist_ok=True)
            (site / rel).write_text(text, encoding="utf-8")
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(entry_points_txt(pyproject))


@pytest.fixture
def demo(tmp_path, monkeypatch):
    """The docs' rouge2-demo installed on sys.path; forgotten afterwards."""
    site = tmp_path / "site"
    site.mkdir()
    install(site, doc_files())
    monkeypatch.syspath_prepend(str(site))
    registry.forget_plugins()
    yield site
    registry.forget_plugins()
    for name in [m for m in sys.modules if m.startswith("rouge2_demo")]:
        del sys.modules[name]


def test_the_docs_show_a_complete_package():
    files = doc_files()
    assert set(files) == {"pyproject.toml", "rouge2_demo/__init__.py", "rouge2_demo/synonyms.txt",
                          "rouge2_demo/measure.py"}
    groups = re.findall(r"^\[(rouge2\.[a-z_]+)\]$", entry_points_txt(files["pyproject.toml"]), re.M)
    assert {"rouge2.tokenizers", "rouge2.synonym_sources", "rouge2.measures"} <= set(groups)


def test_api_uses_the_plugin_components(demo):
    got = rouge2.score(CAND, REF, ["rouge-1", "rouge-1-set"], tokenizer="whitespace",
                       synonyms="demo-synonyms")
    # whitespace tokens: the cat sat on the mat / a cat lay on the rug; clipped
    # matches cat, on, the, plus the demo synonyms sat~lay and mat~rug: 5 of 6
    assert got["rouge-1"].recall == got["rouge-1"].precision == 5 / 6
    # distinct words: {the, cat, sat, on, mat} and {a, cat, lay, on, the, rug} share 3
    s = got["rouge-1-set"]
    assert (s.recall, s.precision) == (3 / 6, 3 / 5)
    assert s.fmeasure == pytest.approx(2 * 0.5 * 0.6 / 1.1)
    plain = rouge2.score(CAND, REF, ["rouge-1"], tokenizer="whitespace")
    assert plain["rouge-1"].recall == 3 / 6


def test_the_plugin_is_in_the_signature_and_the_listing(demo, capsys, tmp_path):
    (tmp_path / "preds.txt").write_text(CAND + "\n")
    (tmp_path / "refs.txt").write_text(REF + "\n")
    rc = cli_main(["score", "-r", str(tmp_path / "refs.txt"), "-i", str(tmp_path / "preds.txt"),
                   "--tokenizer", "whitespace", "--synonyms", "demo-synonyms", "-m", "rouge-1", "rouge-1-set",
                   "--json"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    got = json.loads(out.out)
    scores = got["systems"][0]["scores"]
    assert scores["rouge-1"]["recall"]["mean"] == 5 / 6 and scores["rouge-1-set"]["precision"]["mean"] == 3 / 5
    line = got["signature"]
    assert "|tok:whitespace@rouge2-demo-0.1|" in line and "|syn:demo-synonyms@rouge2-demo-0.1/lemmas|" in line
    assert cli_main(["components", "synonym-source"]) == 0
    listing = capsys.readouterr().out
    assert re.search(r"demo-synonyms\s+v1\s+a few synonym groups shipped with rouge2-demo "
                     r"\[rouge2-demo 0\.1\]", listing)


def test_a_yaml_run_uses_the_plugin_and_records_it(demo, tmp_path):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"task": "t1", "system": "s", "candidate": CAND, "references": [REF]}) + "\n")
    config = tmp_path / "run.yaml"
    config.write_text("inputs: {format: jsonl, path: rows.jsonl}\n"
                      "preprocess: {tokenizer: whitespace, synonyms: demo-synonyms}\n"
                      "measures: [rouge-1, rouge-1-set]\n"
                      "bootstrap: {resamples: 10, seed: 1}\n"
                      "outputs: {dir: out, console: false}\n")
    run(load_config(config), progress=False, stdout=open(os.devnull, "w"))
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    versions = summary["signature"]["versions"]
    data = "sha256:" + hashlib.sha256((demo / "rouge2_demo" / "synonyms.txt").read_bytes()).hexdigest()
    assert versions["tokenizer"] == {"name": "whitespace", "version": "1", "origin": "rouge2-demo 0.1",
                                     "data": None}
    assert versions["synonyms"] == [{"name": "demo-synonyms", "version": "1", "origin": "rouge2-demo 0.1",
                                     "data": data}]
    assert versions["measures"]["rouge-1-set"]["origin"] == "rouge2-demo 0.1"
    assert summary["systems"]["s"]["rouge-1"]["recall"] == 5 / 6


BROKEN = {
    "pyproject.toml": '[project]\nname = "rouge2-broken"\nversion = "9.9"\n\n'
                      '[project.entry-points."rouge2.tokenizers"]\n'
                      'gone = "rouge2_broken_missing:TOKENIZER"\n'
                      'clash = "rouge2_broken:CLASH"\n\n'
                      '[project.entry-points."rouge2.measures"]\n'
                      'rouge-boom = "rouge2_broken.boom"\n',
    "rouge2_broken/__init__.py": "from rouge2.registry import passport\n"
                                 "CLASH = passport('unicode', str.split, 'takes a name rouge2 has')\n",
    "rouge2_broken/boom.py": "raise RuntimeError('this plugin is broken\\non two lines')\n",
}


def test_a_broken_plugin_is_one_line_and_rouge2_keeps_working(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    install(site, BROKEN)
    (tmp_path / "p.txt").write_text(CAND + "\n")
    (tmp_path / "r.txt").write_text(REF + "\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    score = subprocess.run([sys.executable, "-m", "rouge2", "score", "-r", str(tmp_path / "r.txt"), "-i",
                            str(tmp_path / "p.txt"), "--json"], capture_output=True, text=True, env=env)
    assert score.returncode == 0, score.stderr
    assert json.loads(score.stdout)["systems"][0]["scores"]["rouge-1"]["recall"]["mean"] == 3 / 6  # rouge155 tokens: as without it
    lines = score.stderr.splitlines()
    # the help texts list every name, so every group is read: one line per broken plugin
    assert len(lines) == 3, lines
    assert any("'gone' from rouge2-broken 9.9" in x and "ModuleNotFoundError" in x for x in lines)
    assert any("'clash' from rouge2-broken 9.9" in x and "registered twice" in x for x in lines)
    assert any("'rouge-boom' from rouge2-broken 9.9" in x and "this plugin is broken on two lines" in x
               for x in lines)
    listing = subprocess.run([sys.executable, "-m", "rouge2", "components", "tokenizer"], capture_output=True,
                             text=True, env=env)
    assert listing.returncode == 0 and "unicode" in listing.stdout and "clash" not in listing.stdout
    assert len(listing.stderr.splitlines()) == 2
