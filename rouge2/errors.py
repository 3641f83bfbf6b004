"""Errors a user can fix.

Every mistake a user can make (a bad option, a missing file, malformed YAML,
an unknown measure) raises :class:`UserError` with a one-line message that
names the file, line or key and says what to do.  The command line prints the
message alone, never a traceback.

``UserError`` is a :class:`ValueError`, so library users can catch it the way
they catch any bad-value error.
"""


class UserError(ValueError):
    """A mistake in the user's input, reported as one line."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
