"""Configuration languages turned into library options: YAML runs, ROUGE-1.5.5 flags, Java rouge.properties."""
