"""The drop-in ``rouge2 rouge155`` command: ROUGE-1.5.5.pl's options, settings
file, input formats and report, reproduced byte for byte."""

from rouge2.rouge155.cli import main

__all__ = ["main"]
