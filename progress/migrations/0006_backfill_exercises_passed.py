"""Fill LearnerStats.exercises_passed from the ledger: one row of source "exercise" per paid
first pass."""

from django.db import migrations
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce


def backfill(apps, schema_editor):
    LearnerStats = apps.get_model("progress", "LearnerStats")
    XPAward = apps.get_model("progress", "XPAward")
    paid = (
        XPAward.objects.filter(user_id=OuterRef("user_id"), source_type="exercise")
        .order_by()
        .values("user_id")
        .annotate(n=Count("id"))
        .values("n")
    )
    LearnerStats.objects.update(exercises_passed=Coalesce(Subquery(paid), 0))


class Migration(migrations.Migration):
    dependencies = [("progress", "0005_learner_stats_exercises_passed")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
