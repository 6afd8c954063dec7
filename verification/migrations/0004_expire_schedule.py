"""Daily django-q2 schedule: verified answers past VERITY_VERIFIED_TTL_DAYS go back to the review queue.

With VERITY_TASK_BACKEND=celery the same job runs from the Celery beat entry in webapp/celery.py.
"""

from django.db import migrations

NAME = "expire-verified-answers-daily"


def create_schedule(apps, schema_editor):
    Schedule = apps.get_model("django_q", "Schedule")
    Schedule.objects.get_or_create(
        name=NAME,
        defaults={"func": "jobqueue.run_job", "args": "'expire_verified_answers'", "schedule_type": "D", "repeats": -1},
    )


def delete_schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("verification", "0003_review_events"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [migrations.RunPython(create_schedule, delete_schedule)]
