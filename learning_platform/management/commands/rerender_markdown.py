"""Render every stored Markdown again: lesson blocks and comments.

Blocks and comments store their sanitized HTML when written. Run this after a change of the
renderer or of the sanitizer's rules (learning_platform/markdown.py); it writes only what
changed and drops the cached pages that show it. The apps that store rendered Markdown
(lessons, community) subscribe to `learning_platform.markdown.stored_html`.
"""

from typing import Any

from django.core.management.base import BaseCommand

from learning_platform.markdown import RerenderStoredHtml, stored_html


class Command(BaseCommand):
    help = "Render the stored HTML of every lesson block and comment again from its Markdown."

    def handle(self, *args: Any, **options: Any) -> None:
        results = stored_html.announce(RerenderStoredHtml())
        counts = ", ".join(f"{result.changed} {result.what}(s)" for result in results)
        self.stdout.write(f"Re-rendered: {counts} changed.")
