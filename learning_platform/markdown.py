"""The one Markdown renderer of the platform: lesson prose and learner comments.

`render_markdown(source, profile=...)` turns Markdown into HTML that is safe to insert
into a page as is. Two layers keep it safe:

1. markdown-it-py renders the source (CommonMark, plus tables for lessons). It runs in time
   linear in the source's length, also on pathological input such as thousands of `[`
   (Python-Markdown, used before, took 12 s on 4,990 of them). For comments raw HTML is
   off, so any `<tag>` a learner types comes out as escaped text, never as markup.
2. nh3 (the Rust `ammonia` sanitizer) then parses the result like a browser would and keeps
   only an allowlist of tags, attributes and URL schemes (http, https, mailto and relative
   URLs). It decodes entities before checking a scheme, so obfuscations such as
   `jav&#x09;ascript:` are caught; `data:` URLs, event handlers and `<script>`/`<style>`
   (with their content) never come out.

Profiles:
- "comment": paragraphs, line breaks (a newline is a break), emphasis, inline code and
  fenced code, links, lists, block quotes. Links get `rel="nofollow noopener ugc"` (user-generated content).
  Headings, rules, images and tables are not part of it: they stay as typed text.
- "lesson": the comment subset plus headings, tables, images (an https `src`, or a path below
  MEDIA_URL: the images uploaded in the admin),
  horizontal rules, a few inline tags (`kbd`, `sub`, `sup`, `del`, `b`, `i`) and math:
  `$d_{model}$` inline and `$$...$$` on its own lines, TeX parsed by mdit-py-plugins'
  dollarmath and rendered here as MathML (latex2mathml), which browsers draw with no script.
  A `$` followed by a space or a digit is a dollar sign ("$5 and $10"). Staff-authored raw
  HTML is allowed but goes through the same sanitizer.

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
from urllib.parse import unquote, urlsplit

import latex2mathml.converter
import nh3
from django.conf import settings
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin

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

# What latex2mathml writes: MathML Core's presentation elements, and the attributes it sets.
_MATHML_TAGS = frozenset(
    {
        "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup", "msubsup",
        "mfrac", "msqrt", "mroot", "mover", "munder", "munderover", "mtable", "mtr", "mtd",
        "mstyle", "mpadded", "mphantom", "menclose", "merror", "semantics", "annotation",
    }
)  # fmt: skip
_MATHML_ATTRIBUTES = frozenset(
    {
        "display", "mathvariant", "stretchy", "fence", "separator", "lspace", "rspace",
        "accent", "accentunder", "columnalign", "columnspacing", "rowspacing", "columnlines",
        "rowlines", "displaystyle", "scriptlevel", "minsize", "maxsize", "movablelimits",
        "symmetric", "largeop", "form", "width", "height", "depth", "linethickness",
        "notation", "encoding",
    }
)  # fmt: skip
_LESSON_TAGS = _LESSON_TAGS | _MATHML_TAGS

_COMMENT_ATTRIBUTES = {"a": {"href", "title"}, "code": {"class"}, "ol": {"start"}}
_LESSON_ATTRIBUTES = {
    **_COMMENT_ATTRIBUTES,
    "img": {"src", "alt", "title", "width", "height", "loading"},
    "th": {"align", "colspan", "rowspan"},
    "td": {"align", "colspan", "rowspan"},
    **{tag: set(_MATHML_ATTRIBUTES) for tag in _MATHML_TAGS},
}

# Dropped together with their content (their text is never useful prose).
_CLEAN_CONTENT_TAGS = frozenset({"script", "style", "iframe", "object", "embed", "template"})

_LINK_REL = {"comment": "nofollow noopener ugc", "lesson": "noopener noreferrer"}


def _attribute_filter(element: str, attribute: str, value: str) -> str | None:
    # Only `language-*` classes (from fenced code) survive; no styling hooks from users.
    if attribute == "class":
        kept = [c for c in value.split() if c.startswith("language-") and c[9:].isidentifier()]
        return " ".join(kept) or None
    # Images load without a click, so they must come from an https origin or be ours.
    if element == "img" and attribute == "src":
        return value if _allowed_image_src(value) else None
    if element == "img" and attribute == "loading":
        return value if value in ("lazy", "eager") else None
    if _URL_ATTRIBUTES.get(element) == attribute and _hidden_scheme(value):
        return None
    return value


def _allowed_image_src(url: str) -> bool:
    """An https image, or one uploaded here: a plain path below MEDIA_URL (lesson images)."""
    if url.lower().startswith("https://"):
        return True
    media_url = str(settings.MEDIA_URL)
    return (
        media_url.startswith("/")
        and not media_url.startswith("//")
        and url.startswith(media_url)
        and len(url) > len(media_url)
        and ".." not in url
        and "\\" not in url
        and not _IGNORED_IN_SCHEME.search(url)
    )


# Before the first "/", "?" or "#", a ":" makes the start of a URL its scheme.
_SCHEME = re.compile(r"^([^/?#]*):")


def _hidden_scheme(url: str) -> bool:
    """Whether `url`, once unescaped, names a scheme other than the allowed ones.

    markdown-it-py percent-encodes what it does not expect in a URL, so `jav&#x09;ascript:`
    reaches the sanitizer as the relative path `jav%09ascript:`; harmless in a browser, but a
    link whose text before the first ":" is not a plain allowed scheme has no use here.
    """
    compact = _IGNORED_IN_SCHEME.sub("", unquote(url))
    match = _SCHEME.match(compact)
    return match is not None and match.group(1).lower() not in URL_SCHEMES


# Levels of block nesting (a list item is two: the list and the item); deep enough for any
# real list or quote.
MAX_NESTING = 40
_ALIGN = re.compile(r"^text-align:(left|center|right)$")


def _align_attribute(state: StateCore) -> None:
    """Table cells carry `align="..."` rather than a style: the sanitizer allows no styles."""
    for token in state.tokens:
        if token.type in ("th_open", "td_open"):
            match = _ALIGN.match(str(token.attrs.pop("style", "")))
            if match:
                token.attrs["align"] = match.group(1)


def _lazy_images(state: StateCore) -> None:
    """Lesson images load when scrolled near, not all with the page."""
    for token in state.tokens:
        for child in token.children or ():
            if child.type == "image":
                child.attrs["loading"] = "lazy"


def _image_as_text(state: StateInline, silent: bool) -> bool:
    """`![` is typed text in comments, so `![alt](url)` shows as typed, not as a link."""
    if not state.src.startswith("![", state.pos):
        return False
    if not silent:
        state.push("text", "", 0).content = "!["
    state.pos += 2
    return True


def _comment_renderer() -> MarkdownIt:
    # Syntax outside the subset stays as the characters the author typed (`# title` is a
    # paragraph starting with `#`) instead of being rendered and then stripped.
    md = MarkdownIt(
        "commonmark", {"html": False, "breaks": True, "maxNesting": MAX_NESTING}
    ).disable(["heading", "lheading", "hr", "image", "html_block", "html_inline"])
    md.inline.ruler.before("link", "image_as_text", _image_as_text)
    # A method to mypy; markdown-it-py lets an instance replace it (see _every_link).
    md.validateLink = _every_link  # type: ignore[method-assign]
    return md


@lru_cache(maxsize=1024)
def _mathml(tex: str, *, block: bool) -> str:
    """TeX as MathML; raises what latex2mathml raises on TeX it cannot read."""
    # latex2mathml names the MathML namespace, which HTML infers: dropped for shorter pages.
    mathml: str = latex2mathml.converter.convert(tex, display="block" if block else "inline")
    return mathml.replace(' xmlns="http://www.w3.org/1998/Math/MathML"', "", 1)


def _render_math(tokens: list[Token], index: int) -> str:
    """A math token as MathML alone (dollarmath's own rules wrap it in a span or a div)."""
    token = tokens[index]
    block = token.type.startswith("math_block")
    try:
        mathml = _mathml(token.content, block=block)
    except Exception:  # latex2mathml has no one base error; markdown_problems names it
        mathml = f"<code>{escape(token.content)}</code>"
    return f"<p>{mathml}</p>\n" if block else mathml


_MATH_TOKENS = frozenset({"math_inline", "math_inline_double", "math_block", "math_block_label"})


def _math_problems(tokens: list[Token]) -> list[str]:
    """The TeX that would show as typed because it cannot be read, said for the editor."""
    problems = []
    for token in tokens:
        if token.children:
            problems += _math_problems(token.children)
        if token.type not in _MATH_TOKENS:
            continue
        try:
            _mathml(token.content, block=token.type.startswith("math_block"))
        except Exception as error:  # as in _render_math
            reason = str(error) or type(error).__name__
            problems.append(f"fix the math `{token.content.strip()}`: it cannot be read ({reason})")
    return problems


def _lesson_renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True, "maxNesting": MAX_NESTING}).enable("table")
    md.core.ruler.push("align_attribute", _align_attribute)
    md.core.ruler.push("lazy_images", _lazy_images)
    # Prose has dollar signs: no space inside the delimiters, no digit after the closing one.
    md.use(
        dollarmath_plugin,
        allow_space=False,
        allow_digits=False,
        allow_labels=False,
        double_inline=True,
    )
    for math in _MATH_TOKENS:
        md.add_render_rule(math, lambda _, tokens, index, *__: _render_math(tokens, index))
    # As in _comment_renderer.
    md.validateLink = _every_link  # type: ignore[method-assign]
    return md


def _every_link(url: str) -> bool:
    # markdown-it-py leaves a `javascript:` link as plain text; letting it through to the
    # sanitizer, which drops its href, lets `markdown_problems` tell the editor about it.
    return True


# A MarkdownIt instance keeps no per-document state (each render gets a fresh state and
# environment), so one per profile serves every thread.
_RENDERERS: dict[str, MarkdownIt] = {"comment": _comment_renderer(), "lesson": _lesson_renderer()}


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
    renderer = _RENDERERS.get(profile)
    if renderer is None:
        raise ValueError(f"Unknown Markdown profile: {profile!r}")
    env: dict[str, object] = {}
    tokens = renderer.parse(source, env)
    if any(token.level >= MAX_NESTING - 1 for token in tokens):
        # markdown-it-py stops parsing blocks at MAX_NESTING and drops what lies deeper: a
        # source nested that deep shows as the text it is rather than losing words.
        return "<p>" + escape(source) + "</p>"
    # Python-Markdown (the renderer before) ended without a newline: stored HTML stays as it was.
    html: str = renderer.renderer.render(tokens, renderer.options, env)
    return html.rstrip("\n")


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
        if not _allowed_image_src(url):
            return f"remove the image {url!r} or give it an https:// URL or an uploaded image's"
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
    if is_comment:
        return finder.problems
    return finder.problems + _math_problems(_RENDERERS["lesson"].parse(source, {}))


# Elements that end a run of text: their text is kept apart from the next one's by a space.
_TEXT_BREAKS = frozenset(
    {"p", "br", "li", "ul", "ol", "pre", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "hr",
     "table", "tr", "td", "th", "div"}
)  # fmt: skip


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _TEXT_BREAKS:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _TEXT_BREAKS:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def markdown_as_text(source: str, *, profile: Profile = "comment") -> str:
    """Markdown as the plain text its reader sees, on one line: no `**`, `#` or backticks,
    a link as its text, an image as its description. For previews (notifications, e-mails)."""
    collector = _TextCollector()
    collector.feed(render_markdown(source, profile=profile))
    collector.close()
    return " ".join("".join(collector.parts).split())
