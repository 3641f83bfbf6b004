"""Reading inputs (one reader for each format) and writing outputs (atomically)."""
