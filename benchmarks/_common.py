"""Helpers shared by the benchmark scripts: data, versions, CPU clocks.

Only the public API of rouge2 is used (``rouge2.score_corpus``,
``rouge2.Scorer``, the ``rouge2`` command), plus the one flag that says
whether the compiled kernels are active.
"""

from __future__ import annotations

import importlib
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
from importlib import metadata
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SHARED = os.environ.get("ROUGE2_SHARED", str(REPO.parent / "shared"))
SUMMEVAL = "data/summeval/summeval.jsonl"


# --------------------------------------------------------------------- data


def summeval_rows(shared: str | Path):
    """The SummEval documents, in file order (100 rows)."""
    path = Path(shared) / SUMMEVAL
    if not path.is_file():
        sys.exit(f"error: SummEval not found at {path} (give --shared PATH or set ROUGE2_SHARED)")
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def summeval_pairs(rows, limit: int | None = None, multi: bool = False):
    """(candidate, reference) pairs: documents in file order, systems sorted by name.

    With ``multi`` the reference is the list of the document's 11 references
    (``ref_summs``); otherwise the single ``ref_summ`` (the first of them).
    """
    pairs = []
    for row in rows:
        refs = list(row["ref_summs"]) if multi else row["ref_summ"]
        for name in sorted(row["sys_summs"]):
            pairs.append((row["sys_summs"][name]["sys_summ"], refs))
            if limit is not None and len(pairs) >= limit:
                return pairs
    return pairs


OPINOSIS = "data/opinosis/summaries-gold"


def opinosis_pairs(shared: str | Path, limit: int | None = None):
    """(candidate, reference) pairs of Opinosis: in each of the 51 topics
    (sorted), every gold summary (in file order) against every other one.
    Short review summaries, a sentence a line."""
    root = Path(shared) / OPINOSIS
    if not root.is_dir():
        sys.exit(f"error: Opinosis not found at {root} (give --shared PATH or set ROUGE2_SHARED)")
    pairs = []
    for topic in sorted(p for p in root.iterdir() if p.is_dir()):
        golds = [f.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n").strip()
                 for f in sorted(topic.glob("*.gold"))]
        for i, cand in enumerate(golds):
            for j, ref in enumerate(golds):
                if i != j:
                    pairs.append((cand, ref))
                    if limit is not None and len(pairs) >= limit:
                        return pairs
    return pairs


def summeval_reference_pairs(rows, limit: int | None = None):
    """(reference i, reference j) pairs of SummEval, i != j, document by
    document: human news summaries against each other."""
    pairs = []
    for row in rows:
        refs = row["ref_summs"]
        for i, cand in enumerate(refs):
            for j, ref in enumerate(refs):
                if i != j:
                    pairs.append((cand, ref))
                    if limit is not None and len(pairs) >= limit:
                        return pairs
    return pairs


# ----------------------------------------------------------------- versions


def dist_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def have_c() -> str:
    """Whether rouge2's compiled kernels are active (the flag has moved once)."""
    for module in ("rouge2.kernels", "rouge2.measures._kernels"):
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        flag = getattr(mod, "HAVE_C", None)
        if flag is not None:
            return f"{bool(flag)} ({module}.HAVE_C)"
    return "unknown (no HAVE_C flag found)"


def print_versions(*, peers: bool = True, perl: str | None = None) -> None:
    import rouge2

    print(f"python {platform.python_version()} ({platform.python_implementation()}), "
          f"{platform.machine()}, {os.cpu_count()} CPUs seen")
    print(f"rouge2 {rouge2.__version__} from {Path(rouge2.__file__).parent}; C kernels active: {have_c()}"
          + ("; ROUGE2_PURE_PYTHON is set" if os.environ.get("ROUGE2_PURE_PYTHON") else ""))
    if peers:
        for dist in ("rouge-score", "rouge-score-rs"):
            v = dist_version(dist)
            print(f"{dist} {v}" if v else f"{dist}: not installed (pip install -e '.[bench]')")
    if perl:
        try:
            out = subprocess.run(["perl", "-e", "print $^V"], capture_output=True, text=True, check=True)
            pv = out.stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            pv = "?"
        print(f"ROUGE-1.5.5.pl at {perl} (perl {pv})")


# ------------------------------------------------------------------- clocks


def children_cpu() -> float:
    """User + system CPU seconds of all waited-for children (and theirs)."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_child_cpu(cmd, **kwargs) -> tuple[float, subprocess.CompletedProcess]:
    """Run ``cmd`` to completion; its CPU seconds (from getrusage) and the result."""
    before = children_cpu()
    proc = subprocess.run(cmd, **kwargs)
    return children_cpu() - before, proc


def median(xs):
    return statistics.median(xs)


def fmt_rate(x: float) -> str:
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 1:
        return f"{x:,.1f}"
    return f"{x:.3f}"


def env_one_core() -> dict:
    """The environment for a child process that must stay on one core."""
    env = dict(os.environ)
    env["RAYON_NUM_THREADS"] = "1"
    return env
