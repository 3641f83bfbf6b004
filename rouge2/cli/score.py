"""``rouge2 score``: score predictions against references from the command line.

Corpus mode (sacreBLEU-style), line-aligned files, one summary a line::

    rouge2 score -r refs.txt [refs2.txt ...] -i preds.txt [preds2.txt ...]
    cat preds.txt | rouge2 score -r refs.txt
    rouge2 score -i rows.jsonl            # {"prediction": ..., "references": [...]} a line

prints the corpus mean R, P and F per measure with bootstrap intervals and
the signature; with several ``-i`` files, one row per system, ranked, and a
paired significance test of each against the first (``--pairs all``: of
every pair), on each measure's declared score or ``--compare-score``, with
Holm-adjusted p-values.  ``--aspects`` adds the per-aspect coverage table
(docs/aspects.md).  ``--average rouge155``
prints ROUGE-1.5.5's own ``Average_R/P/F`` (means of bootstrap resample
means) instead of the plain means.  ``--json`` prints a ``rouge2.score/1``
document (:mod:`rouge2.schemas`), the same shape in every mode.

Single-pair mode (a whole file is one summary)::

    rouge2 score -c cand.txt -r ref1.txt ref2.txt

which honours every flag that means something for one pair and refuses the
others (intervals, tests, ``--average``) in one line.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from itertools import chain, islice
from pathlib import Path
from typing import IO, Any

from rouge2 import files
from rouge2.errors import UserError
from rouge2.io.outputs import OutputFiles, write_rows
from rouge2.io.writers import format_comparisons
from rouge2.limits import MAX_RESAMPLES, MAX_TEST_RESAMPLES, check_count
from rouge2.measures import default_score
from rouge2.scoring.aspects import aspect_coverage
from rouge2.stats.aggregate import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    adjust,
    all_pairs,
    compare_values,
)
from rouge2.stats.aspects import AspectStats, Bootstrap, aspect_table
from rouge2.stats.significance import DEFAULT_TEST, DEFAULT_TEST_RESAMPLES, TESTS
from rouge2.synonyms.explain import MATCH_COLUMNS, MatchTable, coverage_warnings


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, no usage dump
        raise UserError(f"{message} (see 'rouge2 score -h')")


def read_text(path: str, encoding: str = "utf-8") -> str:
    text = files.read_text(path, encoding, what="summary file").replace("\r\n", "\n")
    check_plain(path, text.split("\n", 64)[:64], "-c and -r with -c take plain text files (each "
                "whole file is one summary)")
    return text


def _source(path: str, encoding: str, what: str) -> Iterator[str]:
    """The lines of a line-aligned file (``-``: standard input), streamed,
    without their line ends (iterated in C: the file is split a block at a time)."""
    batches = (files.stdin_line_batches(encoding, what) if path == "-"
               else files.decoded_line_batches(path, encoding, what))
    return chain.from_iterable(_without_cr(b) for b in batches)


def _without_cr(lines: list[str]) -> list[str]:
    """``lines`` without a trailing ``\r`` (a CRLF file)."""
    return [line.rstrip("\r") for line in lines] if "\r" in "".join(lines) else lines


def _name(path: str) -> str:
    return "standard input" if path == "-" else path


#: what a file in a place for plain lines is refused for, and what to do instead
_PLAIN_LINES = {
    "reference file": "-r takes plain text, one reference a line; give JSONL rows "
                      "({\"prediction\": ..., \"references\": [...]}) alone with -i rows.jsonl, without -r",
    "prediction file": "with -r, -i takes plain text, one summary a line; give JSONL rows "
                       "({\"prediction\": ..., \"references\": [...]}) alone with -i rows.jsonl, without -r",
}
_JSON_SUFFIXES = (".jsonl", ".ndjson", ".json")


def looks_like_json(path: str, head: list[str]) -> str | None:
    """Why ``path`` (its first lines ``head``) looks like JSON rather than plain
    lines, or None: a JSON file name, or a first non-blank line that is a JSON
    object (or opens a JSON document)."""
    if path.lower().endswith(_JSON_SUFFIXES):
        return f"its name ends in .{path.rsplit('.', 1)[-1]}"
    first = next((line.strip() for line in head if line.strip()), "")
    if first in ("{", "["):
        return f"its first line is {first!r}"
    if first.startswith("{") and first.endswith("}"):
        try:
            if isinstance(json.loads(first), dict):
                return "its first line is a JSON object"
        except (ValueError, RecursionError):
            return None
    return None


def check_plain(path: str, head: list[str], what_to_do: str) -> None:
    """Refuse a JSON-looking file where plain lines are expected (it would be
    scored as text, its JSON source as the summaries)."""
    found = looks_like_json("" if path == "-" else path, head)
    if found:
        shown = "standard input" if path == "-" else path
        raise UserError(f"{shown} looks like JSON ({found}) and would be scored as plain text: {what_to_do}")


def _jsonl(path: str, encoding: str) -> Iterator[tuple[str, list[str]]]:
    """``(prediction, references)`` of each row of a JSONL file, streamed."""
    stdin = files.stdin_lines(encoding) if path == "-" else None
    n = 0
    for where, row in files.jsonl_objects(path, encoding, lines=stdin):
        if "prediction" not in row or "references" not in row:
            raise UserError(f"{where}: expected an object with 'prediction' and 'references' fields")
        p, r = row["prediction"], row["references"]
        r = [r] if isinstance(r, str) else r
        if not isinstance(p, str) or not isinstance(r, list) or not r or not all(isinstance(x, str) for x in r):
            raise UserError(f"{where}: 'prediction' must be a text and 'references' a text or a "
                            f"non-empty list of texts")
        n += 1
        yield p, r
    if not n:
        raise UserError(f"{path}: no rows to score")


def _read_in_step(paths: list[str], encoding: str, n_refs: int, size: int = 4096) -> Iterator[list[list[str]]]:
    """The lines of every file, read in step, ``size`` lines of each file at a
    time (a list per file): the first surplus line of any file (or the first
    file to end early) stops the reading with the line-count error, so an
    endless input (``yes | rouge2 score``) ends at once, in bounded memory.
    The first ``n_refs`` paths are references; each file's first 64 lines
    are checked not to look like JSON."""
    kinds = ["reference file" if i < n_refs else "prediction file" for i in range(len(paths))]
    sources = [_source(p, encoding, kind) for p, kind in zip(paths, kinds)]
    n = 0
    while True:
        got = [list(islice(src, size)) for src in sources]
        if n == 0:
            _check_plain_columns(paths, [lines[:64] for lines in got], kinds)
        short = min(len(lines) for lines in got)
        if short != max(len(lines) for lines in got):
            raise _misaligned(paths, sources, got, n, short, n_refs)
        if not short:
            break
        n += short
        yield got
    if not n:
        raise UserError(f"{_name(paths[0])} has no lines: nothing to score (one summary a line)")


def _check_plain_columns(paths: list[str], columns: list[list[str]], kinds: list[str]) -> None:
    for path, lines, kind in zip(paths, columns, kinds):
        check_plain(path, lines[:64], _PLAIN_LINES[kind])


def _misaligned(paths: list[str], sources: list[Iterator[str]], got: list[list[str]], done: int, short: int,
                n_refs: int) -> UserError:
    """The line-count error once some files ended after ``done + short`` lines
    and others did not (``got``: the last lines read of each): files (not
    standard input) are counted to their end, which costs no memory."""
    n = done + short
    counts = []
    for path, src, lines in zip(paths, sources, got):
        if len(lines) == short:
            counts.append(f"{n}")
        elif path == "-":
            counts.append(f"more than {n}")
        else:
            counts.append(f"{done + len(lines) + sum(1 for _ in src)}")
    first = _name(paths[0])
    for i, (path, count) in enumerate(zip(paths, counts)):
        if count == counts[0]:
            continue
        if i < n_refs:
            return UserError(f"{first} has {counts[0]} lines but {_name(path)} has {count}: "
                             f"reference files must be line-aligned")
        return UserError(f"{_name(path)} has {count} lines but {first} has {counts[0]}: predictions "
                         f"and references must be line-aligned (one summary a line)")
    return UserError(f"{first}: the files are not line-aligned")  # pragma: no cover


def _read_corpus(args) -> tuple[list[str], Iterator[tuple[list[list[str]], list[Any]]], int | None]:
    """The system names, the input in chunks of consecutive lines (each
    ``(each system's predictions, each line's references)``), and the
    number of references of every line (None when rows may differ: JSONL)."""
    inputs = args.input or ["-"]
    if len(inputs) == 1 and inputs[0].endswith(".jsonl") and not args.references:
        rows = _jsonl(inputs[0], args.encoding)
        chunks = iter(lambda: list(islice(rows, 4096)), [])
        return [Path(inputs[0]).name], (([[p for p, _ in c]], [r for _, r in c]) for c in chunks), None
    if not args.references:
        raise UserError("give the reference file(s) with -r (one file per reference set, one "
                        "summary a line), or a JSONL file with -i rows.jsonl")
    if inputs == ["-"] and sys.stdin.isatty():
        raise UserError("no predictions: give -i FILE, or pipe them in (one summary a line)")
    if [*inputs, *args.references].count("-") > 1:
        raise UserError("standard input ('-') is given twice; it can be read once: give files for the others")
    names: list[str] = []
    for path in inputs:
        name = "stdin" if path == "-" else path
        if name in names:
            raise UserError(f"{path} is given twice with -i")
        names.append(name)
    for path, kind in [*((p, "reference file") for p in args.references), *((p, "prediction file") for p in inputs)]:
        check_plain(path, [], _PLAIN_LINES[kind])  # by its name, before reading it
    k = len(args.references)
    blocks = _read_in_step([*args.references, *inputs], args.encoding, k)
    # one reference a line: the text itself (a text is one reference everywhere)
    return names, ((b[k:], b[0] if k == 1 else [list(t) for t in zip(*b[:k])]) for b in blocks), k


def _fmt(x: float) -> str:
    return f"{x:.5f}"


def _count(n: int, word: str = "summary", plural: str = "summaries") -> str:
    return f"{n} {word if n == 1 else plural}"


# ---------------------------------------------------------------------------
# what the scores are: plain means, or ROUGE-1.5.5's printed averages

#: ``--average``: the plain mean over summaries, or the script's Average_X
AVERAGES = ("mean", "rouge155")


def script_averages_of(result, confidence: float) -> dict[str, dict[str, tuple[str, str, str]]]:
    """ROUGE-1.5.5's ``Average_R/P/F`` of ``result`` with their intervals, as
    ``rouge2 rouge155`` prints them: per measure and score ``(average, low,
    high)`` (``%7.5f`` strings).  The summaries play the script's evaluations,
    in input order; each one's R, P, F enter rounded to 5 decimals, as the
    script prints them; ``result.resamples`` is ``-r``, ``confidence`` ``-c``/100."""
    from rouge2.stats.bootstrap import script_averages

    out = {}
    for m in result.measures:
        cols = [getattr(result.columns, k)[m] for k in ("recall", "precision", "fmeasure")]
        rows = {f"{i:012d}": tuple(float("%7.5f" % c[i]) for c in cols) for i in range(len(result))}
        a = script_averages(rows, result.resamples, round(confidence * 100, 9))
        out[m] = {k: (a.avg[j].strip(), a.ci_low[j].strip(), a.ci_high[j].strip())
                  for j, k in enumerate(("recall", "precision", "fmeasure"))}
    return out


def _shown(result, script, m: str) -> tuple[str, str, str, tuple[str, str] | None]:
    """Recall, precision, F and the F interval of measure ``m`` as printed."""
    if script is not None:
        r, p, f = (script[m][k] for k in ("recall", "precision", "fmeasure"))
        return r[0], p[0], f[0], (f[1], f[2])
    per = result.scores[m]
    ci = (_fmt(per["fmeasure"]["ci"][0]), _fmt(per["fmeasure"]["ci"][1])) if result.resamples else None
    return _fmt(per["recall"]["mean"]), _fmt(per["precision"]["mean"]), _fmt(per["fmeasure"]["mean"]), ci


def _what(result, script) -> str:
    if script is None:
        return ""
    return (f"; ROUGE-1.5.5's Average_R/P/F: means of {result.resamples} bootstrap resample means "
            f"of the rounded per-summary scores")


def _aligned(rows: list[list[str]], left: int) -> list[str]:
    """``rows`` (the first is the header) as aligned text, the first ``left`` columns to the left."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for k, r in enumerate(rows):
        out.append("  ".join(c.ljust(widths[i]) if i < left else c.rjust(widths[i])
                             for i, c in enumerate(r)).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


def _table(result, script=None) -> list[str]:
    ci = result.resamples > 0
    rows = [["measure", "recall", "precision", "F"] + ([f"{result.confidence * 100:g}% CI of F"] if ci else [])]
    for m in result.measures:
        r, p, f, interval = _shown(result, script, m)
        rows.append([m, r, p, f] + ([f"[{interval[0]}, {interval[1]}]"] if interval else []))
    return [_count(len(result)) + _what(result, script), *_aligned(rows, 1)]


_WORD = {"fmeasure": "F", "recall": "recall", "precision": "precision"}


def _tested(args, measure: str) -> str:
    """The score ``measure`` is ranked and tested on: ``--compare-score`` or its default."""
    return args.compare_score if args.compare_score not in (None, "coverage") else default_score(measure)


def _ranked_tables(results: dict, comparisons: list[dict], scripts: dict, args) -> list[str]:
    names = list(results)
    first = results[names[0]]
    key = first.measures[0]
    index = {"recall": 0, "precision": 1, "fmeasure": 2}[_tested(args, key)]
    ranked = sorted(names, key=lambda n: -float(_shown(results[n], scripts.get(n), key)[:3][index]))
    tests = ("paired tests of every pair: the table below" if args.pairs == "all" else
             f"p: paired {args.test} test of each measure's score against {names[0]} "
             f"({args.test_resamples} resamples), Holm-adjusted over the systems")
    out = [f"{len(names)} systems ranked by {key} {_WORD[_tested(args, key)]}"
           f"{_what(first, scripts.get(names[0]))}; {tests}"]
    for m in first.measures:
        out.append(f"\n{m} (tested on {_WORD[_tested(args, m)]})")
        rows = [["rank", "system", "recall", "precision", "F"]
                + ([f"{first.confidence * 100:g}% CI of F"] if first.resamples else [])
                + (["p Holm"] if args.pairs == "first" else [])]
        for rank, n in enumerate(ranked, 1):
            r, p, f, interval = _shown(results[n], scripts.get(n), m)
            pv = next((c["p_adjusted"] for c in comparisons if c["system"] == n and c.get("measure") == m
                       and c["baseline"] == names[0]), None)
            rows.append([str(rank), n, r, p, f] + ([f"[{interval[0]}, {interval[1]}]"] if interval else [])
                        + (["baseline" if pv is None else f"{pv:.4f}"] if args.pairs == "first" else []))
        out.extend(_aligned(rows, 2))
    return out


def _system_entry(result, name: str, script) -> dict[str, Any]:
    entry = result.system_entry(name)
    for m, per in (script or {}).items():
        for k, (avg, lo, hi) in per.items():
            entry["scores"][m][k]["rouge155"] = {"average": float(avg), "ci": [float(lo), float(hi)]}
    return entry


def _outputs(args, inputs: files.InputRecord, paths: list[str]) -> OutputFiles | None:
    """The output layer for ``--per-summary`` (checked now, before any text
    is read: never one of the input ``paths``, a device, a link or a file
    rouge2 did not write unless ``--overwrite``)."""
    for path in paths:
        if path == "-":
            files.note_stdin()
        else:
            try:
                inputs.add(path, os.stat(path))
            except (OSError, ValueError):
                pass
    paths = [p for p in (args.per_summary, args.explain_synonyms) if p is not None]
    if not paths:
        return None
    return OutputFiles(paths, overwrite=args.overwrite, inputs=inputs,
                       hint="use --overwrite to replace it", lock_hint="write the file elsewhere")


@contextmanager
def _writing(args, paths: list[str]):
    """The output layer of a scoring: the inputs recorded as they are read,
    the ``--per-summary`` file published at the end, nothing on a failure."""
    with files.recording() as inputs:
        outputs = _outputs(args, inputs, paths)
        try:
            yield outputs
        except BaseException:
            if outputs is not None:
                outputs.abort()
            raise


def _summary_rows(f: IO[str], system: str) -> Callable[[list, list], None]:
    """A :class:`~rouge2.scoring.stream.CorpusStream` sink writing each
    summary's scores as a JSONL row to ``f``, as they are scored."""
    done = 0

    def write(scores: list, stats: list) -> None:
        nonlocal done
        out = []
        for sc, st in zip(scores, stats):
            done += 1
            # task and system as a run's per_summary.jsonl has them: rouge2 correlate reads both
            row: dict[str, Any] = {"task": str(done), "system": system, "line": done}
            row["scores"] = {m: {"recall": s.recall, "precision": s.precision,
                                 "fmeasure": s.fmeasure} for m, s in sc.items()}
            row["stats"] = {m: [[x.hit, x.ref_total, x.cand_total] for x in v] for m, v in st.items()}
            out.append(json.dumps(row) + "\n")
        f.write("".join(out))
    return write


@contextmanager
def _per_summary(outputs: OutputFiles | None, names: list[str], path: str | None):
    """Per system, the sink of its ``--per-summary`` rows (None without the
    flag).  The first system writes to the staged output file, the others to
    temporary files appended after it, so the rows come system by system as
    they always did; the file is published by the caller's commit."""
    if outputs is None or path is None:
        yield {name: None for name in names}
        return
    with ExitStack() as stack:
        out = stack.enter_context(outputs.open(path))
        spills = [stack.enter_context(tempfile.TemporaryFile("w+", encoding="utf-8")) for _ in names[1:]]
        yield {name: _summary_rows(f, name) for name, f in zip(names, [out, *spills])}
        for spill in spills:
            spill.seek(0)
            shutil.copyfileobj(spill, out)


def _write_explained(args, outputs: OutputFiles | None, results: dict[str, Any]) -> None:
    """``--explain-synonyms``: every system's synonym matches in one table."""
    if outputs is not None and args.explain_synonyms is not None:
        with outputs.open(args.explain_synonyms, newline="") as f:
            write_rows(f, MATCH_COLUMNS, _match_rows(results))


def _match_rows(results: dict[str, Any]) -> list[dict[str, Any]]:
    """The systems' synonym matches in one table (``example_system``: the ``-i`` file)."""
    table = MatchTable()
    for system, result in results.items():
        for row in result.synonym_matches or ():
            table.add(None, row["measure"], {(row["reference_word"], row["candidate_word"]): row["matches"]},
                      row["example_task"], system)
    return table.rows(measures=next(iter(results.values())).measures)


def _coverage_lines(results: dict[str, Any]) -> list[str]:
    """Per system, each synonym source's coverage (``--explain-synonyms``), then warnings."""
    lines, warnings = [], []
    for system, result in results.items():
        rows = result.synonym_coverage or []
        parts = [f"{r['source']} {r['fired']:,} fired / {r['in_data']:,} in the data / {r['entries']:,} words"
                 for r in rows if r["entries"] is not None]
        if parts:
            lines.append(f"synonyms ({system}): {'; '.join(parts)}")
        warnings += [w.replace("warning: ", f"rouge2 score: warning: ({system}) ", 1)
                     for w in coverage_warnings(rows)]
    return lines + warnings


# ---------------------------------------------------------------------------
# the flags


#: corpus-only flags: their defaults (None in the parser, so -c can tell them given)
_CORPUS_DEFAULTS = {"confidence": DEFAULT_CONFIDENCE, "resamples": DEFAULT_RESAMPLES, "seed": 0,
                    "test": DEFAULT_TEST, "test_resamples": DEFAULT_TEST_RESAMPLES, "average": "mean",
                    "pairs": "first", "compare_score": None}


def _flag(key: str) -> str:
    return "--" + key.replace("_", "-")


def _scoring_options(args) -> tuple[dict[str, Any], bool]:
    """The option keywords of the flags, with the script's rounding under
    ``--average rouge155``, and whether the multi-reference note applies
    (the user did not choose the mode: :func:`_reference_note`)."""
    from rouge2.cli.options import option_values
    from rouge2.scoring.options import Options

    kw = option_values(args)
    if args.average == "rouge155":
        if "rounding" in kw and Options.make(rounding=kw["rounding"]).rounding != "rouge155":
            raise UserError("--average rouge155 averages the per-summary scores rounded as ROUGE-1.5.5 "
                            "prints them: drop --rounding (it is set to rouge155)")
        kw["rounding"] = "rouge155"
    chosen = "multi_reference" in kw
    if not chosen:
        kw["multi_reference"] = Options().multi_reference  # chosen here, so evaluate() does not warn again
    return kw, not chosen


def _reference_note(kw: dict[str, Any], counts: set[int]) -> None:
    """The multi-reference note (once, on stderr) when several references per
    prediction (``counts``) are combined by a mode the user did not choose."""
    from rouge2.scoring.evaluate import multi_reference_note, reference_counts

    nrefs = reference_counts(counts)
    if nrefs is not None:
        note = multi_reference_note(kw["multi_reference"], nrefs, "add --multi-reference max-f")
        print(f"rouge2 score: note: {note}", file=sys.stderr)


@contextmanager
def _encoding_flag():
    """An undecodable byte in a summary file names --encoding, the flag to set."""
    try:
        yield
    except files.DecodeError as exc:
        raise exc.with_setting("--encoding") from None


def _progress(args):
    from rouge2.run.progress import Progress

    return Progress({"auto": None, "on": True, "off": False}[args.progress])


def _print_document(first, systems: list[dict], comparisons: list[dict], mode: str, average: str,
                    aspects: list[dict] | None = None) -> None:
    document = first.document(systems, comparisons, mode=mode, average=average)
    if aspects is not None:  # --aspects: the rows of aspects.csv
        document["aspects"] = aspects
    json.dump(document, sys.stdout, indent=2)
    print()


def _comparisons(args, results: dict, aspects: AspectStats | None, progress) -> list[dict[str, Any]]:
    """The paired tests of several systems: each against the first (``--pairs
    first``) or every pair (``--pairs all``), on each measure's default score or
    ``--compare-score``, per aspect on coverage; Holm-adjusted p-values over
    the pairs tested on one score of one measure (aspect)."""
    names = list(results)
    pairs = all_pairs(names) if args.pairs == "all" else [(n, names[0]) for n in names[1:]]
    if args.compare_score == "coverage":
        if aspects is None:
            raise UserError("--compare-score coverage compares the per-aspect coverage: give --aspects PATH")
        return adjust(_coverage_tests(args, pairs, aspects, progress), family=("aspect", "score"))
    measures = results[names[0]].measures
    out = []
    with progress.phase("tests", len(pairs) * len(measures), "tests", show=len(names) > 1) as phase:
        for a, b in pairs:
            for m in measures:
                score = _tested(args, m)
                c = compare_values(getattr(results[a].columns, score)[m], getattr(results[b].columns, score)[m],
                                   test=args.test, resamples=args.test_resamples, seed=args.seed,
                                   label=f"{a}|{b}|{m}", score=score)
                out.append({"system": a, "baseline": b, "measure": m, **c})
                phase.tick()
    return adjust(out)


def _coverage_tests(args, pairs: list[tuple[str, str]], aspects: AspectStats, progress) -> list[dict[str, Any]]:
    out = []
    with progress.phase("tests", len(pairs) * len(aspects.aspects), "tests") as phase:
        for a, b in pairs:
            for aspect in aspects.aspects:
                ca, cb = aspects.task_coverage(None, a, aspect), aspects.task_coverage(None, b, aspect)
                common = [t for t in ca if t in cb]
                c = compare_values([ca[t] for t in common], [cb[t] for t in common], test=args.test,
                                   resamples=args.test_resamples, seed=args.seed, score="coverage",
                                   label=f"{a}|{b}|aspect:{aspect}|coverage")
                out.append({"system": a, "baseline": b, "aspect": aspect, **c})
                phase.tick()
    return out


def _bootstrap(args) -> Bootstrap | None:
    return Bootstrap(args.resamples, args.confidence, args.seed) if args.resamples else None


def corpus_main(args) -> int:
    for key, value in _CORPUS_DEFAULTS.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    _check_corpus_flags(args)
    with _writing(args, [*(args.input or ["-"]), *(args.references or ())]) as outputs:
        return _corpus(args, outputs)


def _score_streams(args, outputs: OutputFiles | None, progress) -> tuple[dict[str, Any], set[int], Any, dict, Any]:
    """Each system's :class:`~rouge2.scoring.stream.CorpusStream`, filled from
    the input read a chunk of lines at a time (the texts of a chunk are
    dropped once every system has scored it, unless ``--aspects`` needs them:
    then ``texts`` is ``(each system's predictions, the references)``), the
    numbers of references seen, the scorer and its option keywords."""
    from rouge2.scoring.scorer import Scorer
    from rouge2.scoring.stream import CorpusStream

    with _encoding_flag():
        names, chunks, k = _read_corpus(args)
        kw, note = _scoring_options(args)
        scorer = Scorer(args.measures, **kw)
        counts: set[int] = set() if k is None else {k}
        texts: tuple[dict[str, list[str]], list[Any]] | None = None
        if kw.get("aspects"):
            texts = ({n: [] for n in names}, [])
        explain = args.explain_synonyms is not None
        with _per_summary(outputs, names, args.per_summary) as sinks:
            streams = {n: CorpusStream(scorer, args.measures, keep_stats=False, sink=sinks[n], explain=explain)
                       for n in names}
            with progress.phase("scoring", None, "summaries") as phase:
                for preds, refs in chunks:
                    for stream, lines in zip(streams.values(), preds):
                        # a chunk of lines split among the threads
                        stream.feed(list(zip(lines, refs)), chunk=-(-len(refs) // args.threads),
                                    threads=args.threads)
                    if k is None:
                        counts.update(map(len, refs))
                    if texts is not None:
                        for kept, lines in zip(texts[0].values(), preds):
                            kept.extend(lines)
                        texts[1].extend(refs)
                    phase.tick(len(refs))
    if note:
        _reference_note(kw, counts)
    return streams, counts, scorer, kw, texts


def _corpus(args, outputs: OutputFiles | None) -> int:
    from rouge2.scoring.evaluate import check_settings, evaluation_of

    check_settings(args.confidence, args.resamples)
    progress = _progress(args)
    streams, counts, scorer, kw, texts = _score_streams(args, outputs, progress)
    results = {name: evaluation_of(scorer, stream.columns, counts, confidence=args.confidence,
                                   resamples=args.resamples, seed=args.seed, progress=progress,
                                   **stream.explained())
               for name, stream in streams.items()}
    aspects = None
    if texts is not None:  # --aspects: coverage of the texts kept for it
        systems, refs = texts
        aspects = aspect_coverage(systems, refs, tasks=[str(i + 1) for i in range(len(refs))], **kw)
    comparisons = _comparisons(args, results, aspects, progress)
    scripts = ({n: script_averages_of(r, args.confidence) for n, r in results.items()}
               if args.average == "rouge155" else {})
    _write_explained(args, outputs, results)
    if outputs is not None:
        outputs.commit()
    _print_coverage(args, results)
    first = next(iter(results.values()))
    if args.json:
        _print_document(first, [_system_entry(r, n, scripts.get(n)) for n, r in results.items()],
                        comparisons, "corpus", args.average,
                        aspects.rows(_bootstrap(args)) if aspects is not None else None)
        return 0
    lines = _table(first, scripts.get(next(iter(results)))) if len(results) == 1 else \
        _ranked_tables(results, comparisons, scripts, args)
    print("\n".join(lines))
    _print_extras(args, aspects, comparisons)
    print(first.signature)
    return 0


def _print_coverage(args, results: dict[str, Any]) -> None:
    """``--explain-synonyms``: the sources' coverage and warnings, on stderr
    (stdout keeps its table or JSON document)."""
    if args.explain_synonyms is None:
        return
    if not any(r.options.synonyms for r in results.values()):
        print("rouge2 score: warning: --explain-synonyms without synonyms: give --synonyms (nothing can "
              "fire)", file=sys.stderr)
    for line in _coverage_lines(results):
        print(line if line.startswith("rouge2 score:") else f"rouge2 score: {line}", file=sys.stderr)


def _print_extras(args, aspects: AspectStats | None, comparisons: list[dict[str, Any]]) -> None:
    """The systems x aspects table (``--aspects``) and the table of every
    comparison (``--pairs all``, ``--compare-score coverage``)."""
    if aspects is not None:
        print("\n" + aspect_table(aspects.rows(_bootstrap(args)), aspects.aspects, "coverage",
                                  args.confidence if args.resamples else None), end="")
    if comparisons and (args.pairs == "all" or args.compare_score == "coverage"):
        print(format_comparisons([{"system_a": c["system"], "system_b": c["baseline"], **c}
                                  for c in comparisons]), end="")


def _check_corpus_flags(args) -> None:
    check_count(args.resamples, "--resamples", 0, MAX_RESAMPLES)
    check_count(args.test_resamples, "--test-resamples", 1, MAX_TEST_RESAMPLES)
    if args.average == "rouge155" and args.resamples < 1:
        raise UserError("--average rouge155 is the mean of the script's bootstrap resamples: give "
                        "--resamples 1 or more (ROUGE-1.5.5's -r; default 1000)")


def pair_main(args) -> int:
    """``-c``: one candidate file against whole reference files, as a one-summary corpus
    without intervals (the same numbers as ``rouge2.score``)."""
    with _writing(args, [args.candidate, *args.references]) as outputs:
        return _pair(args, outputs)


def _pair(args, outputs: OutputFiles | None) -> int:
    from rouge2.scoring.evaluate import evaluate

    given = [_flag(k) for k in _CORPUS_DEFAULTS if getattr(args, k) is not None]
    if given:
        raise UserError(f"-c scores one pair, with no corpus to resample or compare: "
                        f"{', '.join(given)} {'does' if len(given) == 1 else 'do'} not apply; drop "
                        f"{'it' if len(given) == 1 else 'them'}, or give line-aligned files with -i")
    with _encoding_flag():
        cand = read_text(args.candidate, args.encoding)
        refs = [read_text(r, args.encoding) for r in args.references]
    kw, note = _scoring_options(args)
    if note:
        _reference_note(kw, {len(refs)})
    result = evaluate([cand], [refs], args.measures, resamples=0, progress=_progress(args),
                      explain_synonyms=args.explain_synonyms is not None, **kw)
    if outputs is not None:
        if args.per_summary is not None:
            with outputs.open(args.per_summary) as f:
                _summary_rows(f, args.candidate)(result.per_summary, result.stats)
        _write_explained(args, outputs, {args.candidate: result})
        outputs.commit()
    _print_coverage(args, {args.candidate: result})
    if args.json:
        _print_document(result, [result.system_entry(args.candidate)], [], "pair", "mean")
        return 0
    scores = result.per_summary[0]
    width = max(len(k) for k in scores)
    print(f"{'measure':<{width}}  {'recall':>8} {'precision':>9} {'F':>8}")
    for name, s in scores.items():
        print(f"{name:<{width}}  {s.recall:8.5f} {s.precision:9.5f} {s.fmeasure:8.5f}")
    print(result.signature)
    return 0


def _parser() -> argparse.ArgumentParser:
    from rouge2.cli.options import add_option_flags, add_threads_flag
    from rouge2.measures import measure_forms
    from rouge2.scoring.scorer import DEFAULT_MEASURES

    ap = _Parser(prog="rouge2 score",
                 description="Score predictions against references: corpus means with intervals "
                             "(line-aligned files or JSONL), or one candidate file (-c).",
                 epilog="Example: rouge2 score -r refs.txt -i preds.txt --stem (rouge2 docs scoring)")
    ap.add_argument("-i", "--input", nargs="+", metavar="FILE",
                    help="prediction file(s), one summary a line (several files: several systems); "
                         "'-' or nothing: standard input; a .jsonl file with prediction and references fields")
    ap.add_argument("-r", "--references", nargs="+", metavar="FILE",
                    help="reference file(s): one file per reference set, line-aligned with the predictions "
                         "(with -c: each file is one whole reference)")
    ap.add_argument("-c", "--candidate", metavar="FILE",
                    help="single-pair mode: the whole file is one candidate")
    ap.add_argument("-m", "--measures", nargs="+", default=list(DEFAULT_MEASURES), metavar="NAME",
                    help=f"measures to compute (default: {' '.join(DEFAULT_MEASURES)}), e.g. rouge-1 rouge-l "
                         f"rouge-su4 rouge-w-1.2; rouge-score's rouge1, rougeL, rougeLsum are accepted "
                         f"(rouge2 docs options); forms: {measure_forms()}")
    ap.add_argument("--encoding", default="utf-8", metavar="NAME",
                    help="text encoding of every input file and of standard input (default utf-8; "
                         "a UTF-8 byte-order mark is accepted), e.g. latin-1, cp1252, utf-16")
    ap.add_argument("--json", action="store_true",
                    help="print a rouge2.score/1 JSON document instead of a table (rouge2 docs scoring)")
    ap.add_argument("--per-summary", metavar="FILE", help="write each summary's scores (JSONL)")
    ap.add_argument("--explain-synonyms", metavar="FILE",
                    help="write which synonym pairs matched (CSV: measure, reference and candidate word, "
                         "matches, an example) and print each synonym source's coverage on stderr "
                         "(rouge2 docs synonym-experiments)")
    ap.add_argument("--overwrite", action="store_true",
                    help="let --per-summary replace a file rouge2 did not write (never an input, a "
                         "device, a link or a folder)")
    ap.add_argument("--average", choices=AVERAGES,
                    help="mean (default): plain means over summaries; rouge155: ROUGE-1.5.5's printed "
                         "Average_R/P/F and intervals (means of its bootstrap resample means)")
    ap.add_argument("--confidence", type=float,
                    help=f"interval confidence (default {DEFAULT_CONFIDENCE})")
    ap.add_argument("--resamples", type=int,
                    help=f"bootstrap resamples (0: no intervals; default {DEFAULT_RESAMPLES})")
    ap.add_argument("--seed", type=int, help="random seed of intervals and tests (default 0)")
    ap.add_argument("--test", choices=TESTS,
                    help=f"paired test of each system against the first (several -i files; default {DEFAULT_TEST})")
    ap.add_argument("--test-resamples", type=int, metavar="N",
                    help=f"resamples of the paired test (default {DEFAULT_TEST_RESAMPLES})")
    ap.add_argument("--pairs", choices=("first", "all"),
                    help="several -i files: test each system against the first (default), or every pair; "
                         "p-values are Holm-adjusted over the pairs")
    ap.add_argument("--compare-score", choices=("recall", "precision", "fmeasure", "coverage"),
                    help="the score tested and ranked on (default: each measure's own, F for N/L/W/S, "
                         "recall for topic and aspect measures); coverage: per aspect, with --aspects")
    ap.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                    help="progress bars on stderr (scoring, bootstrap, tests): auto = only on a terminal")
    add_threads_flag(ap)
    add_option_flags(ap)
    return ap


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.candidate:
        if args.input:
            raise UserError("give -c (one candidate file) or -i (line-aligned predictions), not both")
        if not args.references:
            raise UserError("give the reference file(s) with -r")
        return pair_main(args)
    return corpus_main(args)
