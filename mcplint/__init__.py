"""mcplint: a compliance linter for Model Context Protocol servers."""

__version__ = "0.1.0"
