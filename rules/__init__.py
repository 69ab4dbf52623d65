"""mcplint's built-in rules: one rule per module, discovered automatically."""
