"""A django-q2 schedule sweeping Slack questions left waiting, every minute (bot.jobs.sweep_slack_questions).

With VERITY_TASK_BACKEND=celery the Celery beat entry in webapp/celery.py runs it instead.
"""

from django.db import migrations

NAME = "sweep-slack-questions"


def create_schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.get_or_create(
        name=NAME,
        defaults={"func": "webapp.jobs.run_job", "args": "'sweep_slack_questions'", "schedule_type": "I",
                  "minutes": 1, "repeats": -1},
    )


def delete_schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("bot", "0003_declined_status"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [migrations.RunPython(create_schedule, delete_schedule)]
