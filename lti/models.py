"""What the LTI tool keeps: who a platform's user is here, which nonces were used, where a
launched lesson's score goes, and each score as sent (the outbox of grade passback)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from learning_platform import clock


class LtiAccount(models.Model):
    """A platform's user, keyed by the platform's issuer and the user's subject there: a
    launch signs this account in. It is never matched to an existing account by e-mail."""

    issuer = models.CharField(max_length=255)
    subject = models.CharField(max_length=255)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lti_account"
    )
    created_at = models.DateTimeField(default=clock.now, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["issuer", "subject"], name="lti_account_issuer_sub")
        ]

    def __str__(self) -> str:
        return f"{self.issuer} {self.subject}"


class UsedNonce(models.Model):
    """A launch's nonce, stored once: the constraint refuses a replayed id_token."""

    issuer = models.CharField(max_length=255)
    nonce = models.CharField(max_length=255)
    used_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["issuer", "nonce"], name="lti_nonce_once")]

    def __str__(self) -> str:
        return f"{self.issuer} {self.nonce}"


class GradeLink(models.Model):
    """A learner launched a lesson from a platform's line item: the lesson's scores go there."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    lesson = models.ForeignKey("lessons.Lesson", on_delete=models.CASCADE, related_name="+")
    registration = models.ForeignKey(
        "lti_tool.LtiRegistration", on_delete=models.CASCADE, related_name="+"
    )
    lineitem_url = models.URLField(max_length=1000)
    # The scopes the platform granted at the launch (AGS claim), space separated.
    scopes = models.TextField()
    # The platform's id of the learner (the launch's `sub`): AGS names the learner by it.
    platform_user_id = models.CharField(max_length=255)
    created_at = models.DateTimeField(default=clock.now, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "lesson", "lineitem_url"], name="lti_grade_link_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} → {self.lineitem_url}"


class ScorePost(models.Model):
    """One score for a learner's line item: one per graded attempt (the number of the lesson's
    checks passed), so a retried or re-run task sends the same score and timestamp again."""

    grade_link = models.ForeignKey(GradeLink, on_delete=models.CASCADE, related_name="scores")
    checks_passed = models.PositiveIntegerField()
    checks_total = models.PositiveIntegerField()
    timestamp = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["grade_link", "checks_passed"], name="lti_score_once_per_attempt"
            )
        ]

    def __str__(self) -> str:
        return f"{self.checks_passed}/{self.checks_total} for {self.grade_link_id}"
