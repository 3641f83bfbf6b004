"""Build hook for the optional C kernels; all metadata lives in pyproject.toml.

``rouge2.kernels._speedups`` is optional: without a C compiler the build skips it and
rouge2 uses its pure-Python kernels (set ROUGE2_PURE_PYTHON=1 to force them).

The kernels compute P, R and F with the same floating-point operations as
Python, one rounding each: GCC and Clang are told not to fuse a multiply and
an add (``-ffp-contract=off``; they may by default where the CPU has FMA).
"""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class BuildExt(build_ext):
    def build_extensions(self):
        if self.compiler.compiler_type == "unix":  # gcc and clang
            for ext in self.extensions:
                ext.extra_compile_args = [*ext.extra_compile_args, "-ffp-contract=off"]
        super().build_extensions()


setup(
    ext_modules=[Extension("rouge2.kernels._speedups", ["rouge2/kernels/_speedups.c"],
                           depends=["rouge2/kernels/porter155.h", "rouge2/kernels/analyze.h",
                                    "rouge2/kernels/batch.h", "rouge2/kernels/paired.h", "rouge2/kernels/synonyms.h",
                                    "rouge2/kernels/prf.h",
                                    "rouge2/kernels/rouge_score.h", "rouge2/kernels/stats_kernels.h",
                                    "rouge2/kernels/unitok.h"],
                           optional=True)],
    cmdclass={"build_ext": BuildExt},
)
