"""``rouge2 run`` and ``rouge2 convert-properties``.

Both raise :class:`~rouge2.errors.UserError` for user mistakes; ``rouge2.cli``
prints them as one line and exits with status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rouge2.cli.options import add_threads_flag, per_core_count
from rouge2.errors import UserError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, through UserError
        raise UserError(f"{message} (see 'rouge2 {self.prog.split()[-1]} -h')")


def run_main(argv: list[str]) -> int:
    parser = _Parser(
        prog="rouge2 run",
        description="Run an evaluation described by a YAML config (rouge2 docs config).",
    )
    parser.add_argument("config", help="the YAML config file")
    parser.add_argument("--check", action="store_true",
                        help="validate the config and the inputs' (task, system) list, including "
                             "the systems named in compare and topic_report.contrast, without "
                             "scoring; then stop")
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="do not print the console table (files are still written)")
    parser.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                        help="progress bar on stderr: auto = only on a terminal")
    parser.add_argument("--jobs", "-j", type=per_core_count("processes"), default=1, metavar="N",
                        help="score and compute the statistics in up to N processes, at most one "
                             "per usable CPU core (results identical to one process; "
                             "0 = one per CPU core; default 1)")
    add_threads_flag(parser)
    parser.add_argument("--overwrite", action="store_true",
                        help="replace existing output files rouge2 did not write "
                             "(as outputs.overwrite: true; never an input, a device or a folder)")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="list every file written, one a line (else they are counted by folder)")
    args = parser.parse_args(argv)

    from rouge2 import files
    from rouge2.config.yaml_config import load_config

    with files.recording() as read:  # the config is an input: no output may replace it
        cfg = load_config(args.config)
    if not args.quiet:
        _java_note(args.config)
    if args.check:
        from rouge2.run.runner import check

        counts = check(cfg)

        def n(k: int, word: str, plural: str | None = None) -> str:
            return f"{k} {word if k == 1 else (plural or word + 's')}"

        print(f"{args.config}: OK ({n(len(cfg.measures), 'measure')}, inputs {cfg.inputs.format} "
              f"at {cfg.inputs.path}: {n(counts['systems'], 'system')}, {n(counts['tasks'], 'task')}, "
              f"{n(counts['summaries'], 'summary', 'summaries')})")
        return 0
    if args.quiet:
        import dataclasses

        cfg = dataclasses.replace(cfg, outputs=dataclasses.replace(cfg.outputs, console=False))
    from rouge2.run.runner import run

    progress = {"auto": None, "on": True, "off": False}[args.progress]
    with files.recording(read):
        run(cfg, progress=progress, jobs=args.jobs, overwrite=args.overwrite, verbose=args.verbose,
            threads=args.threads)
    return 0


def _java_note(path: str) -> None:
    """One line on stderr when the config was converted from a Java ROUGE 2.0 setup:
    its numbers are not the jar's, and where that is explained."""
    from rouge2.config.properties import JAVA_NUMBERS_NOTE, converted_from_java
    from rouge2.config.validate import read_config_text

    if converted_from_java(read_config_text(Path(path))):
        print(f"rouge2 run: note: {JAVA_NUMBERS_NOTE}", file=sys.stderr)


def convert_properties_main(argv: list[str]) -> int:
    parser = _Parser(
        prog="rouge2 convert-properties",
        description=("Print a YAML config equivalent to a Java ROUGE 2.0 rouge.properties. "
                     "Paths are resolved from the current directory, as the Java tool does."),
    )
    parser.add_argument("properties", help="the rouge.properties file")
    parser.add_argument("--relative-to", metavar="DIR",
                        help="write paths relative to DIR (where you will keep the YAML) "
                             "instead of absolute paths")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the YAML to FILE instead of printing it (never over an input, "
                             "nor over a file rouge2 did not write unless --overwrite)")
    parser.add_argument("--overwrite", action="store_true",
                        help="let -o replace a file rouge2 did not write")
    args = parser.parse_args(argv)

    from rouge2 import files
    from rouge2.config.properties import convert_properties

    if args.output is None:
        sys.stdout.write(convert_properties(args.properties, relative_to=args.relative_to))
        return 0
    from rouge2.io.outputs import OutputFiles, declared_inputs

    inputs = declared_inputs([args.properties])
    out = OutputFiles([args.output], overwrite=args.overwrite, inputs=inputs,
                      hint="use --overwrite to replace it", lock_hint="write the file elsewhere")
    try:
        with files.recording(inputs):  # every file the conversion reads is an input too
            text = convert_properties(args.properties, relative_to=args.relative_to)
        with out.open(args.output) as f:
            f.write(text)
    except BaseException:
        out.abort()
        raise
    written = out.commit()
    print(f"wrote {written[0]}", file=sys.stderr)
    return 0
