"""The topic-coverage report of a run (``outputs.topic_report``): CSV, JSON and HTML files.

The per-pair computation is :mod:`rouge2.measures.coverage` (re-exported
here); the dataset-level statistics are :mod:`rouge2.stats.coverage`.  This
package writes them: :mod:`.writer` (the files, see there), :mod:`.pages`
with :mod:`.site`, :mod:`.index_page` and :mod:`.detail_pages` (the HTML),
:mod:`.charts` and :mod:`.markup` (with ``report.css`` and ``report.js``).
"""

from rouge2.io.topic_report.writer import (
    CSV_HEADER,
    TASK_ORDERS,
    TopicReportWriter,
    csv_path_for,
    report_paths,
    report_topics,
)
from rouge2.measures.coverage import STATUSES, PairCoverage, ReferenceCoverage, TopicCoverage, assign

__all__ = [
    "CSV_HEADER",
    "STATUSES",
    "TASK_ORDERS",
    "PairCoverage",
    "ReferenceCoverage",
    "TopicCoverage",
    "TopicReportWriter",
    "assign",
    "csv_path_for",
    "report_paths",
    "report_topics",
]
