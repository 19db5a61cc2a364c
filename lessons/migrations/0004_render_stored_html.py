"""Fill `Block.html` for existing blocks (new ones store it when saved).

Uses the renderer of the code being deployed; after a later change of the renderer or the
sanitizer's rules, `manage.py rerender_markdown` renders everything again.
"""

from django.db import migrations

from lessons.blocks import block_html


def render(apps, schema_editor):
    Block = apps.get_model("lessons", "Block")
    changed = []
    for block in Block.objects.only("id", "kind", "markdown").iterator(chunk_size=500):
        block.html = block_html(block.kind, block.markdown)
        if block.html:
            changed.append(block)
    Block.objects.bulk_update(changed, ["html"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("lessons", "0003_stored_html")]

    operations = [migrations.RunPython(render, migrations.RunPython.noop)]
