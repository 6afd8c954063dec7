"""Daily django-q2 schedule for re-verifying answers whose sources changed or whose date came.

With VERITY_TASK_BACKEND=celery the same job runs from the Celery beat entry in webapp/celery.py
instead (no qcluster runs there, so this row stays idle).
"""

from django.db import migrations

NAME = "reverify-answers-daily"


def create_schedule(apps, schema_editor):
    Schedule = apps.get_model("django_q", "Schedule")
    Schedule.objects.get_or_create(
        name=NAME,
        defaults={"func": "webapp.jobs.run_job", "args": "'reverify_answers'", "schedule_type": "D", "repeats": -1},
    )


def delete_schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("verification", "0001_initial"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [migrations.RunPython(create_schedule, delete_schedule)]
