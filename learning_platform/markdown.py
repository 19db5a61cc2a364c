"""The one Markdown renderer of the platform: lesson prose and learner comments.

`render_markdown(source, profile=...)` turns Markdown into HTML that is safe to insert
into a page as is. Two layers keep it safe:

1. Python-Markdown renders the source. For comments the raw-HTML processors are removed,
   so any `<tag>` a learner types comes out as escaped text, never as markup.
2. nh3 (the Rust `ammonia` sanitizer) then parses the result like a browser would and keeps
   only an allowlist of tags, attributes and URL schemes (http, https, mailto and relative
   URLs). It decodes entities before checking a scheme, so obfuscations such as
   `jav&#x09;ascript:` are caught; `data:` URLs, event handlers and `<script>`/`<style>`
   (with their content) never come out.

Profiles:
- "comment": paragraphs, line breaks, emphasis, inline code and fenced code, links,
  lists, block quotes. Links get `rel="nofollow noopener ugc"` (user-generated content).
  Headings, rules, images and tables are not part of it: they stay as typed text.
- "lesson": the comment subset plus headings, tables, images (https `src` only),
  horizontal rules and a few inline tags (`kbd`, `sub`, `sup`, `del`, `b`, `i`).
  Staff-authored raw HTML is allowed but goes through the same sanitizer.

Results are memoised on (source, profile): rendering is pure, and lesson prose is read far
more often than it changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from html.parser import HTMLParser
from typing import Literal
from urllib.parse import urlsplit

import markdown
import nh3
from markdown.extensions import Extension

from learning_platform.hooks import Hook

Profile = Literal["lesson", "comment"]


@dataclass(frozen=True)
class RerenderStoredHtml:
    """Render every stored Markdown again (after a change of the renderer or the sanitizer's
    rules: `manage.py rerender_markdown`)."""

    batch_size: int = 500


@dataclass(frozen=True)
class Rerendered:
    what: str  # what an app stores rendered, singular ("block"): the command's report
    changed: int


# Each app that stores rendered Markdown subscribes the service that renders it all again, in
# its AppConfig.ready() (INSTALLED_APPS order is the report's order).
stored_html: Hook[RerenderStoredHtml, Rerendered] = Hook("learning_platform.stored_html")

URL_SCHEMES = frozenset({"http", "https", "mailto"})

_COMMENT_TAGS = frozenset(
    {"p", "br", "em", "strong", "code", "pre", "a", "ul", "ol", "li", "blockquote"}
)
_LESSON_TAGS = _COMMENT_TAGS | frozenset(
    {
        "h1", "h2", "h3", "h4", "h5", "h6", "hr",
        "table", "thead", "tbody", "tr", "th", "td",
        "img", "kbd", "sub", "sup", "del", "b", "i",
    }
)  # fmt: skip

_COMMENT_ATTRIBUTES = {"a": {"href", "title"}, "code": {"class"}, "ol": {"start"}}
_LESSON_ATTRIBUTES = {
    **_COMMENT_ATTRIBUTES,
    "img": {"src", "alt", "title", "width", "height"},
    "th": {"align", "colspan", "rowspan"},
    "td": {"align", "colspan", "rowspan"},
}

# Dropped together with their content (their text is never useful prose).
_CLEAN_CONTENT_TAGS = frozenset({"script", "style", "iframe", "object", "embed", "template"})

_LINK_REL = {"comment": "nofollow noopener ugc", "lesson": "noopener noreferrer"}


class _CommentSubset(Extension):
    """Markdown for comments: raw HTML is escaped text; no headings, rules or images.

    Syntax outside the subset stays as the characters the author typed (`# title` is a
    paragraph starting with `#`) instead of being rendered and then stripped.
    """

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        for name in ("hashheader", "setextheader", "hr"):
            md.parser.blockprocessors.deregister(name)
        for name in ("image_link", "image_reference", "short_image_ref"):
            md.inlinePatterns.deregister(name)


def _attribute_filter(element: str, attribute: str, value: str) -> str | None:
    # Only `language-*` classes (from fenced code) survive; no styling hooks from users.
    if attribute == "class":
        kept = [c for c in value.split() if c.startswith("language-") and c[9:].isidentifier()]
        return " ".join(kept) or None
    # Images load without a click, so they must come from an https origin.
    if element == "img" and attribute == "src":
        return value if value.lower().startswith("https://") else None
    return value


def _markdown_for(profile: Profile) -> markdown.Markdown:
    if profile == "comment":
        extensions: list[str | markdown.Extension] = [
            "fenced_code",
            "sane_lists",
            "nl2br",
            _CommentSubset(),
        ]
    else:
        extensions = ["fenced_code", "sane_lists", "tables"]
    return markdown.Markdown(
        extensions=extensions,
        extension_configs={"tables": {"use_align_attribute": True}},
        output_format="html",
    )


@lru_cache(maxsize=4096)
def render_markdown(source: str, *, profile: Profile) -> str:
    """Render Markdown `source` to sanitized HTML for the given profile.

    The output never contains script, event-handler attributes, `javascript:`/`data:` URLs
    or (for comments) any HTML the author typed. Pure and memoised.
    """
    html = _unsanitized_html(source, profile=profile)
    is_comment = profile == "comment"
    return nh3.clean(
        html,
        tags=set(_COMMENT_TAGS if is_comment else _LESSON_TAGS),
        clean_content_tags=set(_CLEAN_CONTENT_TAGS),
        attributes={
            tag: set(attrs)
            for tag, attrs in (_COMMENT_ATTRIBUTES if is_comment else _LESSON_ATTRIBUTES).items()
        },
        attribute_filter=_attribute_filter,
        url_schemes=set(URL_SCHEMES),
        link_rel=_LINK_REL[profile],
        strip_comments=True,
    )


def _unsanitized_html(source: str, *, profile: Profile) -> str:
    if profile not in _LINK_REL:
        raise ValueError(f"Unknown Markdown profile: {profile!r}")
    # A fresh Markdown instance per call: instances keep per-document state (references,
    # footnotes) and are not safe to share between threads.
    try:
        return _markdown_for(profile).convert(source)
    except RecursionError:
        # Python-Markdown recurses once per nesting level (lists, quotes): a pathological
        # source shows as the text it is rather than taking down every page that shows it.
        return "<p>" + escape(source) + "</p>"


_URL_ATTRIBUTES = {"a": "href", "img": "src"}
# Browsers ignore these inside a scheme ("java\tscript:"), so the check must too.
_IGNORED_IN_SCHEME = re.compile(r"[\x00-\x20\x7f]+")


class _StrippedMarkupFinder(HTMLParser):
    """Walks the rendered (not yet sanitized) HTML and names what the allowlist drops."""

    def __init__(self, *, tags: frozenset[str], attributes: dict[str, set[str]]):
        super().__init__(convert_charrefs=True)
        self.tags = tags
        self.attributes = attributes
        self.problems: list[str] = []

    def _add(self, problem: str) -> None:
        if problem not in self.problems:
            self.problems.append(problem)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.tags:
            if tag in _CLEAN_CONTENT_TAGS:
                self._add(f"remove <{tag}> and its content (not allowed)")
            else:
                self._add(f"remove the <{tag}> tag (not allowed; its text may stay)")
            return
        allowed = self.attributes.get(tag, set())
        for name, value in attrs:
            if name not in allowed:
                self._add(f'remove the attribute "{name}" from <{tag}>')
            elif _URL_ATTRIBUTES.get(tag) == name:
                problem = _url_problem(tag, value or "")
                if problem:
                    self._add(problem)


def _url_problem(tag: str, url: str) -> str | None:
    compact = _IGNORED_IN_SCHEME.sub("", url)
    scheme = urlsplit(compact).scheme.lower() if ":" in compact else ""
    if tag == "img":
        if not compact.lower().startswith("https://"):
            return f"remove the image {url!r} or give it an https:// URL"
        return None
    if scheme and scheme not in URL_SCHEMES:
        return f"remove the `{scheme}:` link {url!r} (links must be http(s) or mailto)"
    return None


def markdown_problems(source: str, *, profile: Profile) -> list[str]:
    """What the sanitizer would strip from `source` (tags, attributes, URLs), each said as
    what to do about it ("remove the `javascript:` link ...").

    Empty when the rendered HTML comes through `render_markdown` unchanged in substance.
    A lesson block with any is refused on save (lessons.blocks); the admin's live preview
    shows the same words, so an editor learns it while typing.
    """
    is_comment = profile == "comment"
    finder = _StrippedMarkupFinder(
        tags=_COMMENT_TAGS if is_comment else _LESSON_TAGS,
        attributes=_COMMENT_ATTRIBUTES if is_comment else _LESSON_ATTRIBUTES,
    )
    finder.feed(_unsanitized_html(source, profile=profile))
    finder.close()
    return finder.problems
