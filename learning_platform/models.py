from django.db import models

from learning_platform import clock


class UnsentTask(models.Model):
    """A Celery task not yet done: the outbox (learning_platform/outbox.py).

    Written in the transaction of the change that causes the task, so the change and its task
    commit together or not at all. Published after commit; deleted by the worker once the task
    has run (or failed for good). A row still here at `due_at` is published again by the
    periodic sweep (`learning_platform.send_unsent_tasks`): a process that died before
    publishing, a broker that was down or lost its queues (FLUSHDB), a task that failed.
    """

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list, blank=True)
    kwargs = models.JSONField(default=dict, blank=True)
    options = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=clock.now, editable=False)
    due_at = models.DateTimeField(default=clock.now, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True)
    # The request that caused the task (X-Request-ID), carried into its message and logs.
    request_id = models.CharField(max_length=128, blank=True)

    class Meta:
        ordering = ("id",)

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"


class LostCacheWrite(models.Model):
    """A cache write (a set or a delete) that did not reach Redis, so Redis may still hold an
    older value under `key` (as stored: prefixed and versioned). Every process that saw Redis
    fail deletes these keys there before using it again; the periodic
    `learning_platform.settle_cache` deletes them and then the rows
    (learning_platform/lost_writes.py). Not unique: a process records a key again after each
    failure it sees, and an insert never waits for another transaction's."""

    key = models.CharField(max_length=500)
    noted_at = models.DateTimeField(default=clock.now)

    class Meta:
        ordering = ("id",)

    def __str__(self) -> str:
        return self.key
