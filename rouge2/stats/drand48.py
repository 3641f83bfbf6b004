"""Perl's ``srand``/``rand`` (Perl >= 5.20, which ships its own drand48).

Perl seeds with ``x = (seed mod 2**32) << 16 | 0x330E`` and advances
``x = (0x5DEECE66D * x + 0xB) mod 2**48``; ``rand(n)`` returns
``n * x / 2**48`` (``rand(0)`` behaves like ``rand(1)``).  ROUGE-1.5.5's
bootstrap seeds with the resample number, so reproducing its confidence
intervals needs exactly this generator.
"""

from __future__ import annotations

from rouge2.kernels import DRAND48_A as _A
from rouge2.kernels import DRAND48_C as _C
from rouge2.kernels import DRAND48_SEED as _SEED0
from rouge2.kernels import MASK48 as _MASK48
from rouge2.kernels import SCALE48 as _SCALE


class PerlRandom:
    """One Perl random-number state: ``srand`` then repeated ``rand``."""

    __slots__ = ("_x",)

    def __init__(self, seed: int = 0):
        self._x = 0
        self.srand(seed)

    def srand(self, seed: int) -> None:
        """Perl's ``srand(seed)``: the seed is taken modulo 2**32 (a U32)."""
        self._x = (((int(seed) & 0xFFFFFFFF) << 16) + _SEED0) & _MASK48

    def next48(self) -> int:
        """Advance the state and return the new 48-bit value."""
        self._x = (_A * self._x + _C) & _MASK48
        return self._x

    def rand(self, n: float = 1.0) -> float:
        """Perl's ``rand(n)``: uniform in [0, n); ``rand(0)`` is ``rand(1)``."""
        if n == 0:
            n = 1.0
        return n * (self.next48() * _SCALE)

    def randint(self, n: int) -> int:
        """Perl's ``int(rand(n))``."""
        return int(self.rand(n))


def srand_rand_sequence(seed: int, n: float, count: int) -> list[float]:
    """``srand(seed)`` followed by ``count`` calls of ``rand(n)``."""
    r = PerlRandom(seed)
    return [r.rand(n) for _ in range(count)]
