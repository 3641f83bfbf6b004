"""Progress of a run, phase by phase: one tqdm bar on stderr per phase.

A run has up to three phases, each with its own bar and total:

* ``scoring`` - summaries read and scored; the total is the number of
  items when the reader can count them cheaply (:func:`rouge2.io.inputs.count_items`),
  else unknown (the bar then shows a count and a rate, no ETA);
* ``bootstrap`` - (system, measure) jobs of the system summaries, when
  ``bootstrap`` is on;
* ``tests`` - (pair, measure) paired tests, when ``compare`` is set.

The interface does not depend on how a phase computes its work::

    with progress.phase("bootstrap", total=len(jobs), unit="jobs") as phase:
        for job in jobs:
            run(job)
            phase.tick()                  # or phase.tick(n) for n jobs at once
        # or: for item in phase.wrap(stream): ...

``phase.tick`` is a plain callable, so code that runs jobs elsewhere (in
worker processes, in bulk) can be handed it as a callback.  A disabled
:class:`Progress` (not a terminal, ``--progress off``) gives phases that do
nothing.  Bars never write to stdout and never change a result.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

try:
    from tqdm import tqdm as _tqdm
except ImportError:  # pragma: no cover - tqdm is a dependency; without it, no bars
    _tqdm = None

T = TypeVar("T")


class Phase:
    """One phase's bar: :meth:`tick`, :meth:`wrap`, :meth:`close` (also as a
    context manager).  With no bar every method does nothing."""

    def __init__(self, bar: Any = None) -> None:
        self._bar = bar

    def tick(self, n: int = 1) -> None:
        """``n`` more units of work are done."""
        if self._bar is not None:
            self._bar.update(n)

    def wrap(self, stream: Iterable[T]) -> Iterator[T]:
        """The items of ``stream``, ticking once per item; the bar closes at the end."""
        try:
            for item in stream:
                yield item
                self.tick()
        finally:
            self.close()

    def close(self) -> None:
        if self._bar is not None:
            bar, self._bar = self._bar, None
            bar.close()

    def __enter__(self) -> Phase:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Progress:
    """Bars for a run's phases.

    ``enabled``: True, False, or None for "only when ``file`` (stderr by
    default) is a terminal".  ``factory`` makes a bar from tqdm's keyword
    arguments (``total``, ``desc``, ``unit``, ``file``, ``leave``); the
    default is :class:`tqdm.tqdm`, and no bars are shown if tqdm cannot be
    imported."""

    def __init__(self, enabled: bool | None = None, *, file: Any = None,
                 factory: Callable[..., Any] | None = None) -> None:
        self.file = sys.stderr if file is None else file
        if enabled is None:
            isatty = getattr(self.file, "isatty", None)
            enabled = bool(isatty and isatty())
        if enabled and factory is None:
            factory = _tqdm
            enabled = factory is not None
        self.enabled = bool(enabled)
        self._factory = factory

    def phase(self, name: str, total: int | None, unit: str, *, show: bool = True) -> Phase:
        """A phase called ``name`` of ``total`` units (None: unknown); a phase
        that does nothing when bars are off or ``show`` is false."""
        if not (self.enabled and show) or self._factory is None:
            return Phase()
        return Phase(self._factory(total=total, desc=name, unit=" " + unit, file=self.file,
                                   leave=False, dynamic_ncols=True))


#: bars off
NO_PROGRESS = Progress(False)
