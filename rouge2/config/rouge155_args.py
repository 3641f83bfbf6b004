"""ROUGE-1.5.5-compatible command-line options.

Parsing follows Perl's ``Getopt::Std::getopts`` as the script calls it:
single-letter options, bundling (``-ad``), an option's value either glued
(``-n4``) or in the next argument (``-n 4``, also ``-2 -1``), option
processing stops at the first non-option argument or ``--``.  Values keep
their text (the report prints ``-c``, ``-w`` and ``-2`` as given) and are
read as numbers the way Perl does (``perl_num``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from rouge2.errors import UserError
from rouge2.limits import MAX_NGRAM_RANGE, MAX_RESAMPLES, usable_cores
from rouge2.measures import MAX_WEIGHT

# letters taking a value / plain flags, as the script declares them
VALUE_OPTS = set("bcefln" "prtwz" "2")
FLAG_OPTS = set("adhHmsuUx")
UNSUPPORTED = {
    "M": "-M (stem models only) is not supported",
    "3": "-3 (Basic Element scoring) is not supported",
    "v": "-v (debug output) is not supported",
}

_NUM_RE = re.compile(r"[ \t\n\r\f\v]*([+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?))")
_SPECIAL_RE = re.compile(r"[ \t\n\r\f\v]*([+-]?)(inf(?:inity)?|nan)", re.IGNORECASE)


def perl_num(text: str | None) -> float:
    """The number Perl reads from a string (leading numeric prefix, else 0)."""
    if text is None:
        return 0.0
    m = _NUM_RE.match(text)
    if m:
        return float(m.group(1))
    m = _SPECIAL_RE.match(text)
    if m:
        v = float(m.group(2))
        return -v if m.group(1) == "-" else v
    return 0.0


USAGE = """\
usage: rouge2 rouge155 [options] SETTINGS.xml [SYSTEM-ID]

Reproduces the ROUGE-1.5.5 report for an XML settings file.

  -a         evaluate all systems in the settings file
  -b N       use only the first N bytes of every summary
  -c CF      confidence interval in percent (default 95)
  -d         print per-evaluation scores
  -e DIR     ROUGE data directory (accepted; bundled data is used)
  -f A|B     combine references by model average (A) or best model (B)
  -h, -H     print this help
  -l N       use only the first N words of every summary
  -m         stem with the ROUGE-1.5.5 Porter stemmer
  -n N       compute ROUGE-1 .. ROUGE-N
  -p ALPHA   F-measure weight (0 <= ALPHA <= 1, default 0.5)
  -r N       bootstrap resamples (default 1000)
  -s         remove stopwords
  -t 0|1|2   average per evaluation (0), per token (1), raw counts (2)
  -u         skip-bigrams with unigrams (ROUGE-SU); needs -2
  -U         both ROUGE-S and ROUGE-SU; needs -2
  -w W       compute ROUGE-W with weight W (> 0)
  -x         do not compute ROUGE-L
  -z FMT     SETTINGS is a file list (peer model1 ... per line) in FMT (SPL|SEE|ISI)
  -2 N       compute skip-bigrams with maximum gap N (negative: no limit)
  --jobs N   score in N processes (the same report; 0 = one per CPU core)
  --language CODE
             texts are UTF-8 in language CODE (ISO 639-1): its preset's
             tokenizer, and its stemmer with -m and stopword list with -s
"""


@dataclass
class Options:
    """The parsed command line, with the script's derived settings."""

    raw: dict[str, Any] = field(default_factory=dict)   # letter -> text value or True
    config: str = ""
    system_id: str | None = None
    all_systems: bool = False
    file_list_format: str | None = None        # -z
    print_per_eval: bool = False               # -d
    stem: bool = False
    remove_stopwords: bool = False
    word_limit: int = 0
    byte_limit: int = 0
    confidence_text: str = "95"
    confidence: float = 95.0
    resamples: float = 1000.0
    ngram_max: int = 0                         # 0: no ROUGE-N
    compute_lcs: bool = True
    weight_text: str | None = None
    weight: float | None = None
    skip_text: str | None = None
    skip_distance: float | None = None         # None: no skip-bigrams
    su_only: bool = False                      # -u
    s_and_su: bool = False                     # -U
    score_mode: str = "A"
    alpha: float = 0.5
    average_mode: int = 0                      # -t
    data_dir: str | None = None
    help: bool = False
    warnings: list[str] = field(default_factory=list)
    jobs: int = 1                              # --jobs (rouge2's own option)
    language: str = "none"                     # --language (rouge2's own option)


#: rouge2's own long options (``--jobs N``, ``--language CODE``)
LONG_OPTIONS = ("jobs", "language")


def getopts(argv: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Getopt::Std-style parse: returns ({letter: value-or-True}, rest)."""
    opts: dict[str, Any] = {}
    args = list(argv)
    while args:
        arg = args[0]
        if arg == "--":
            args.pop(0)
            break
        long_opt = next((n for n in LONG_OPTIONS if arg == f"--{n}" or arg.startswith(f"--{n}=")), None)
        if long_opt is not None:  # rouge2's own long options
            args.pop(0)
            if arg == f"--{long_opt}":
                if not args:
                    raise UserError(f"option --{long_opt} needs a value")
                arg = f"--{long_opt}=" + args.pop(0)
            opts[long_opt] = arg[len(f"--{long_opt}="):]
            continue
        if len(arg) < 2 or arg[0] != "-":
            break
        first, rest = arg[1], arg[2:]
        if first in UNSUPPORTED:
            raise UserError(UNSUPPORTED[first])
        if first in VALUE_OPTS:
            args.pop(0)
            if rest == "":
                if not args:
                    raise UserError(f"option -{first} needs a value")
                rest = args.pop(0)
            opts[first] = rest
        elif first in FLAG_OPTS:
            opts[first] = True
            if rest == "":
                args.pop(0)
            else:
                args[0] = "-" + rest
        else:
            raise UserError(f"unknown option -{first} (use -h for help)")
    return opts, args


def _int_value(letter: str, text: str, what: str) -> int:
    v = perl_num(text)
    if math.isnan(v) or math.isinf(v) or v != int(v):
        raise UserError(f"option -{letter} needs a whole number of {what}, got {text!r}")
    return int(v)


def _jobs_value(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise UserError(f"option --jobs needs a whole number of processes, got {text!r}") from None
    if n < 0:
        raise UserError(f"option --jobs needs 0 (one per CPU core) or more, got {n}")
    return n or usable_cores()


def parse_args(argv: list[str]) -> Options:
    """Parse the command line like ROUGE-1.5.5.pl; UserError on mistakes
    (checked in the order of the script's options, so the first mistake is named)."""
    raw, args = getopts(argv)
    o = Options(raw=raw)
    if raw.get("h") or raw.get("H"):
        o.help = True
        return o
    _inputs(o, raw, args)
    _lengths(o, raw)
    _numbers(o, raw)
    _scoring(o, raw)
    return o


def _inputs(o: Options, raw: dict[str, Any], args: list[str]) -> None:
    """The settings file, the systems, the data folder, processes and the plain flags."""
    if not args:
        raise UserError("give the ROUGE settings file (use -h for help)")
    o.config = args[0]
    o.file_list_format = raw.get("z")
    o.all_systems = bool(raw.get("a")) and o.file_list_format is None
    if len(args) >= 2:
        o.system_id = args[1]
    if o.file_list_format is not None:
        if o.system_id is None:
            o.system_id = "X"
    elif not o.all_systems and o.system_id is None:
        raise UserError("give a system ID to evaluate, or use -a to evaluate all systems")
    o.data_dir = raw.get("e")
    if "jobs" in raw:
        o.jobs = _jobs_value(raw["jobs"])
    if "language" in raw:
        from rouge2.scoring.options import normalize

        o.language = normalize("language", raw["language"])
    o.print_per_eval = bool(raw.get("d"))
    o.stem = bool(raw.get("m"))
    o.remove_stopwords = bool(raw.get("s"))
    o.compute_lcs = not raw.get("x")


def _lengths(o: Options, raw: dict[str, Any]) -> None:
    """The length limit: -l words or -b bytes."""
    if "l" in raw and "b" in raw:
        raise UserError("give a length limit in words (-l) or in bytes (-b), not both")
    if "l" in raw:
        o.word_limit = _int_value("l", raw["l"], "words")
    elif "b" in raw:
        o.byte_limit = _int_value("b", raw["b"], "bytes")


def _numbers(o: Options, raw: dict[str, Any]) -> None:
    """-c confidence, -w weight, -r resamples, -n ROUGE-N range, -2 skip distance."""
    if "c" in raw:
        o.confidence_text = raw["c"]
        o.confidence = perl_num(raw["c"])
        if not 0 <= o.confidence <= 100:  # also refuses nan
            raise UserError("the confidence interval (-c) must be between 0 and 100")

    if "w" in raw:
        w = perl_num(raw["w"])
        if not 0 < w <= MAX_WEIGHT:
            raise UserError(f"the ROUGE-W weight factor (-w) must be greater than 0 and at most "
                            f"{MAX_WEIGHT:g} (the reference total k^(w*w) overflows beyond), got {raw['w']!r}")
        o.weight_text, o.weight = raw["w"], w

    if "r" in raw:
        o.resamples = perl_num(raw["r"])
        if not 0 <= o.resamples <= MAX_RESAMPLES:  # also refuses nan
            raise UserError(f"the number of bootstrap resamples (-r) must be from 1 to "
                            f"{MAX_RESAMPLES:,}, got {raw['r']!r}")

    if "n" in raw:
        n = perl_num(raw["n"])
        if math.isnan(n) or n >= MAX_NGRAM_RANGE + 1:
            raise UserError(f"option -n (ROUGE-1 .. ROUGE-N) needs a number from 1 to "
                            f"{MAX_NGRAM_RANGE}, got {raw['n']!r}")
        o.ngram_max = math.floor(n) if n >= 1 else 0

    if "2" in raw:
        o.skip_text = raw["2"]
        o.skip_distance = perl_num(raw["2"])
        if math.isnan(o.skip_distance):
            raise UserError(f"option -2 needs a number, got {raw['2']!r}")


def _scoring(o: Options, raw: dict[str, Any]) -> None:
    """-u/-U skip-bigram variants, -f model combination, -p alpha, -t averaging."""
    o.su_only = bool(raw.get("u"))
    o.s_and_su = bool(raw.get("U"))

    if "f" in raw:
        # the script treats anything but A and B as A
        o.score_mode = "B" if raw["f"] == "B" else "A"

    if "p" in raw:
        o.alpha = perl_num(raw["p"])
        if not (0 <= o.alpha <= 1):
            raise UserError("the F-measure weight (-p) must be between 0 and 1")

    if "t" in raw:
        t = perl_num(raw["t"])
        o.average_mode = int(t) if t in (1, 2) else 0

    if o.average_mode != 2 and o.resamples <= 0:
        # the script divides by zero; checked here so nothing is printed first
        raise UserError(f"the number of bootstrap resamples (-r) must be from 1 to "
                        f"{MAX_RESAMPLES:,}, got {raw['r']!r}")
