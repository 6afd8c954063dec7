"""Seed the abbreviation glossary with common workplace shorthand (admins edit it afterwards)."""

from django.db import migrations

DEFAULT_TERMS = {
    "WFH": "work from home remote",
    "PTO": "paid time off vacation",
    "OOO": "out of office",
    "EM": "engineering manager",
    "ack": "acknowledge",
    "acks": "acknowledges",
    "IC": "incident commander",
    "SSO": "single sign-on",
    "MFA": "multi-factor authentication",
    "2FA": "two-factor multi-factor authentication",
    "LOA": "leave of absence",
    "401k": "401(k) retirement plan",
    "PR": "pull request",
    "CI": "continuous integration",
    "perf": "performance",
    "mgr": "manager",
    "approx": "approximately",
    "reimb": "reimbursement",
    "dev": "development",
    "prod": "production",
    "oncall": "on-call",
}


def seed(apps, schema_editor):
    GlossaryTerm = apps.get_model("knowledge", "GlossaryTerm")
    for term, expansion in DEFAULT_TERMS.items():
        GlossaryTerm.objects.get_or_create(term=term, defaults={"expansion": expansion})


class Migration(migrations.Migration):
    dependencies = [("knowledge", "0003_feedback")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
