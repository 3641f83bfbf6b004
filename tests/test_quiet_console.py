"""A quiet console (issue 23, item 7): a run prints a summary of at most 40
lines whatever its size, and names the files it wrote relative to the output
folder, grouped (``--verbose``: one a line); every detail is in the files.
Variant grids cost output linear in the number of variants (issue 21)."""

import json
import os
import random
from pathlib import Path

import pytest

from rouge2.cli import main
from rouge2.config.yaml_config import load_config
from rouge2.io.outputs import format_written
from rouge2.run.runner import CONSOLE_LINES, run

WORDS = [f"w{i}" for i in range(60)]


def corpus(tmp_path: Path, systems: int, tasks: int, seed: int = 3) -> None:
    """Systems that copy more or fewer reference words (so rankings differ),
    and judgments that follow them with noise."""
    rng = random.Random(seed)
    rows, judged = [], []
    for t in range(tasks):
        ref = rng.sample(WORDS, 20)
        for s in range(systems):
            keep = max(1, 20 - s % 19)
            cand = ref[:keep] + rng.sample(WORDS, 3)
            rows.append({"task": f"d{t}", "system": f"S{s}", "candidate": " ".join(cand),
                         "references": [" ".join(ref)]})
            judged.append({"task": f"d{t}", "system": f"S{s}", "relevance": keep + rng.random()})
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "judgments.jsonl").write_text("".join(json.dumps(r) + "\n" for r in judged))


def config(tmp_path: Path, body: str = "", measures: str = "[rouge-1, rouge-2, rouge-3, rouge-4, rouge-l, rouge-su4]") -> Path:
    path = tmp_path / "run.yaml"
    path.write_text(f"name: quiet\ninputs: {{format: jsonl, path: rows.jsonl}}\nmeasures: {measures}\n"
                    f"outputs: {{dir: out}}\n{body}")
    return path


SUMMEVAL_SHAPE = """
variants:
  plain: {}
  stem: {preprocess: {stem: true}}
compare_variants: [[stem, plain]]
compare: {pairs: [[S0, S1], [S0, S2], [S1, S2]], resamples: 100}
meta_evaluation:
  judgments: judgments.jsonl
  dimensions: [relevance]
  levels: [system]
  scores: [recall, fmeasure]
  resamples: 20
  compare: [[rouge-1/fmeasure@stem, rouge-1/fmeasure@plain], [rouge-2/fmeasure@stem, rouge-2/fmeasure@plain],
            [rouge-l/fmeasure@stem, rouge-l/fmeasure@plain], [rouge-su4/fmeasure@stem, rouge-su4/fmeasure@plain]]
"""


def printed(tmp_path: Path, capsys, *argv: str) -> list[str]:
    cwd = os.getcwd()
    os.chdir(tmp_path)  # the files are named relative to the output folder, shown from here
    try:
        assert main(["run", "--progress", "off", *argv, "run.yaml"]) == 0
    finally:
        os.chdir(cwd)
    return capsys.readouterr().out.splitlines()


def test_a_summeval_shaped_run_prints_at_most_40_lines(tmp_path, capsys):
    # 16 systems, 2 variants, 6 measures, paired tests, correlations: it printed 194 lines
    corpus(tmp_path, systems=16, tasks=6)
    config(tmp_path, SUMMEVAL_SHAPE)
    lines = printed(tmp_path, capsys)
    assert len(lines) <= CONSOLE_LINES, "\n".join(lines)
    text = "\n".join(lines)
    assert lines[0].startswith("rouge2 run: quiet - 16 systems, 6 tasks, 96 summaries;")
    assert "more systems (every system: systems.csv, summary.json)" in text
    assert "paired tests stem vs plain (per system and measure, F over its tasks, " in text
    assert " of 96 (16 systems x 6 measures)" in text
    assert "correlation with human judgments" in text
    assert lines[-1] == ("wrote 7 files in out: per_summary.jsonl, per_summary.csv, results.csv, "
                         "summary.json, variants.csv, correlations.json, correlations.csv")
    # the details left out of the console are in the files
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert len(summary["variant_comparisons"]) == 16 * 6
    assert len(summary["variants"]["plain"]["systems"]) == 16


@pytest.mark.parametrize("systems", [5, 16, 120])
def test_the_systems_table_fits(tmp_path, capsys, systems):
    corpus(tmp_path, systems=systems, tasks=2)
    config(tmp_path, measures="[rouge-1, rouge-l]")
    lines = printed(tmp_path, capsys)
    assert len(lines) <= CONSOLE_LINES
    rows = [line for line in lines if line.lstrip()[:1].isdigit()]
    assert len(rows) == (systems if systems <= 20 else 19)  # else the best 18, a count, the last
    if systems > 20:
        assert f"... {systems - 19} more systems (every system: systems.csv, summary.json)" in lines


def test_a_thousand_variants_print_at_most_40_lines_and_write_linearly(tmp_path, capsys):
    corpus(tmp_path, systems=2, tasks=1)
    sizes = {}
    for n in (250, 1000):
        folder = tmp_path / str(n)
        folder.mkdir()
        (folder / "rows.jsonl").write_text((tmp_path / "rows.jsonl").read_text())
        config(folder, "variants:\n" + "".join(f"  v{i}: {{}}\n" for i in range(n)), measures="[rouge-1]")
        lines = printed(folder, capsys)
        assert len(lines) <= CONSOLE_LINES
        assert f"... {n - 8} more variants (every variant: variants.csv; rankings: summary.json)" in lines
        sizes[n] = sum(p.stat().st_size for p in (folder / "out").iterdir())
        summary = json.loads((folder / "out" / "summary.json").read_text())
        assert len(summary["rankings"]["agreement"]) == n - 1  # each against the first, not every pair
    assert sizes[1000] < 4.4 * sizes[250]  # linear (a quadratic grid is 16 times larger)


def test_files_are_named_relative_to_the_folder_and_grouped(tmp_path):
    out = tmp_path / "out"
    pages = [out / "topic_coverage_files" / f"page{i}.html" for i in range(127)]
    written = [out / "results.csv", out / "topic_coverage.html", *pages, tmp_path / "elsewhere.csv"]
    line = format_written(written, out)
    assert line == (f"wrote 130 files in {out}: results.csv, topic_coverage.html; "
                    f"topic_coverage_files/: 127 files; elsewhere: {tmp_path / 'elsewhere.csv'} "
                    f"(--verbose lists each)\n")
    verbose = format_written(written, out, verbose=True).splitlines()
    assert verbose[0] == f"wrote 130 files in {out}:"
    assert verbose[1:3] == ["  results.csv", "  topic_coverage.html"]
    assert "  topic_coverage_files/page126.html" in verbose and len(verbose) == 131


def test_verbose_lists_every_file_of_a_run(tmp_path, capsys):
    corpus(tmp_path, systems=3, tasks=2)
    config(tmp_path, measures="[rouge-1]")
    lines = printed(tmp_path, capsys, "--verbose")
    at = lines.index("wrote 5 files in out:")
    assert lines[at + 1:] == ["  per_summary.jsonl", "  per_summary.csv", "  results.csv", "  summary.json",
                              "  systems.csv"]
    assert run(load_config(tmp_path / "run.yaml"), progress=False).written[0].name == "per_summary.jsonl"
