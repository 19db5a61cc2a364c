"""Render every stored Markdown again: lesson blocks and comments.

Blocks and comments store their sanitized HTML when written. Run this after a change of the
renderer or of the sanitizer's rules (learning_platform/markdown.py); it writes only what
changed and drops the cached pages that show it.
"""

from django.core.management.base import BaseCommand

from community.services import rerender_comment_html
from lessons.services import rerender_block_html


class Command(BaseCommand):
    help = "Render the stored HTML of every lesson block and comment again from its Markdown."

    def handle(self, *args, **options) -> None:
        blocks = rerender_block_html()
        comments = rerender_comment_html()
        self.stdout.write(f"Re-rendered: {blocks} block(s), {comments} comment(s) changed.")
