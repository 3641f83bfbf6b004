"""ROUGE-1.5.5's report lines (``printResults`` / ``printPerEvalData``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cmp_to_key

from rouge2.stats.bootstrap import Averages

SEPARATOR = "-" * 45
DOTS = "." * 45


def perl_str(x) -> str:
    """How Perl prints a number: integers as integers, others with %.15g."""
    if isinstance(x, str):
        return x
    if isinstance(x, bool):
        return "1" if x else ""
    if isinstance(x, int):
        return str(x)
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Inf" if x > 0 else "-Inf"
    s = "%.15g" % x
    return "0" if s == "-0" else s


_LEADING_DIGITS = re.compile(r"[0-9]+")


def _by_eval_id(a: str, b: str) -> int:
    ma, mb = _LEADING_DIGITS.match(a), _LEADING_DIGITS.match(b)
    if ma and mb:
        x, y = int(ma.group()), int(mb.group())
        if x != y:
            return -1 if x < y else 1
        # the script returns 0 here and Perl's order then depends on hash
        # order (random per run); we break the tie by plain string order
    return (a > b) - (a < b)


def sort_by_eval_id(test_ids) -> list:
    """Test ids ordered like the script's ``by_evalID``: by the numeric value of
    leading digits when both have them, else as strings."""
    return sorted(test_ids, key=cmp_to_key(_by_eval_id))


def format_results(
    peer_id: str,
    tag: str,
    averages: Averages,
    scores: Mapping[str, Sequence],
    confidence_text: str,
    mode: int,
    per_eval: bool,
) -> list[str]:
    """The lines ``printResults`` prints for one measure of one system."""
    lines = [SEPARATOR]
    if mode in (0, 1):
        for k, name in enumerate("RPF"):
            lines.append(
                f"{peer_id} {tag} Average_{name}: {averages.avg[k]} "
                f"({confidence_text}%-conf.int. {averages.ci_low[k]} - {averages.ci_high[k]})"
            )
    else:
        m, p, h = (perl_str(int(x)) for x in averages.counts)
        lines.append(f"{peer_id} {tag} M_count: {m} P_count: {p} H_count: {h}")
    if per_eval:
        lines.append(DOTS)
        for test_id in sort_by_eval_id(scores):
            r, p, f = (perl_str(v) for v in scores[test_id])
            lines.append(f"{peer_id} {tag} Eval {test_id} R:{r} P:{p} F:{f}")
    return lines


def encode_line(line: str) -> bytes:
    """Bytes as Perl prints the string: latin-1 when every character fits in a
    byte (our texts are bytes decoded as latin-1), else UTF-8."""
    try:
        return line.encode("latin-1")
    except UnicodeEncodeError:
        return line.encode("utf-8", "surrogateescape")
