"""Parsed documents with source maps: JSON pointer -> line/column."""
