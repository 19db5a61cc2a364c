"""How lessons answers the platform's hooks (learning_platform/hooks.py). Subscribed in
LessonsConfig.ready()."""

from __future__ import annotations

from learning_platform import markdown
from lessons.services import rerender_block_html


def rerender_blocks(request: markdown.RerenderStoredHtml) -> markdown.Rerendered:
    return markdown.Rerendered(
        what="block", changed=rerender_block_html(batch_size=request.batch_size)
    )


def subscribe() -> None:
    markdown.stored_html.subscribe(rerender_blocks)
