# A proxy model must subclass the concrete model itself (a string does not do): the one
# place insights imports lessons.models (pyproject.toml's lessons-models contract allows it).
from lessons.models import Quest


class QuestAnalytics(Quest):
    """A quest seen through its learners: the admin's "how each lesson is doing" pages.

    A proxy (no table) so the pages have an admin entry and a `view` permission of their own.
    """

    class Meta:
        proxy = True
        verbose_name = "quest analytics"
        verbose_name_plural = "how each lesson is doing"
