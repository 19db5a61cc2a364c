from django.db import models


class UnsentTask(models.Model):
    """A Celery task that could not be published (the broker was unreachable), kept until the
    periodic sweep (`learning_platform.send_unsent_tasks`) publishes it.

    Written only when a publish fails, so the normal path costs no query; the transaction
    that caused the task has committed by then (tasks are published after commit).
    """

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list, blank=True)
    kwargs = models.JSONField(default=dict, blank=True)
    options = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ("id",)

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"
