"""java-project inputs: ``inputs.task_pattern`` and the warning for task names cut at an ``_``."""

import re
import warnings
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shared_data import DATA

from rouge2.cli import main
from rouge2.config.yaml_config import load_config
from rouge2.errors import UserError
from rouge2.io import inputs
from rouge2.io.inputs import DEFAULT_TASK_PATTERN, InputsConfig, ambiguous_tasks, list_pairs, read_inputs
from rouge2.run.runner import run

SHARED_JAVA = DATA / "data" / "rouge2_java"


def project(tmp_path: Path, refs: dict[str, str], systems: dict[str, str]) -> Path:
    root = tmp_path / "proj"
    for sub, files in (("reference", refs), ("system", systems)):
        (root / sub).mkdir(parents=True)
        for name, text in files.items():
            (root / sub / name).write_text(text + "\n")
    return root


def news_project(tmp_path: Path) -> Path:
    """Tasks news_1 and news_2, one reference each, systems sysA and sysB."""
    return project(tmp_path,
                   {"news_1_ref.txt": "storm hits coast", "news_2_ref.txt": "team wins cup"},
                   {"news_1_sysA.txt": "storm hits", "news_1_sysB.txt": "coast",
                    "news_2_sysA.txt": "team wins", "news_2_sysB.txt": "cup final"})


def items(root: Path, pattern: str | None = None):
    return list(read_inputs(InputsConfig("java-project", root, task_pattern=pattern)))


def write_config(tmp_path: Path, inputs_extra: str = "", rest: str = "") -> Path:
    cfg = tmp_path / "run.yaml"
    cfg.write_text("inputs:\n  format: java-project\n  path: proj\n" + inputs_extra +
                   "measures: [rouge-1]\noutputs: {dir: out, console: false}\n" + rest)
    return cfg


# --------------------------------------------------------------------------- the default rule and its warning


def test_default_rule_cuts_at_the_first_underscore_and_warns(tmp_path):
    root = news_project(tmp_path)
    with pytest.warns(UserWarning) as record:
        got = items(root)
    assert len(record) == 1
    message = str(record[0].message)
    assert "task 'news' groups files news_1_*, news_2_* in both reference/ and system/" in message
    assert "the default rule (the task is the text before the first '_')" in message
    assert "set inputs.task_pattern, e.g. '(?P<task>[^_]+_[^_]+)_'" in message
    # today's grouping, which the warning is about: one task, every system against both references
    assert {(i.task, i.system) for i in got} == {("news", "1_sysA.txt"), ("news", "1_sysB.txt"),
                                                 ("news", "2_sysA.txt"), ("news", "2_sysB.txt")}
    assert all(i.reference_names == ("1_ref.txt", "2_ref.txt") for i in got)


def test_task_pattern_groups_tasks_with_underscores(tmp_path):
    root = news_project(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = items(root, r"(?P<task>[^_]+_[^_]+)_")
    assert [(i.task, i.system, i.reference_names) for i in got] == [
        ("news_1", "sysA.txt", ("ref.txt",)), ("news_1", "sysB.txt", ("ref.txt",)),
        ("news_2", "sysA.txt", ("ref.txt",)), ("news_2", "sysB.txt", ("ref.txt",))]
    assert got[0].candidate == "storm hits\n" and got[0].references == ("storm hits coast\n",)


def test_name_group_names_the_system(tmp_path):
    root = news_project(tmp_path)
    got = items(root, r"(?P<task>news_\d+)_(?P<name>[^.]+)\.txt")
    assert [(i.task, i.system) for i in got] == [("news_1", "sysA"), ("news_1", "sysB"),
                                                 ("news_2", "sysA"), ("news_2", "sysB")]
    assert got[0].reference_names == ("ref",)


def test_a_run_with_task_pattern_scores_per_task(tmp_path, recwarn):
    news_project(tmp_path)
    cfg = write_config(tmp_path, "  task_pattern: '(?P<task>[^_]+_[^_]+)_'\n")
    result = run(load_config(cfg), progress=False)
    # sysA says 2 of the 3 reference words of each task: R = 2/3, P = 1
    assert result.pairs[("news_1", "sysA.txt")]["rouge-1"].recall == pytest.approx(2 / 3)
    assert result.pairs[("news_2", "sysA.txt")]["rouge-1"].precision == 1.0
    assert result.systems["sysA.txt"]["rouge-1"]["tasks"] == 2
    assert not [w for w in recwarn.list if issubclass(w.category, UserWarning)]


def test_the_cli_shows_the_warning_as_one_line(tmp_path, capsys):
    news_project(tmp_path)
    assert main(["run", "--check", str(write_config(tmp_path))]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and captured.err.startswith("rouge2: warning: ")
    assert "task 'news' groups files news_1_*, news_2_*" in captured.err
    assert captured.out.endswith(": 4 systems, 1 task, 4 summaries)\n")


def test_check_reads_no_summary_of_a_java_project(tmp_path, capsys, monkeypatch):
    news_project(tmp_path)
    monkeypatch.setattr(inputs, "_read_text", lambda *a: pytest.fail("read a summary"))
    cfg = write_config(tmp_path, "  task_pattern: '(?P<task>[^_]+_[^_]+)_'\n")
    assert main(["run", "--check", str(cfg)]) == 0
    assert capsys.readouterr().out.endswith(": 2 systems, 2 tasks, 4 summaries)\n")


# --------------------------------------------------------------------------- the detection rule


def test_detection_needs_two_prefixes_shared_by_references_and_systems():
    # system names with '_' of their own are ordinary names
    assert ambiguous_tasks({"d1": ["A.txt", "B.txt"]}, {"d1": ["bart_large.txt", "t5_large.txt"]}) == {}
    # one shared prefix changes no grouping
    assert ambiguous_tasks({"news": ["1_ref.txt"]}, {"news": ["1_sysA.txt", "1_sysB.txt"]}) == {}
    # prefixes on one side only
    assert ambiguous_tasks({"news": ["1_ref.txt", "2_ref.txt"]}, {"news": ["sysA.txt", "sysB.txt"]}) == {}
    assert ambiguous_tasks({"news": ["1_ref.txt", "2_ref.txt", "x_ref.txt"]},
                           {"news": ["2_s.txt", "1_s.txt", "3_s.txt"], "other": ["1_s.txt"]}) \
        == {"news": ["1", "2"]}


@pytest.mark.skipif(not SHARED_JAVA.is_dir(), reason="shared Java samples not available")
def test_no_warning_on_the_java_tools_own_projects():
    roots = sorted(p.parent for p in SHARED_JAVA.rglob("system") if (p.parent / "reference").is_dir())
    assert len(roots) >= 8
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for root in roots:
            assert list(list_pairs(InputsConfig("java-project", root)))


@given(st.text(alphabet="ab_.", min_size=1, max_size=8))
def test_default_pattern_is_the_default_rule(name):
    def outcome(pattern):
        try:
            return inputs._java_name(Path(name), pattern)
        except UserError:
            return "error"

    assert outcome(None) == outcome(re.compile(DEFAULT_TASK_PATTERN))


# --------------------------------------------------------------------------- mistakes


@pytest.mark.parametrize("pattern, message", [
    ("'(?P<task>[^_+_'", r"run\.yaml:4: inputs\.task_pattern: not a valid regular expression: "
                         r"unterminated character set at position 9"),
    ("'([^_]+)_'", r"run\.yaml:4: inputs\.task_pattern: '\(\[\^_\]\+\)_' has no named group 'task'"),
    ("'(?P<tsk>[^_]+)_'", r"run\.yaml:4: inputs\.task_pattern: .* names a group 'tsk' "
                          r"\(did you mean 'task'\?\)"),
    ("''", r"run\.yaml:4: inputs\.task_pattern: expected a regular expression"),
    ("12", r"run\.yaml:4: inputs\.task_pattern: expected a regular expression .*, got '12'"),
])
def test_bad_pattern_is_a_config_error_at_its_line(tmp_path, pattern, message):
    news_project(tmp_path)
    with pytest.raises(UserError, match=message) as err:
        load_config(write_config(tmp_path, f"  task_pattern: {pattern}\n"))
    assert "\n" not in str(err.value)


def test_task_pattern_only_for_java_projects(tmp_path):
    (tmp_path / "rows.jsonl").write_text("")
    cfg = tmp_path / "run.yaml"
    cfg.write_text("inputs:\n  format: jsonl\n  path: rows.jsonl\n  task_pattern: '(?P<task>.+)_'\n")
    with pytest.raises(UserError, match=r"run\.yaml:4: inputs\.task_pattern: only used with the "
                                        r"java-project format, not with jsonl"):
        load_config(cfg)


def test_file_not_matching_the_pattern_is_named(tmp_path):
    root = news_project(tmp_path)
    (root / "system" / "sports_sysA.txt").write_text("x\n")
    with pytest.raises(UserError, match=r"sports_sysA\.txt: file name 'sports_sysA\.txt' does not match "
                                        r"inputs\.task_pattern"):
        items(root, r"(?P<task>[^_]+_\d+)_")


def test_empty_name_is_an_error(tmp_path):
    root = news_project(tmp_path)
    with pytest.raises(UserError, match=r"gives file name 'news_1_ref\.txt' an empty name"):
        items(root, r"(?P<task>.+)")


def test_two_files_with_one_task_and_name_are_an_error(tmp_path):
    root = news_project(tmp_path)
    (root / "system" / "news_1_sysA.md").write_text("storm\n")
    with pytest.raises(UserError, match=r"news_1_sysA\.txt: inputs\.task_pattern gives it the same task and "
                                        r"system as news_1_sysA\.md \(task 'news_1', system 'sysA'\)"):
        items(root, r"(?P<task>news_\d+)_(?P<name>[^.]+)")
