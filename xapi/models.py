"""The learning records bound for the LRS: each statement once, by its id."""

from __future__ import annotations

from django.db import models

from learning_platform import clock


class Statement(models.Model):
    """An xAPI statement, stored when what it records happens and sent by a task. Its id is
    `uuid5(namespace, "<source>:<key>")`: the primary key stores it once here, and a replay
    is a duplicate the LRS drops."""

    id = models.UUIDField(primary_key=True)
    user = models.ForeignKey(
        "accounts.User", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    verb = models.CharField(max_length=40)
    body = models.JSONField()
    created_at = models.DateTimeField(default=clock.now, editable=False)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        indexes = [
            # The sender's queue: unsent statements, oldest first.
            models.Index(
                fields=["created_at"],
                condition=models.Q(sent_at__isnull=True),
                name="xapi_statement_unsent",
            )
        ]

    def __str__(self) -> str:
        return f"{self.verb} {self.id}"
