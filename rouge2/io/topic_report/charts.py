"""The report's charts: inline SVG (no script, no network)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rouge2.io.topic_report.markup import FAMILY_COLORS, OTHER_COLOR, esc, pct, plural
from rouge2.stats.coverage import family_label, natural_key


def ticks(lo: float, hi: float) -> list[float]:
    """Axis ticks at a round step (5, 10, 20 or 25 points) from lo to hi."""
    span = hi - lo
    step = next((st for st in (0.05, 0.1, 0.2, 0.25) if span / st <= 8), 0.25)
    k = math.ceil(lo / step - 1e-9)
    out = []
    while k * step <= hi + 1e-9:
        out.append(round(k * step, 10))
        k += 1
    return out


def svg_coverage(rows: Sequence[dict[str, Any]]) -> str:
    """Dot plot: coverage of each system with its interval, best first."""
    rows = [r for r in rows if r["coverage"] is not None]
    if not rows:
        return '<p class="note">No system has reference topic words.</p>'
    rows = sorted(rows, key=lambda r: (-r["coverage"], natural_key(r["system"])))
    lows = [r["ci_low"] if r["ci_low"] is not None else r["coverage"] for r in rows]
    highs = [r["ci_high"] if r["ci_high"] is not None else r["coverage"] for r in rows]
    lo = max(0.0, math.floor(min(lows) * 10 - 1e-9) / 10)
    hi = min(1.0, math.ceil(max(highs) * 10 + 1e-9) / 10)
    if hi - lo < 0.1:
        hi = min(1.0, lo + 0.1)
        lo = max(0.0, hi - 0.1)
    label_w = min(260, 12 + 7 * max(len(r["system"]) for r in rows))
    plot_w = 460
    row_h = 20
    top = 22
    width = label_w + plot_w + 150
    height = top + row_h * len(rows) + 8

    def x(v: float) -> float:
        return label_w + (v - lo) / (hi - lo) * plot_w

    out = [f'<svg width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="Topic coverage per system">']
    for v in ticks(lo, hi):
        out.append(f'<line class="grid" x1="{x(v):.1f}" y1="{top - 4}" x2="{x(v):.1f}" y2="{height - 4}"/>'
                   f'<text class="axis" x="{x(v):.1f}" y="{top - 8}" text-anchor="middle">{100 * v:.0f}%</text>')
    for i, r in enumerate(rows):
        y = top + row_h * i + row_h / 2
        tip = f"{r['system']}: {pct(r['coverage'])}%"
        if r["ci_low"] is not None:
            tip += f" [{pct(r['ci_low'])}, {pct(r['ci_high'])}]"
            out.append(f'<line class="ci" x1="{x(r["ci_low"]):.1f}" y1="{y:.1f}" '
                       f'x2="{x(r["ci_high"]):.1f}" y2="{y:.1f}"/>')
        out.append(f'<g><title>{esc(tip)}</title>'
                   f'<text x="{label_w - 8}" y="{y + 4:.1f}" text-anchor="end">{esc(r["system"])}</text>'
                   f'<circle cx="{x(r["coverage"]):.1f}" cy="{y:.1f}" r="4.5" fill="#4e79a7"/>'
                   f'<text x="{label_w + plot_w + 10}" y="{y + 4:.1f}">{pct(r["coverage"])}%'
                   + (f' [{pct(r["ci_low"])}, {pct(r["ci_high"])}]' if r["ci_low"] is not None else "")
                   + "</text></g>")
    out.append("</svg>")
    return "".join(out)


def svg_top_words(rows: Sequence[dict[str, Any]], what: str) -> str:
    """Horizontal bars: share of pairs for the most-missed (added) words."""
    if not rows:
        return f'<p class="note">No topic word was {what}.</p>'
    label_w = min(240, 16 + 7 * max(len(r["topic"]) + len(r["family"]) + 3 for r in rows))
    plot_w = 420
    row_h = 19
    top = 22
    width = label_w + plot_w + 120
    height = top + row_h * len(rows) + 8
    hi = max(r["share"] or 0 for r in rows) or 1.0
    hi = min(1.0, math.ceil(hi * 10 - 1e-9) / 10)
    out = [f'<svg width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="Most {what} topic words">']
    for v in ticks(0.0, hi):
        xx = label_w + plot_w * v / hi
        out.append(f'<line class="grid" x1="{xx:.1f}" y1="{top - 4}" x2="{xx:.1f}" y2="{height - 4}"/>'
                   f'<text class="axis" x="{xx:.1f}" y="{top - 8}" text-anchor="middle">{100 * v:.0f}%</text>')
    for i, r in enumerate(rows):
        y = top + row_h * i
        share = r["share"] or 0.0
        color = FAMILY_COLORS.get(r["family"], OTHER_COLOR)
        tip = f"{r['topic']} ({family_label(r['family'])}): {what} in {plural(r['tasks'], 'pair')} ({pct(share)}%)"
        out.append(f'<g><title>{esc(tip)}</title>'
                   f'<text x="{label_w - 8}" y="{y + 13}" text-anchor="end">{esc(r["topic"])} '
                   f'<tspan class="axis">{esc(r["family"])}</tspan></text>'
                   f'<rect x="{label_w}" y="{y + 3}" width="{plot_w * share / hi:.1f}" height="{row_h - 6}" '
                   f'fill="{color}"/>'
                   f'<text x="{label_w + plot_w * share / hi + 6:.1f}" y="{y + 13}">{pct(share)}% '
                   f'<tspan class="axis">({r["tasks"]})</tspan></text></g>')
    out.append("</svg>")
    return "".join(out)
