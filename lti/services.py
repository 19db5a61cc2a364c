"""The LTI tool's writes: accept a launch, sign its learner in, remember where a lesson's
score goes, and send each score once per graded attempt."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from accounts.models import User
from exercises import events as exercise_events
from exercises import selectors as exercise_selectors
from learning_platform import clock
from lessons import selectors as lesson_selectors
from lti import lti13
from lti.models import GradeLink, LtiAccount, ScorePost, UsedNonce

logger = logging.getLogger(__name__)

# The address an LTI account holds: the platform's learners need none, and `.invalid` (RFC
# 2606) can never reach anyone nor match an address a learner signs up with.
LTI_EMAIL_DOMAIN = "lti.invalid"


# The nonces of the tool's own signed links, beside the platforms' (no issuer is a bare word).
CONTINUE_ISSUER = "lti:continue"


class PlatformUnavailable(Exception):
    """The platform did not take a score for a reason that may pass: the task retries."""


@dataclass(frozen=True)
class LaunchTarget:
    path: str
    lesson_id: int | None


def accept_launch(*, launch: lti13.Launch) -> None:
    """The checks the library leaves to its user: the nonce is single use (a replayed
    id_token is refused) and, with several audiences, `azp` must be this tool."""
    if len(launch.audiences) > 1 and launch.authorized_party != launch.client_id:
        raise lti13.LaunchRefused("bad_audience", "The id_token's azp is not this tool.")
    if launch.authorized_party and launch.authorized_party != launch.client_id:
        raise lti13.LaunchRefused("bad_audience", "The id_token's azp is not this tool.")
    if not launch.subject:
        raise lti13.LaunchRefused("anonymous_launch", "The launch names no user.", 400)
    try:
        with transaction.atomic():
            UsedNonce.objects.create(issuer=launch.issuer, nonce=launch.nonce, used_at=clock.now())
    except IntegrityError:
        raise lti13.LaunchRefused("replayed_nonce", "This launch was used already.") from None


def account_for_launch(*, launch: lti13.Launch) -> User:
    """The learner's account for this platform user (issuer + subject), made on their first
    launch. Never matched to another account by e-mail: platforms' addresses are unverified
    here, and trusting one would hand an existing account to whoever the platform names."""
    account = (
        LtiAccount.objects.select_related("user")
        .filter(issuer=launch.issuer, subject=launch.subject)
        .first()
    )
    if account is not None:
        return account.user
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(
                email=f"lti-{uuid.uuid4().hex}@{LTI_EMAIL_DOMAIN}",
                password=None,
                email_notifications=False,
            )
            LtiAccount.objects.create(issuer=launch.issuer, subject=launch.subject, user=user)
    except IntegrityError:
        # Two launches of a new user at once: the other one made the account.
        return (
            LtiAccount.objects.select_related("user")
            .get(issuer=launch.issuer, subject=launch.subject)
            .user
        )
    return user


def use_continue_token(*, user_id: int, once: str) -> User:
    """The learner a launch's signed link signs in, the first time it is used."""
    try:
        with transaction.atomic():
            UsedNonce.objects.create(issuer=CONTINUE_ISSUER, nonce=once, used_at=clock.now())
    except IntegrityError:
        raise lti13.LaunchRefused(
            "link_used", "This link was used already: open the activity again.", 400
        ) from None
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise lti13.LaunchRefused("account_closed", "This account is closed.", 403)
    return user


def launch_target(*, launch: lti13.Launch) -> LaunchTarget:
    """Where a resource link opens: the lesson or quest its custom parameters name."""
    lesson_slug = launch.custom.get("lesson", "")
    quest_slug = launch.custom.get("quest", "")
    if lesson_slug:
        lesson = lesson_selectors.published_lesson(slug=lesson_slug)
        if lesson is not None:
            return LaunchTarget(path=f"/lessons/{lesson_slug}", lesson_id=lesson["id"])
    elif quest_slug and lesson_selectors.quest_exists(slug=quest_slug):
        return LaunchTarget(path=f"/quests/{quest_slug}", lesson_id=None)
    raise lti13.LaunchRefused(
        "unknown_content", "This link names no lesson or quest of this course.", 404
    )


def link_grades(*, user: User, launch: lti13.Launch, lesson_id: int) -> GradeLink | None:
    """Remember that this lesson's scores go to the launch's line item, when the platform
    granted the score scope for one."""
    if not launch.lineitem_url or lti13.SCORE_SCOPE not in launch.ags_scopes:
        return None
    link, _ = GradeLink.objects.update_or_create(
        user=user,
        lesson_id=lesson_id,
        lineitem_url=launch.lineitem_url,
        defaults={
            "registration_id": launch.registration_id,
            "scopes": " ".join(launch.ags_scopes),
            "platform_user_id": launch.subject,
        },
    )
    return link


def score_check_answer(event: exercise_events.CheckAnswered) -> None:
    """A check passed in a lesson launched from a platform: queue the lesson's new score
    (its share of checks passed) for each line item it was launched from. One query for a
    learner who never came through LTI."""
    if not event.correct or event.passed_before:
        return
    links = list(GradeLink.objects.filter(user_id=event.user_id, lesson_id=event.lesson_id))
    if not links:
        return
    standings = exercise_selectors.lesson_check_standings(
        user_id=event.user_id, lesson_id=event.lesson_id
    )
    passed = sum(1 for standing in standings if standing["passed"])
    for link in links:
        score, created = ScorePost.objects.get_or_create(
            grade_link=link,
            checks_passed=passed,
            defaults={"checks_total": len(standings), "timestamp": event.answered_at},
        )
        if created:
            # lti.tasks imports the services: the task module is loaded when first used.
            from lti import tasks

            # celery-types types a shared_task as Celery's Task; the app's is a DjangoTask.
            tasks.send_score.delay_on_commit(score.pk)  # type: ignore[attr-defined]


def send_score(*, score_id: int) -> bool:
    """Send one stored score to its platform unless it was sent; the same score and
    timestamp each time, so a platform that got it before keeps one. Returns whether it was
    sent now. Raises PlatformUnavailable when it may go through later."""
    score = ScorePost.objects.select_related("grade_link").filter(pk=score_id).first()
    if score is None or score.sent_at is not None:
        return False
    link = score.grade_link
    ScorePost.objects.filter(pk=score.pk).update(attempts=score.attempts + 1)
    to_send = lti13.ScoreToSend(
        registration_id=link.registration_id,
        lineitem_url=link.lineitem_url,
        scopes=tuple(link.scopes.split()),
        platform_user_id=link.platform_user_id,
        score_given=round(score.checks_passed / max(score.checks_total, 1), 4),
        score_maximum=1.0,
        activity_progress="Completed"
        if score.checks_passed >= score.checks_total
        else "InProgress",
        timestamp=score.timestamp.isoformat(),
    )
    try:
        lti13.send_score(to_send)
    except lti13.ScoreNotSent as error:
        ScorePost.objects.filter(pk=score.pk).update(last_error=str(error)[:2000])
        if error.permanent:
            logger.warning("lti score %s refused by the platform: %s", score.pk, error)
            return False
        raise PlatformUnavailable(str(error)) from error
    ScorePost.objects.filter(pk=score.pk).update(sent_at=clock.now(), last_error="")
    return True
