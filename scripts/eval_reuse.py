"""Score answer reuse on the pair set: `python scripts/eval_reuse.py dev|test [--json]`.

Runs inside a transaction that is rolled back, so the database is left as it was.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings")


class _Rollback(Exception):
    pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("split", choices=["dev", "test"])
    parser.add_argument("--json", action="store_true", help="print every pair's outcome too")
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import transaction

    from knowledge.embedding import get_embedder
    from knowledge.models import Collection
    from knowledge.reuse_evaluation import evaluate_pairs, load_pairs

    pairs = load_pairs(ROOT / "fixtures" / "eval" / "reuse" / f"{args.split}.jsonl")
    try:
        with transaction.atomic():
            collection = Collection.objects.create(name="reuse evaluation (rolled back)", slug="reuse-evaluation-tmp")
            report = evaluate_pairs(pairs, get_embedder(), collection)
            raise _Rollback
    except _Rollback:
        pass
    if not args.json:
        report.pop("pairs")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
