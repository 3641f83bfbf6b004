"""``rouge2 rouge155-shim DIR``: a stand-in ROUGE-1.5.5 folder for pyrouge and files2rouge.

Those tools want a folder holding ``ROUGE-1.5.5.pl`` and a ``data/`` folder
(``pyrouge_set_rouge_path DIR``; files2rouge's ``ROUGE_path``).  The shim's
``ROUGE-1.5.5.pl`` is a two-line Perl program that hands its arguments to
``rouge2 rouge155``, so it works both when run directly and as
``perl ROUGE-1.5.5.pl ...``.  It names the Python that created it, so it
keeps working outside an activated virtual environment.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from rouge2.errors import UserError

SHIM = """#!/usr/bin/env perl
# Stand-in for ROUGE-1.5.5.pl written by `rouge2 rouge155-shim`: same options,
# same report, computed by rouge2 (https://pypi.org/project/rouge2).
exec({python!r}, "-m", "rouge2", "rouge155", @ARGV) or die "cannot run rouge2: $!\\n";
"""


def write_shim(folder: str | os.PathLike) -> Path:
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise UserError(f"{target}: exists and is not a folder: give a folder path")
    (target / "data").mkdir(parents=True, exist_ok=True)
    (target / "data" / "README.txt").write_text(
        "rouge2 ships its own stemmer and stopword data; this folder exists because\n"
        "pyrouge and files2rouge check for it. Its contents are never read.\n",
        encoding="utf-8",
    )
    script = target / "ROUGE-1.5.5.pl"
    tmp = script.with_suffix(".pl.tmp")
    tmp.write_text(SHIM.format(python=sys.executable).replace("'", '"'), encoding="utf-8")
    tmp.chmod(tmp.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    os.replace(tmp, script)
    return script


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help") or len(argv) != 1:
        print("usage: rouge2 rouge155-shim DIR\n\n"
              "Write DIR/ROUGE-1.5.5.pl (runs `rouge2 rouge155`) and DIR/data/ so that\n"
              "pyrouge (pyrouge_set_rouge_path DIR) and files2rouge can use rouge2.")
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    script = write_shim(argv[0])
    print(f"wrote {script}; point pyrouge or files2rouge at {script.parent}")
    return 0
