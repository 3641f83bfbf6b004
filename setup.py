"""Build hook for the optional C kernels; all metadata lives in pyproject.toml.

``rouge2.kernels._speedups`` is optional: without a C compiler the build skips it and
rouge2 uses its pure-Python kernels (set ROUGE2_PURE_PYTHON=1 to force them).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("rouge2.kernels._speedups", ["rouge2/kernels/_speedups.c"],
                                  depends=["rouge2/kernels/porter155.h", "rouge2/kernels/analyze.h",
                                           "rouge2/kernels/batch.h", "rouge2/kernels/prf.h"],
                                  optional=True)])
