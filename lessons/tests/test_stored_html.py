"""Block HTML is rendered once, when a block is written, and reads return it unchanged."""

from pathlib import Path

import pytest
from django.core.management import call_command

from curriculum.services import load_curriculum
from learning_platform.markdown import render_markdown
from lessons.models import Block, Lesson

pytestmark = pytest.mark.django_db

CONTENT = Path(__file__).resolve().parents[2] / "content"


def test_the_curriculum_reads_exactly_as_when_every_read_rendered_its_markdown(
    api_client, settings
):
    load_curriculum(root=CONTENT)
    slugs = list(Lesson.objects.published().values_list("slug", flat=True))

    cached = {slug: api_client.get(f"/api/v1/lessons/{slug}/").json() for slug in slugs}
    settings.PAGE_CACHE = False
    built = {slug: api_client.get(f"/api/v1/lessons/{slug}/").json() for slug in slugs}

    assert len(slugs) >= 94
    assert cached == built
    prose = [b for body in cached.values() for b in body["blocks"] if "markdown" in b]
    assert prose
    # What a read returned before the HTML was stored: the Markdown rendered there and then.
    assert all(b["html"] == render_markdown(b["markdown"], profile="lesson") for b in prose)


def test_loading_the_curriculum_stores_each_blocks_html():
    load_curriculum(root=CONTENT)

    blocks = Block.objects.all()
    assert all(
        b.html == render_markdown(b.markdown, profile="lesson")
        for b in blocks
        if b.kind in ("prose", "callout")
    )
    assert not any(b.html for b in blocks if b.kind in ("table", "code"))


def test_rerender_markdown_restores_html_a_rule_change_made_stale(api_client, capsys, demo_slice):
    load_curriculum(root=demo_slice)
    block = Block.objects.filter(kind="prose").select_related("lesson").first()
    slug = block.lesson.slug
    api_client.get(f"/api/v1/lessons/{slug}/")
    Block.objects.filter(pk=block.pk).update(html="<p>rendered by an older renderer</p>")

    call_command("rerender_markdown")

    assert "1 block(s)" in capsys.readouterr().out
    block.refresh_from_db()
    assert block.html == render_markdown(block.markdown, profile="lesson")
    read = api_client.get(f"/api/v1/lessons/{slug}/").json()
    assert block.html in [b.get("html") for b in read["blocks"]]


def test_rerender_markdown_changes_nothing_when_everything_is_current(capsys, demo_slice):
    load_curriculum(root=demo_slice)

    call_command("rerender_markdown")

    assert "0 block(s), 0 comment(s)" in capsys.readouterr().out
