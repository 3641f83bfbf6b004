"""YAML-configured evaluation runs: ``rouge2 run CONFIG.yaml``.

* :mod:`rouge2.run.config` - the schema and its validation;
* :mod:`rouge2.run.inputs` - readers for the supported input layouts;
* :mod:`rouge2.run.outputs` - atomic writers for CSV / JSONL / JSON / console;
* :mod:`rouge2.run.runner` - executes a validated config (``jobs`` processes);
* :mod:`rouge2.run.topic_report` - the topic-coverage report (CSV + HTML);
* :mod:`rouge2.run.properties` - converts a Java ROUGE 2.0 ``rouge.properties``;
* :mod:`rouge2.run.cli` - ``run_main`` and ``convert_properties_main``.
"""

from rouge2.run.config import RunConfig, load_config, parse_config

__all__ = ["RunConfig", "load_config", "parse_config"]
