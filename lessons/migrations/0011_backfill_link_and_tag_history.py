"""Versions recorded before tags and links had a history: give them today's tags and links,
so reverting to one of them leaves tags and links as they are rather than removing them."""

from django.db import migrations


def backfill(apps, schema_editor):
    HistoricalLesson = apps.get_model("lessons", "HistoricalLesson")
    HistoricalTags = apps.get_model("lessons", "HistoricalLesson_tags")
    HistoricalLink = apps.get_model("lessons", "HistoricalLink")
    Lesson = apps.get_model("lessons", "Lesson")
    Link = apps.get_model("lessons", "Link")
    tags = {}
    for lesson in Lesson.objects.prefetch_related("tags"):
        tags[lesson.id] = [tag.id for tag in lesson.tags.all()]
    HistoricalTags.objects.bulk_create(
        (
            HistoricalTags(history_id=record.history_id, lesson_id=record.id, tag_id=tag_id)
            for record in HistoricalLesson.objects.only("history_id", "id").iterator()
            for tag_id in tags.get(record.id, [])
        ),
        batch_size=1000,
    )
    first_version = {}
    for record in HistoricalLesson.objects.order_by("-history_date").only("id", "history_date"):
        first_version[record.id] = record.history_date
    HistoricalLink.objects.bulk_create(
        (
            HistoricalLink(
                id=link.id,
                lesson_id=link.lesson_id,
                position=link.position,
                title=link.title,
                url=link.url,
                history_type="+",
                # At the lesson's first version: every version has the links of today.
                history_date=first_version[link.lesson_id],
            )
            for link in Link.objects.iterator()
            if link.lesson_id in first_version
        ),
        batch_size=1000,
    )


class Migration(migrations.Migration):
    dependencies = [("lessons", "0010_link_and_tag_history")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
