"""Errors of the compatibility layers.

Each is a :class:`rouge2.errors.UserError` (one line, printed without a
traceback by the command line) and also the built-in exception class the
imitated library raises in the same situation, so ``except ValueError``
written for rouge-score keeps working.
"""

from rouge2.errors import UserError


class CompatValueError(UserError, ValueError):
    """A bad value (rouge type, interval, lengths), where rouge-score raises ValueError."""


class CompatTypeError(UserError, TypeError):
    """An argument of the wrong type (a text that is not a string, ...)."""


class SentenceDataMissing(UserError, LookupError):
    """``split_summaries=True`` needs nltk's Punkt data, which is not installed."""


class CompatTextTypeError(CompatTypeError, AttributeError):
    """A text that is not a string (None, a number, a list): rouge-score 0.1.2
    raises AttributeError there (it calls ``text.lower()``), so ``except
    AttributeError`` written for it keeps working; it is also a TypeError."""


class MissingDependency(UserError, ImportError):
    """An optional package the drop-in needs is not installed (numpy: the ``compat`` extra)."""
