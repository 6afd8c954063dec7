"""Generic entity patterns (editable in admin), and the graph edges for answers stored before the graph existed."""

from django.db import migrations

PATTERNS = [
    ("error_code", r"\b[A-Z]{1,3}\d{3,5}\b", "Error codes such as E4012"),
    ("version", r"\bv?\d+\.\d+(?:\.\d+)*\b", "Versions such as 3.11 or v2.3"),
    ("form_id", r"\b[A-Z]{2,6}-\d{2,6}\b", "Form and ticket ids such as EXP-204"),
    ("setting", r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b", "Settings and environment variables such as SECRET_KEY"),
    ("setting", r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", "snake_case settings such as autodoc_member_order"),
    ("option", r"(?<![\w-])--?[A-Za-z][\w-]*", "Command-line options such as --hard"),
    ("function", r"\b[A-Za-z_][\w.]*\(\)", "Function names written with parentheses"),
    ("quantity", r"[$€£]?\d[\d,]*(?:\.\d+)?\s?(?:%|k\b|ms\b|s\b|sec\b|seconds?\b|min\b|minutes?\b|hours?\b|days?\b|"
                 r"weeks?\b|months?\b|years?\b|GB\b|MB\b|KB\b|TB\b)", "Numbers with units such as 30 seconds"),
]


def seed(apps, schema_editor):
    EntityPattern = apps.get_model("knowledge", "EntityPattern")
    if not EntityPattern.objects.exists():
        EntityPattern.objects.bulk_create(EntityPattern(kind=k, pattern=p, description=d) for k, p, d in PATTERNS)


def backfill_citations(apps, schema_editor):
    Answer = apps.get_model("knowledge", "Answer")
    Chunk = apps.get_model("knowledge", "Chunk")
    AnswerCitation = apps.get_model("knowledge", "AnswerCitation")
    rows = []
    for answer in Answer.objects.exclude(citations=[]).iterator():
        ids = [c.get("chunk_id") for c in answer.citations if isinstance(c, dict) and c.get("chunk_id")]
        chunks = {c.pk: c for c in Chunk.objects.filter(pk__in=ids).select_related("document")}
        for c in answer.citations:
            if not isinstance(c, dict) or not isinstance(c.get("n"), int):
                continue
            chunk = chunks.get(c.get("chunk_id"))
            rows.append(AnswerCitation(answer_id=answer.pk, n=c["n"], chunk=chunk,
                                       document=chunk.document if chunk else None,
                                       version=chunk.document.version if chunk else 1,
                                       source=str(c.get("source", ""))[:500]))
    AnswerCitation.objects.bulk_create(rows, batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("knowledge", "0008_question_graph")]

    operations = [
        migrations.RunPython(seed, migrations.RunPython.noop),
        migrations.RunPython(backfill_citations, migrations.RunPython.noop),
    ]
