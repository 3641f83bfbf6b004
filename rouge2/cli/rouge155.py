"""``rouge2 rouge155 [options] SETTINGS.xml [SYSTEM-ID]``: the drop-in command.

Prints the ROUGE-1.5.5 report on stdout (all of it once every evaluation is
scored, or none of it) and the script's warnings on stderr.  User mistakes
end with one line ``rouge2 rouge155: error: ...`` and exit status 2.
"""

from __future__ import annotations

import os
import sys
from typing import Any, BinaryIO, TextIO

from rouge2.config.rouge155_args import USAGE, parse_args
from rouge2.errors import UserError
from rouge2.io.report155 import encode_line
from rouge2.io.rouge155 import read_file_list, read_settings
from rouge2.run.rouge155 import Engine

PROG = "rouge2 rouge155"


def run(argv: list[str], out: BinaryIO, err: TextIO) -> int:
    """Run the command, writing report bytes to ``out`` and messages to ``err``."""

    def warn(msg: str) -> None:
        err.write(msg + "\n")

    try:
        options = parse_args(list(argv))
        if options.help:
            out.write(USAGE.encode())
            return 0
        if options.file_list_format is not None:
            assert options.system_id is not None  # -z defaults it to X
            settings = read_file_list(options.config, options.file_list_format, options.system_id)
        else:
            settings = read_settings(options.config)

        # The report is held until every evaluation is scored, so a mistake
        # found late (a missing or unreadable file) prints no partial report.
        report: list[bytes] = []

        def emit(line: str) -> None:
            report.append(encode_line(line) + b"\n")

        Engine(options, settings, emit, warn).run(jobs=options.jobs)
        out.write(b"".join(report))
    except BrokenPipeError:
        # the reader went away (e.g. "| head"); stop quietly like the script
        _silence_stdout()
        return 1
    except UserError as exc:
        try:
            out.flush()
        except Exception:  # pragma: no cover
            pass
        err.write(f"{PROG}: error: {exc}\n")
        return 2
    finally:
        try:
            out.flush()
        except BrokenPipeError:
            _silence_stdout()
        except Exception:  # pragma: no cover
            pass
    return 0


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's
    final flush does not print a traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # pragma: no cover
        pass


def main(argv: list[str] | None = None) -> int:
    """Entry point: ``main(sys.argv[1:])`` style; returns the exit status."""
    if argv is None:
        argv = sys.argv[1:]
    sys.stdout.flush()
    out: Any = getattr(sys.stdout, "buffer", None)
    if out is None:  # a text-only stream (e.g. some test harnesses)
        class _TextOut:
            def write(self, data: bytes) -> None:
                sys.stdout.write(data.decode("latin-1"))

            def flush(self) -> None:
                sys.stdout.flush()

        out = _TextOut()
    return run(argv, out, sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
