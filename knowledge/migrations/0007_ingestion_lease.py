"""The ingestion job's lease on a document, and the django-q2 schedule sweeping expired leases every minute.

With VERITY_TASK_BACKEND=celery the Celery beat entry in webapp/celery.py runs the sweep instead.
"""

from django.db import migrations, models

NAME = "sweep-ingestion"


def create_schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.get_or_create(
        name=NAME,
        defaults={"func": "webapp.jobs.run_job", "args": "'sweep_ingestion'", "schedule_type": "I",
                  "minutes": 1, "repeats": -1},
    )


def delete_schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("knowledge", "0006_cache_table"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [
        migrations.AddField("document", "processing_since", models.DateTimeField(blank=True, null=True)),
        migrations.AddField("document", "processing_by", models.CharField(
            blank=True, help_text="host:pid of the worker reading it", max_length=120)),
        migrations.AddField("document", "attempts", models.PositiveSmallIntegerField(
            default=0, help_text="Ingestion jobs started for this version")),
        migrations.RunPython(create_schedule, delete_schedule),
    ]
