"""The context a passage is read in: its document's title and its section's headings."""

from __future__ import annotations


def passage_context(title: str, heading_text: str) -> str:
    """Document title and heading path as one line ("Testing with Celery — pytest > Fixtures"). The
    answer checker reads every passage in it: an answer may name the product, or the option a
    definition's heading holds, that the passage's own text never repeats."""
    return " — ".join(part for part in (title, heading_text) if part)
