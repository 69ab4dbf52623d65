"""Command implementations, imported only when their command runs."""
