"""Statistics on per-pair sufficient statistics.

Combination across references, P/R/F, bootstrap, significance, correlation.
"""
