"""Errors that end a run with exit code 2 and a one-line message."""


class MCPLintError(Exception):
    """A usage, config or input problem. ``str(err)`` is the whole message."""


class InputError(MCPLintError):
    """A file that cannot be read or parsed; the message names file, line and column."""

    def __init__(self, path: str, message: str, line: int | None = None, column: int | None = None):
        where = path if line is None else f"{path}:{line}:{column or 1}"
        super().__init__(f"{where}: {message}")
        self.path, self.line, self.column = path, line, column
