"""Fill `Comment.body_html` for existing comments (new ones store it when posted or edited).

Uses the renderer of the code being deployed; after a later change of the renderer or the
sanitizer's rules, `manage.py rerender_markdown` renders everything again.
"""

from django.db import migrations

from learning_platform.markdown import render_markdown


def render(apps, schema_editor):
    Comment = apps.get_model("community", "Comment")
    changed = []
    for comment in Comment.objects.exclude(body="").only("id", "body").iterator(chunk_size=500):
        comment.body_html = render_markdown(comment.body, profile="comment")
        changed.append(comment)
    Comment.objects.bulk_update(changed, ["body_html"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("community", "0003_stored_html")]

    operations = [migrations.RunPython(render, migrations.RunPython.noop)]
