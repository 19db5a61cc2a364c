"""How community answers the platform's hooks (learning_platform/hooks.py). Subscribed in
CommunityConfig.ready()."""

from __future__ import annotations

from community.services import rerender_comment_html
from learning_platform import markdown


def rerender_comments(request: markdown.RerenderStoredHtml) -> markdown.Rerendered:
    return markdown.Rerendered(
        what="comment", changed=rerender_comment_html(batch_size=request.batch_size)
    )


def subscribe() -> None:
    markdown.stored_html.subscribe(rerender_comments)
