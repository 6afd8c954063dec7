"""The REST API: ask, documents, feedback (token auth, per-user throttling)."""
