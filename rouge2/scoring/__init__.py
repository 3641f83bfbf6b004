"""The library door: options, the scorer, corpus evaluation, the signature."""
