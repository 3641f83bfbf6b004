"""Statistics on per-pair sufficient statistics: combination across references, P/R/F,
bootstrap, significance, correlation."""
