"""Orchestrators: a YAML run (``rouge2 run``) and the ROUGE-1.5.5 drop-in evaluation loop."""
