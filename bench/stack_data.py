"""bench/run's data (bench/stack.py; profile_reads.py seeds with it too): the curriculum,
learners with realistic progress and comments, the measured lesson's threads, the signed-in
learner, and fresh learners about to sync."""

from __future__ import annotations

import json
import random
import time
import uuid
from datetime import timedelta
from importlib import import_module
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EMAIL = "bench-stack@example.com"
PASSWORD = "bench-stack-Passw0rd!"
LESSON = "embedding-dimension"


def seed(*, learners: int, rng: random.Random) -> dict:
    """The curriculum, `learners` learners with progress and comments, the signed-in learner."""
    from django.conf import settings
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from accounts.models import User
    from community.models import Comment
    from learning_platform.markdown import render_markdown
    from lessons.models import Lesson
    from progress import services
    from progress.models import LearnerStats, LessonCompletion, XPAward

    call_command("migrate", verbosity=0)
    call_command("load_curriculum", str(ROOT / "content"), verbosity=0)
    quest = settings.DEMO_QUEST_SLUG
    lessons = list(Lesson.objects.published().filter(quest__slug=quest).order_by("position"))
    lesson = next(item for item in lessons if item.slug == LESSON)

    already = User.objects.filter(email__startswith="bench-stack-learner-").count()
    now = timezone.now()
    if already < learners:
        password = make_password(None)
        made = User.objects.bulk_create(
            User(email=f"bench-stack-learner-{n}@example.com", password=password)
            for n in range(already, learners)
        )
        completions, awards, stats = [], [], []
        for user in made:
            # Most learners are early in the quest; a few went far.
            done = min(len(lessons), int(rng.expovariate(1 / 18)))
            xp = 0
            for position, item in enumerate(lessons[:done]):
                at = now - timedelta(days=30) + timedelta(days=30 * position / max(done, 1))
                completions.append(
                    LessonCompletion(user=user, lesson=item, completed_at=at, device_id="web")
                )
                awards.append(
                    XPAward(
                        user=user, source_type="lesson", source_id=item.id, amount=item.xp,
                        awarded_at=at,
                    )
                )  # fmt: skip
                xp += item.xp
            stats.append(LearnerStats(user=user, xp_total=xp, streak_current=done % 5))
        LessonCompletion.objects.bulk_create(completions, batch_size=5000)
        XPAward.objects.bulk_create(awards, batch_size=5000)
        LearnerStats.objects.bulk_create(stats, batch_size=5000)
        bodies = [
            "Why is `d_model` a multiple of the head count?",
            "Great explanation, **thanks**!",
            "See [the paper](https://arxiv.org/abs/1706.03762) for the details.",
            "I think the table has a typo in the second row.",
        ]
        comments = [
            Comment(lesson=rng.choice(lessons), author=rng.choice(made), body=body,
                    body_html=render_markdown(body, profile="comment"))
            for body in (rng.choice(bodies) for _ in range(max(learners // 2, 10)))
        ]  # fmt: skip
        Comment.objects.bulk_create(comments, batch_size=5000)

    # The measured lesson's discussion: 10 threads of 3 replies, as in the issue.
    Comment.objects.filter(lesson=lesson).delete()
    authors = list(User.objects.filter(email__startswith="bench-stack-learner-")[:40])
    for thread in range(10):
        body = f"Thread {thread}: how does *this* scale?"
        top = Comment.objects.create(
            lesson=lesson, author=authors[thread % len(authors)], body=body,
            body_html=render_markdown(body, profile="comment"),
        )  # fmt: skip
        for reply in range(3):
            body = f"Reply {reply}: linearly, see `n_embd`."
            Comment.objects.create(
                lesson=lesson, author=authors[(thread + reply + 1) % len(authors)], parent=top,
                reply_to=top, body=body, body_html=render_markdown(body, profile="comment"),
            )  # fmt: skip

    learner = User.objects.filter(email=EMAIL).first()
    if learner is None:
        learner = User.objects.create_user(EMAIL, PASSWORD, display_name="Bench Learner")
        events = [
            {
                "id": str(uuid.uuid4()),
                "type": "lesson_completed",
                "lesson": item.slug,
                "occurred_at": (now - timedelta(days=7 - i * 8 // 40)).isoformat(),
            }
            for i, item in enumerate(lessons[:40])
        ]
        services.sync_progress(user=learner, device_id="bench-phone", events=events)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    return {"lessons": [item.slug for item in lessons], "learners": learners}


def session_token_for(user, *, engine: str = "django.contrib.sessions.backends.cached_db") -> str:
    """An app session for `user`, made as allauth makes one at sign-in (without paying for a
    password hash per learner, nor going through the login rate limit from one address)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    session = import_module(engine).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "accounts.backends.AuthenticationBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{user.pk}.{session.session_key}"  # as accounts.session_tokens names it


def sync_learners(count: int) -> list[str]:
    """Tokens of `count` new learners, each about to sync for the first time."""
    from accounts.models import User

    run = uuid.uuid4().hex[:8]
    users = User.objects.bulk_create(
        User(email=f"bench-stack-sync-{run}-{n}@example.com") for n in range(count)
    )
    return [session_token_for(user) for user in users]


def sync_body(lessons: list[str]) -> bytes:
    now = time.time()
    events = [
        {
            "id": str(uuid.uuid4()),
            "type": "lesson_completed",
            "lesson": slug,
            "occurred_at": time.strftime(
                "%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - 86400 * 10 + index * 3600)
            ),
        }
        for index, slug in enumerate(lessons)
    ]
    return json.dumps({"device_id": "bench-laptop", "events": events}).encode()
