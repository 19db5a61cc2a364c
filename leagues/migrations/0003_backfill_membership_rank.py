"""The rank of every member of a cohort closed before the close stored it, in the close's own
order (XP, then who reached it first, then id). A data migration of its own: the schema change
is 0002. Reversing it leaves the ranks (0002's reversal drops the column)."""

from django.db import migrations


def backfill_ranks(apps, schema_editor):
    Cohort = apps.get_model("leagues", "Cohort")
    Membership = apps.get_model("leagues", "Membership")
    closed = Cohort.objects.filter(closed_at__isnull=False).values_list("pk", flat=True)
    for cohort_id in closed.iterator():
        ranked = list(
            Membership.objects.filter(cohort_id=cohort_id)
            .order_by("-xp", "reached_at", "user_id")
            .only("pk")
        )
        for position, membership in enumerate(ranked, start=1):
            membership.rank = position
        Membership.objects.bulk_update(ranked, ["rank"])


class Migration(migrations.Migration):
    dependencies = [("leagues", "0002_membership_rank_and_result_seen")]

    operations = [migrations.RunPython(backfill_ranks, migrations.RunPython.noop)]
