"""Option parsing of ``rouge2 rouge155`` (Getopt::Std-compatible) and its errors."""

import io

import pytest

from rouge2.cli.rouge155 import run
from rouge2.config.rouge155_args import getopts, parse_args, perl_num
from rouge2.errors import UserError
from rouge2.run.rouge155 import measure_plan


def test_bundled_flags_and_values():
    opts, rest = getopts(["-ad", "-n4", "-c", "90", "-2", "-1", "-U", "conf.xml", "-x"])
    assert opts == {"a": True, "d": True, "n": "4", "c": "90", "2": "-1", "U": True}
    assert rest == ["conf.xml", "-x"]  # processing stops at the first argument


def test_value_glued_to_bundle():
    opts, rest = getopts(["-mn2", "c.xml"])
    assert opts == {"m": True, "n": "2"}
    assert rest == ["c.xml"]


def test_double_dash_ends_options():
    opts, rest = getopts(["-a", "--", "-weird.xml"])
    assert opts == {"a": True} and rest == ["-weird.xml"]


def test_defaults_and_derived_settings():
    o = parse_args(["-a", "c.xml"])
    assert o.all_systems and o.confidence == 95 and o.resamples == 1000
    assert o.score_mode == "A" and o.alpha == 0.5 and o.average_mode == 0
    assert measure_plan(o) == [("ROUGE-L", "rouge-l")]


def test_measure_plan_order():
    o = parse_args(["-n", "2", "-w", "1.2", "-2", "4", "-U", "-a", "c.xml"])
    assert [t for t, _ in measure_plan(o)] == [
        "ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4", "ROUGE-SU4",
    ]
    o = parse_args(["-x", "-2", "-1", "-U", "-a", "c.xml"])
    assert measure_plan(o) == [("ROUGE-S*", "rouge-s*"), ("ROUGE-SU*", "rouge-su*")]
    o = parse_args(["-x", "-2", "3", "-u", "-U", "-a", "c.xml"])
    assert measure_plan(o) == [("ROUGE-SU3", "rouge-su3")]
    o = parse_args(["-x", "-u", "-a", "c.xml"])  # -u without -2 does nothing
    assert measure_plan(o) == []


def test_mode_and_formula_coercions():
    assert parse_args(["-t", "3", "-a", "c"]).average_mode == 0
    assert parse_args(["-t", "2", "-a", "c"]).average_mode == 2
    assert parse_args(["-f", "C", "-a", "c"]).score_mode == "A"
    o = parse_args(["-z", "SPL", "list.txt"])
    assert o.system_id == "X" and not o.all_systems
    assert parse_args(["c.xml", "SYS"]).system_id == "SYS"


def test_perl_numbers():
    assert perl_num("95") == 95 and perl_num(" 1.5x") == 1.5 and perl_num("abc") == 0
    assert perl_num("-1") == -1 and perl_num(".5") == 0.5 and perl_num("1e2") == 100


@pytest.mark.parametrize(
    "argv, message",
    [
        ([], "give the ROUGE settings file (use -h for help)"),
        (["c.xml"], "give a system ID to evaluate, or use -a to evaluate all systems"),
        (["-q", "-a", "c.xml"], "unknown option -q (use -h for help)"),
        (["-a", "c.xml", "-n"], None),
        (["-a", "-n"], "option -n needs a value"),
        (["-l", "10", "-b", "20", "-a", "c"], "give a length limit in words (-l) or in bytes (-b), not both"),
        (["-c", "101", "-a", "c"], "the confidence interval (-c) must be between 0 and 100"),
        (["-w", "0", "-a", "c"], "the ROUGE-W weight factor (-w) must be greater than 0 and at most 5.5 (the reference total k^(w*w) overflows beyond), got '0'"),
        (["-p", "1.5", "-a", "c"], "the F-measure weight (-p) must be between 0 and 1"),
        (["-l", "2.5", "-a", "c"], "option -l needs a whole number of words, got '2.5'"),
        (["-M", "-a", "c"], "-M (stem models only) is not supported"),
        (["-3", "HM", "-a", "c"], "-3 (Basic Element scoring) is not supported"),
        (["-c", "nan", "-a", "c"], "the confidence interval (-c) must be between 0 and 100"),
        (["-p", "nan", "-a", "c"], "the F-measure weight (-p) must be between 0 and 1"),
        (["-w", "5.6", "-a", "c"], "the ROUGE-W weight factor (-w) must be greater than 0 and at most 5.5 (the reference total k^(w*w) overflows beyond), got '5.6'"),
        (["-w", "inf", "-a", "c"], "the ROUGE-W weight factor (-w) must be greater than 0 and at most 5.5 (the reference total k^(w*w) overflows beyond), got 'inf'"),
        (["-r", "nan", "-a", "c"], "the number of bootstrap resamples (-r) must be from 1 to 1,000,000, got 'nan'"),
        (["-r", "1e300", "-a", "c"], "the number of bootstrap resamples (-r) must be from 1 to 1,000,000, got '1e300'"),
        (["-r", "-1", "-a", "c"], "the number of bootstrap resamples (-r) must be from 1 to 1,000,000, got '-1'"),
        (["-r", "0", "-a", "c"], "the number of bootstrap resamples (-r) must be from 1 to 1,000,000, got '0'"),
        (["-r", "0", "-t", "2", "-a", "c"], None),  # raw counts: no resampling, as in the script
        (["-n", "1e9", "-a", "c"], "option -n (ROUGE-1 .. ROUGE-N) needs a number from 1 to 100, got '1e9'"),
        (["-n", "nan", "-a", "c"], "option -n (ROUGE-1 .. ROUGE-N) needs a number from 1 to 100, got 'nan'"),
        (["-n", "100", "-a", "c"], None),
    ],
)
def test_errors(argv, message):
    if message is None:
        parse_args(argv)  # trailing "-n" after the file is an argument, not an option
        return
    with pytest.raises(UserError) as exc:
        parse_args(argv)
    assert str(exc.value) == message
    assert "\n" not in str(exc.value)


def test_cli_error_line_and_status():
    out, err = io.BytesIO(), io.StringIO()
    assert run(["-q", "c.xml"], out, err) == 2
    assert err.getvalue() == "rouge2 rouge155: error: unknown option -q (use -h for help)\n"
    assert out.getvalue() == b""


def test_cli_missing_settings_file(tmp_path):
    out, err = io.BytesIO(), io.StringIO()
    assert run(["-a", str(tmp_path / "nope.xml")], out, err) == 2
    assert err.getvalue().startswith("rouge2 rouge155: error: ") and "settings file not found" in err.getvalue()
    assert "nope.xml" in err.getvalue()


def test_cli_help():
    out, err = io.BytesIO(), io.StringIO()
    assert run(["-h"], out, err) == 0
    assert out.getvalue().startswith(b"usage: rouge2 rouge155")
