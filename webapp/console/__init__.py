"""The web console: dashboard, documents, knowledge gaps, ask, and the review queue."""
