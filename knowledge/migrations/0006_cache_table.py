"""The database cache's table (settings.CACHES without Redis), created by `migrate` wherever Verity runs."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("knowledge", "0005_gap_collections_document_warnings")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
