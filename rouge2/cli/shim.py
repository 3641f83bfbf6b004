"""``rouge2 rouge155-shim DIR``: a stand-in ROUGE-1.5.5 folder for pyrouge and files2rouge.

Those tools want a folder holding ``ROUGE-1.5.5.pl`` and a ``data/`` folder
(``pyrouge_set_rouge_path DIR``; files2rouge's ``ROUGE_path``).  The shim's
``ROUGE-1.5.5.pl`` is a two-line Perl program that hands its arguments to
``rouge2 rouge155``, so it works both when run directly and as
``perl ROUGE-1.5.5.pl ...``.  It names the Python that created it, so it
keeps working outside an activated virtual environment.

The files go through the output layer (docs/safety.md): an existing
``ROUGE-1.5.5.pl`` that rouge2 did not write (the real script, say) is not
replaced unless ``--overwrite``; nothing is written through a symbolic link;
both files appear together or not at all.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from rouge2.errors import UserError
from rouge2.io.outputs import OutputFiles

#: in every shim rouge2 wrote: recognises one written before rouge2 kept a record of its files
MARKER = "written by `rouge2 rouge155-shim`"

SHIM = """#!/usr/bin/env perl
# Stand-in for ROUGE-1.5.5.pl {marker}: same options,
# same report, computed by rouge2 (https://pypi.org/project/rouge2).
exec({python}, '-m', 'rouge2', 'rouge155', @ARGV) or die "cannot run rouge2: $!\\n";
"""

README = ("rouge2 ships its own stemmer and stopword data; this folder exists because\n"
          "pyrouge and files2rouge check for it. Its contents are never read.\n")


def perl_string(text: str) -> str:
    """``text`` as a Perl single-quoted string: nothing in it is interpolated
    (``@``, ``$``), only ``\\`` and ``'`` need a backslash."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def shim_text(python: str) -> str:
    return SHIM.format(marker=MARKER, python=perl_string(python))


def _written_by_rouge2(path: Path) -> bool:
    """An existing shim from a rouge2 that kept no record of its files."""
    try:
        if not path.is_file() or path.is_symlink() or path.stat().st_size > 4096:
            return False
        return MARKER in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def write_shim(folder: str | os.PathLike, *, overwrite: bool = False, python: str | None = None) -> Path:
    """Write ``folder/ROUGE-1.5.5.pl`` and ``folder/data/``; the script's path."""
    target = Path(folder)
    if os.path.lexists(target) and not target.is_dir():
        raise UserError(f"{target}: exists and is not a folder: give a folder path")
    script = target / "ROUGE-1.5.5.pl"
    readme = target / "data" / "README.txt"
    own = {p for p in (script, readme) if _written_by_rouge2(p) or (p == readme and _same(p, README))}
    recognised = bool(own) and not _others(own, script, readme)
    hint = "use rouge2 rouge155-shim --overwrite DIR to replace it"
    with OutputFiles([script, readme], overwrite=overwrite or recognised,
                     hint=hint, lock_hint="choose another folder") as out:
        with out.open(readme) as f:
            f.write(README)
        with out.open(script, executable=True) as f:
            f.write(shim_text(python or sys.executable))
    return script


def _same(path: Path, text: str) -> bool:
    try:
        return path.is_file() and not path.is_symlink() and path.read_text(encoding="utf-8") == text
    except (OSError, UnicodeDecodeError):
        return False


def _others(own: set[Path], *paths: Path) -> bool:
    """Whether a path not in ``own`` exists (then no path is overwritten by recognition)."""
    return any(os.path.lexists(p) and p not in own for p in paths)


def main(argv: list[str]) -> int:
    args = [a for a in argv if a != "--overwrite"]
    if not args or args[0] in ("-h", "--help") or len(args) != 1:
        print("usage: rouge2 rouge155-shim [--overwrite] DIR\n\n"
              "Write DIR/ROUGE-1.5.5.pl (runs `rouge2 rouge155`) and DIR/data/ so that\n"
              "pyrouge (pyrouge_set_rouge_path DIR) and files2rouge can use rouge2.\n"
              "An existing ROUGE-1.5.5.pl that rouge2 did not write is replaced only with --overwrite.")
        return 0 if args and args[0] in ("-h", "--help") else 2
    script = write_shim(args[0], overwrite="--overwrite" in argv)
    print(f"wrote {script}; point pyrouge or files2rouge at {script.parent}")
    return 0
