"""The ``rouge2`` command: sub-commands for runs, the ROUGE-1.5.5 drop-in, and pairs.

User mistakes end as one line on stderr (``rouge2 <command>: error: ...``)
with exit status 2, never a traceback.
"""

from __future__ import annotations

import importlib
import signal
import sys
import threading
import warnings

from rouge2._version import __version__
from rouge2.errors import UserError

USAGE = f"""usage: rouge2 <command> [options]

rouge2 {__version__}: ROUGE as ROUGE-1.5.5 scores it, plus the ROUGE 2.0 measures.

commands:
  score -r REFS -i PREDS           corpus scores with intervals (line-aligned files, stdin, JSONL)
  score -c CAND -r REF [REF ...]   score one candidate file against reference files
  run CONFIG.yaml                  run an evaluation described by a YAML config
  rouge155 [options] CONFIG.xml    drop-in for ROUGE-1.5.5.pl (same options, same report)
  rouge155-shim DIR                write DIR/ROUGE-1.5.5.pl for pyrouge / files2rouge
  correlate RESULTS --judgments F  correlations of a run's scores with human judgments, with intervals
  convert-properties FILE          print a YAML config equivalent to a Java ROUGE 2.0 rouge.properties
  components [KIND]                list the measures, tokenizers, stemmers, ... rouge2 and its plugins have
  example [NAME]                   print a bundled example config (rouge2 example quickstart > run.yaml)
  docs [PAGE]                      print a page of the documentation (rouge2 docs options)

Run 'rouge2 <command> -h' for a command's options, 'rouge2 docs' for the documentation.
"""

#: command -> (module, function); a command's module is imported only when it runs
_COMMANDS = {
    "score": ("rouge2.cli.score", "main"),
    "run": ("rouge2.cli.run", "run_main"),
    "correlate": ("rouge2.cli.correlate", "main"),
    "rouge155": ("rouge2.cli.rouge155", "main"),
    "rouge155-shim": ("rouge2.cli.shim", "main"),
    "convert-properties": ("rouge2.cli.run", "convert_properties_main"),
    "components": ("rouge2.cli.help", "components_main"),
    "example": ("rouge2.cli.help", "example_main"),
    "docs": ("rouge2.cli.help", "docs_main"),
}
COMMANDS = tuple(_COMMANDS)


def _dispatch(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        sys.stdout.write(USAGE)
        return 0
    if argv[0] in ("-V", "--version"):
        print(f"rouge2 {__version__}")
        return 0
    command, rest = argv[0], argv[1:]
    target = _COMMANDS.get(command)
    if target is None:
        # lazy: the registry module (logging, dataclasses, pkgutil) costs start-up time
        # that only an unknown command needs
        from rouge2.registry import suggest

        raise UserError(f"unknown command {command!r}{suggest(command, COMMANDS)}; use one of: "
                        f"{', '.join(COMMANDS)} (see 'rouge2 -h')")
    module, function = target
    return getattr(importlib.import_module(module), function)(rest)


def _one_line_warnings() -> None:
    """Python warnings as one line on stderr (``rouge2: warning: ...``)."""
    def show(message, category, filename, lineno, file=None, line=None):
        print(f"rouge2: warning: {message}", file=sys.stderr if file is None else file)

    warnings.showwarning = show


#: signals that stop a command like Ctrl-C (SIGINT) does (rouge2.io.atomic.STOP_SIGNALS)
STOP_LIKE_INTERRUPT = ("SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGVTALRM",
                       "SIGPROF", "SIGXCPU")


class Terminated(KeyboardInterrupt):
    """SIGTERM, SIGHUP (and the other signals of :data:`STOP_LIKE_INTERRUPT`),
    raised where the program is, like Ctrl-C (SIGINT):
    every ``with`` and ``finally`` on the way out runs, so staged output
    files are deleted and no output file is half-written."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _terminate_like_interrupt() -> dict:
    """Install handlers of :data:`STOP_LIKE_INTERRUPT` that raise
    :class:`Terminated`; return the previous handlers.  Only in the main
    thread (signal's rule)."""
    previous: dict = {}
    if threading.current_thread() is not threading.main_thread():
        return previous

    def handler(signum, frame):
        raise Terminated(signum)

    for name in STOP_LIKE_INTERRUPT:
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        try:
            old = signal.getsignal(sig)
            if old is signal.SIG_IGN:  # e.g. started with nohup: keep ignoring
                continue
            signal.signal(sig, handler)
            previous[sig] = old
        except (OSError, ValueError):  # pragma: no cover
            pass
    return previous


def _restore(previous: dict) -> None:
    for sig, old in previous.items():
        try:
            signal.signal(sig, old)
        except (OSError, ValueError, TypeError):  # pragma: no cover
            pass


def main(argv: list[str] | None = None) -> int:
    """Run a command; user mistakes end as one line with status 2, an
    interruption (SIGINT, SIGTERM, SIGHUP) as one line with status 128 + the
    signal number, after the staged output files are deleted."""
    argv = list(sys.argv[1:] if argv is None else argv)
    _one_line_warnings()
    atomic = sys.modules.get("rouge2.io.atomic")
    mark = len(atomic.published) if atomic is not None else 0  # files published before this command
    previous = _terminate_like_interrupt()
    try:
        return _dispatch(argv)
    except UserError as exc:
        name = argv[0] if argv and not argv[0].startswith("-") else ""
        prefix = f"rouge2 {name}".strip()
        print(f"{prefix}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        from rouge2.io.atomic import stop_message  # what changed: nothing, or a complete set

        signum = getattr(exc, "signum", signal.SIGINT)
        print(stop_message(signum, mark), file=sys.stderr)
        return 128 + int(signum)
    except BrokenPipeError:
        return 0
    except MemoryError:
        # e.g. ROUGE-L/W on a very long single line: the table grows with the
        # product of two sentences' lengths; staged files are already removed
        name = argv[0] if argv and not argv[0].startswith("-") else ""
        print(f"{f'rouge2 {name}'.strip()}: error: out of memory; very long lines make ROUGE-L/W/S "
              f"tables large: split texts into sentences (one a line), or allow more memory",
              file=sys.stderr)
        return 2
    finally:
        _restore(previous)


if __name__ == "__main__":
    sys.exit(main())
