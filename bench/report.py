"""Figures and tables: percentiles, units, and one markdown table per backend.

Every row shows the measured value, the baseline measured in the same run,
their ratio and the issue's target, so a row can be read on any machine.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass


def p50(samples: Sequence[float]) -> float:
    return statistics.median(samples)


def percentile(samples: Sequence[float], q: float) -> float:
    """The nearest-rank percentile (q in 0..100): a value that was measured."""
    ordered = sorted(samples)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def ms(seconds: float) -> str:
    value = seconds * 1000
    return f"{value:.2f} ms" if value < 100 else f"{value:.0f} ms"


def kib(value: float) -> str:
    return f"{value:.1f} KiB" if value < 10_240 else f"{value / 1024:.0f} MiB"


def times(ratio: float) -> str:
    return f"{ratio:.2f}x" if ratio < 10 else f"{ratio:.0f}x"


def count(n: int) -> str:
    return f"{n:,}"


@dataclass(frozen=True)
class Row:
    what: str
    measured: str
    baseline: str
    ratio: str
    target: str


def failed(what: str, error: BaseException) -> Row:
    reason = (
        str(error).strip().splitlines()[-1][:160] if str(error).strip() else type(error).__name__
    )
    return Row(what, f"FAILED: {reason}", "", "", "")


HEADER = ("what", "measured", "same-run baseline", "ratio", "issue's target")


def table(rows: Sequence[Row], header: Sequence[str] = HEADER) -> str:
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
    ]
    for row in rows:
        cells = (row.what, row.measured, row.baseline, row.ratio, row.target)
        lines.append("| " + " | ".join(cells[: len(header)]) + " |")
    return "\n".join(lines)
