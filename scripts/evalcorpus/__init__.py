"""The real-documentation evaluation corpus, step by step (run it with scripts/eval_corpus.py)."""
