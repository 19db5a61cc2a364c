"""The first HTML answer of the lesson and quest pages: the web app's `index.html` already holding
the page (its content as the app draws it, its title, description, Open Graph and Twitter tags,
canonical link and schema.org JSON-LD) and the API's JSON for it, which the app starts from
instead of fetching it again (web/src/lib/initialData.ts).

The embedded JSON is the API's answer to the same requester, from the same cached functions
(pages/selectors.py). The markup and head are built from the signed-out answer, kept in the cache
under that answer's ETag, so a view costs the queries of the API read and no more. Drafts and
unknown slugs answer 404 with the bare app shell; staff (who see drafts) get the bare shell and
the app fetches as before.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.template.loader import render_to_string
from django.utils.html import strip_tags
from django.utils.safestring import mark_safe
from django.utils.text import Truncator

from accounts.selectors import session_state
from achievements.selectors import public_listing
from learning_platform import versioned, web_app
from learning_platform.api.conditional import Page, page
from lessons.selectors import LessonNotFound, QuestNotFound, renamed_lesson_slug, sees_drafts
from pages import selectors
from progress.selectors.pages import level_curve_page

# A browser keeps a 301 for as long as it is told: an hour, in case the old slug is given to a
# lesson again.
MOVED_MAX_AGE = 3600
SITE_NAME = "Learning Platform"  # as web/src/lib/useDocumentTitle.ts writes it
DESCRIPTION_LENGTH = 160
CALLOUT_LABEL = {"note": "Note", "tip": "Tip", "warning": "Warning"}
# What a block's report button calls it (web/src/features/reports/components/ReportDialog.tsx).
BLOCK_NOUN = {"table": "this table", "code": "this code", "prose": "this text"}


@dataclass(frozen=True)
class Rendered:
    head: str
    html: str
    quest: str  # the slug of the quest the page belongs to


def lesson(request: HttpRequest, slug: str) -> HttpResponse:
    """`/lessons/<slug>`: the lesson page, its head and its API answer."""
    if request.method not in ("GET", "HEAD") or sees_drafts(request.user):
        return web_app.app_page(request)
    try:
        body = selectors.public_lesson_page(slug=slug)
    except LessonNotFound:
        renamed = renamed_lesson_slug(slug=slug, user=request.user)
        if renamed is None:
            return web_app.app_page(request, status=404)
        response = HttpResponsePermanentRedirect(f"/lessons/{renamed}")
        response["Cache-Control"] = f"max-age={MOVED_MAX_AGE}"
        return response
    rendered = lesson_markup(slug=slug, body=body, path=request.path)
    parts = {"lesson": body}
    if not request.user.is_authenticated:
        parts |= {
            "quest": selectors.public_outline_page(slug=rendered.quest),
            **_signed_out_reads(),
        }
    return _answer(request, rendered, parts)


def quest(request: HttpRequest, slug: str) -> HttpResponse:
    """`/quests/<slug>`: the outline, its head and its API answer (with the learner's marks
    when signed in)."""
    user = request.user
    if request.method not in ("GET", "HEAD") or sees_drafts(user):
        return web_app.app_page(request)
    try:
        public = selectors.public_outline_page(slug=slug)
    except QuestNotFound:
        return web_app.app_page(request, status=404)
    if user.is_authenticated:
        parts = {"quest": selectors.learner_outline_page(slug=slug, user_id=user.pk)}
    else:
        parts = {"quest": public, **_signed_out_reads()}
    return _answer(request, quest_markup(slug=slug, body=public), parts)


SIGNED_OUT_SESSION = page(session_state(user=None))


def _signed_out_reads() -> dict[str, Page]:
    """The reads the app makes at once on any page, answered here for a signed-out visitor: its
    first render then has its header, and no answer arrives later to draw it again. Each is the
    API's answer (cached for it), under the name web/src/app/initialData.ts seeds it by."""
    return {
        "session": SIGNED_OUT_SESSION,
        "levels": level_curve_page(),
        "achievements": public_listing(),
    }


def _answer(request: HttpRequest, rendered: Rendered, parts: dict[str, Page]) -> HttpResponse:
    data = (
        b"{"
        + b",".join(b'"' + key.encode() + b'":' + part.json for key, part in parts.items())
        + b"}"
    )
    return web_app.app_page(
        request,
        head=rendered.head,
        html=rendered.html,
        data=data,
        private=request.user.is_authenticated,
    )


@versioned.cached(
    key=lambda *, slug, body, path: f"pages:lesson-markup:{_site()}:{path}:{body.etag}",
    versions=lambda *, slug, body, path: [versioned.CONTENT],
)
def lesson_markup(*, slug: str, body: Page, path: str) -> Rendered:
    data = json.loads(body.json)
    url = absolute(f"/lessons/{slug}")
    description = describe(data["summary"], *_prose_texts(data["blocks"])) or (
        f"A lesson of {data['quest']['title']}."
    )
    json_ld = {
        "@context": "https://schema.org",
        "@type": "LearningResource",
        "name": data["title"],
        "description": description,
        "url": url,
        "timeRequired": f"PT{data['estimated_minutes']}M",
        "keywords": ", ".join(data["tags"]),
        "learningResourceType": "lesson",
        "inLanguage": "en",
        "isPartOf": {
            "@type": "Course",
            "name": data["quest"]["title"],
            "url": absolute(f"/quests/{data['quest']['slug']}"),
        },
        "provider": {"@type": "Organization", "name": SITE_NAME, "url": absolute("/")},
    }
    blocks = [{**block, **_block_labels(block)} for block in data["blocks"]]
    head = _head(
        name=data["title"], description=description, url=url, og_type="article", ld=json_ld
    )
    html = render_to_string(
        "pages/web/lesson.html",
        {"lesson": {**data, "blocks": blocks}, "path": path, "site_name": SITE_NAME},
    )
    return Rendered(head=head, html=html, quest=data["quest"]["slug"])


@versioned.cached(
    key=lambda *, slug, body: f"pages:quest-html:{_site()}:{slug}:{body.etag}",
    versions=lambda *, slug, body: [versioned.CONTENT],
)
def quest_markup(*, slug: str, body: Page) -> Rendered:
    data = json.loads(body.json)
    url = absolute(f"/quests/{slug}")
    description = describe(data["description"]) or f"The lessons of {data['title']}."
    json_ld = {
        "@context": "https://schema.org",
        "@type": "Course",
        "name": data["title"],
        "description": description,
        "url": url,
        "inLanguage": "en",
        "provider": {"@type": "Organization", "name": SITE_NAME, "url": absolute("/")},
        "hasPart": [
            {
                "@type": "LearningResource",
                "name": lesson["title"],
                "url": absolute(f"/lessons/{lesson['slug']}"),
                "timeRequired": f"PT{lesson['estimated_minutes']}M",
                "position": position,
            }
            for position, lesson in enumerate(data["lessons"], start=1)
        ],
    }
    head = _head(
        name=data["title"], description=description, url=url, og_type="website", ld=json_ld
    )
    lessons = {lesson["slug"]: lesson for lesson in data["lessons"]}
    units = [
        {
            "title": unit["title"],
            "start": lessons[unit["lessons"][0]]["number"],
            "lessons": [lessons[slug] for slug in unit["lessons"]],
        }
        for unit in data["units"]
    ]
    html = render_to_string(
        "pages/web/quest.html", {"quest": data, "units": units, "site_name": SITE_NAME}
    )
    return Rendered(head=head, html=html, quest=slug)


def _site() -> str:
    """Part of a rendered page's key: its absolute links name the app's address."""
    return str(settings.FRONTEND_URL)


def absolute(path: str) -> str:
    """`path` on the address the learners' app is served at (FRONTEND_URL)."""
    return f"{settings.FRONTEND_URL}{path}"


def describe(*texts: str) -> str:
    """The first of `texts` (HTML or plain) with words in it, as one line of at most
    DESCRIPTION_LENGTH characters."""
    for text in texts:
        line = re.sub(r"\s+", " ", strip_tags(text)).strip()
        if line:
            return Truncator(line).chars(DESCRIPTION_LENGTH)
    return ""


def _prose_texts(blocks: list[dict[str, Any]]) -> list[str]:
    return [block["html"] for block in blocks if block["kind"] == "prose"]


def _block_labels(block: dict[str, Any]) -> dict[str, str]:
    """What the app's block view and report button call a block."""
    if block["kind"] == "callout":
        label = CALLOUT_LABEL.get(block["style"], "Note")
        return {"label": label, "noun": f"this {label.lower()}"}
    if block["kind"] == "code":
        return {"name": block["title"] or block["language"], "noun": BLOCK_NOUN["code"]}
    return {"noun": BLOCK_NOUN.get(block["kind"], "this text")}


def _head(*, name: str, description: str, url: str, og_type: str, ld: dict[str, Any]) -> str:
    return render_to_string(
        "pages/web/head.html",
        {
            "title": f"{name} · {SITE_NAME}",
            "name": name,
            "description": description,
            "url": url,
            "og_type": og_type,
            "site_name": SITE_NAME,
            # JSON-LD is JSON in a script element: made safe for it like the embedded data.
            "json_ld": mark_safe(web_app.script_json(json.dumps(ld).encode()).decode()),  # noqa: S308
        },
    )
