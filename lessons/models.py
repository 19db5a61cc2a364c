from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from accounts.models import Requester
from learning_platform import clock
from learning_platform.slugs import slug_validator
from lessons.blocks import block_errors, link_url_error


class Quest(models.Model):
    """A course: an ordered series of lessons."""

    slug = models.SlugField(max_length=80, unique=True, validators=[slug_validator])
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(excluded_fields=["updated_at"])

    class Meta:
        ordering = ("title", "id")

    def __str__(self) -> str:
        return self.title


class Unit(models.Model):
    """A section of a quest: a heading over a run of its lessons, in the quest's order."""

    quest = models.ForeignKey(Quest, on_delete=models.CASCADE, related_name="units")
    title = models.CharField(max_length=200)
    position = models.PositiveIntegerField(default=0, help_text="Order within the quest.")
    history = HistoricalRecords()

    class Meta:
        ordering = ("quest", "position", "id")
        constraints = [
            # The curriculum files name a lesson's unit by its title.
            models.UniqueConstraint(fields=["quest", "title"], name="lessons_unit_title_per_quest"),
        ]

    def __str__(self) -> str:
        return self.title


class Tag(models.Model):
    slug = models.SlugField(max_length=50, unique=True, validators=[slug_validator])

    class Meta:
        ordering = ("slug",)

    def __str__(self) -> str:
        return self.slug


def sees_drafts(user: Requester | None) -> bool:
    """Staff see unpublished lessons (and what hangs off them); everyone else does not."""
    return user is not None and user.is_authenticated and user.is_staff


def published_q(lesson: str = "") -> Q:
    """Published, or scheduled for a time that has come (before the beat task flips it), as a
    filter on lessons or, with `lesson` ("check_block__lesson"), on rows related to one."""
    at = f"{lesson}__" if lesson else ""
    return Q(**{f"{at}published": True}) | Q(**{f"{at}publish_at__lte": clock.now()})


class LessonQuerySet(models.QuerySet["Lesson"]):
    def live(self) -> LessonQuerySet:
        """Every lesson but the drafts of live lessons (which stand in for no lesson of their
        own): what the editors' lists, counts and files hold."""
        return self.filter(draft_of__isnull=True)

    def published(self) -> LessonQuerySet:
        """Published, or scheduled for a time that has come (before the beat task flips it)."""
        return self.filter(published_q())

    def visible_to(self, user: Requester | None, *, live_drafts: bool = False) -> LessonQuerySet:
        """What `user` reads: staff every lesson, but drafts of live lessons only when asked
        (a lesson's own page, to preview it; never in a list, beside the lesson it rewrites)."""
        if not sees_drafts(user):
            return self.published()
        return self if live_drafts else self.live()


class Lesson(models.Model):
    quest = models.ForeignKey(Quest, on_delete=models.PROTECT, related_name="lessons")
    slug = models.SlugField(max_length=100, unique=True, validators=[slug_validator])
    title = models.CharField(max_length=200)
    summary = models.TextField(blank=True)
    estimated_minutes = models.PositiveSmallIntegerField(
        default=10, validators=[MinValueValidator(1), MaxValueValidator(600)]
    )
    xp = models.PositiveIntegerField("XP value", default=20, validators=[MaxValueValidator(10_000)])
    tags = models.ManyToManyField(Tag, blank=True, related_name="lessons")
    # SET_NULL: deleting a unit (a heading) must neither delete its lessons nor be refused
    # because of them; they stay in the quest, in their places, outside any unit.
    unit = models.ForeignKey(
        Unit, on_delete=models.SET_NULL, null=True, blank=True, related_name="lessons"
    )
    position = models.PositiveIntegerField(
        default=0, help_text="Order within the quest; lower comes first."
    )
    published = models.BooleanField(default=False)
    publish_at = models.DateTimeField(
        "publish at",
        null=True,
        blank=True,
        help_text="Learners see the lesson from this time on, no editor needed. "
        "Leave empty to publish by hand. Publishing the lesson, by hand or at this time, "
        "clears it: unpublishing leaves nothing that would publish it again.",
    )
    created_at = models.DateTimeField(default=clock.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)
    # Every save of the lesson or its blocks adds one. An editor's save names the version it
    # started from, and is refused when another save came in between (optimistic locking).
    version = models.PositiveIntegerField(default=1, editable=False)
    # A draft of a live lesson (lessons.live_drafts): a lesson row of its own, edited like any
    # other, never shown to learners, copied onto `draft_of` when published. One per lesson.
    draft_of = models.OneToOneField(
        "self",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        editable=False,
        related_name="draft",
    )
    # The live lesson's version the draft was made from: publishing over a later one is refused.
    draft_base_version = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # When the beat task publishes the draft (publish_at is the live lesson's own schedule).
    draft_publish_at = models.DateTimeField(
        "publish the draft at", null=True, blank=True, editable=False
    )
    # Tags are part of each version: a revert puts them back too. A draft's bookkeeping is not.
    history = HistoricalRecords(
        excluded_fields=[
            "updated_at",
            "created_at",
            "draft_of",
            "draft_base_version",
            "draft_publish_at",
        ],
        m2m_fields=[tags],
    )

    objects = LessonQuerySet.as_manager()

    class Meta:
        ordering = ("quest", "position", "id")
        indexes = [models.Index(fields=["quest", "published", "position"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(estimated_minutes__gte=1), name="lessons_lesson_minutes_positive"
            ),
            # "Publish at" is a schedule for a lesson not yet published. A published lesson
            # keeping one was public again as soon as it was unpublished, and the beat task
            # published it again (issue 41): publishing consumes the schedule.
            models.CheckConstraint(
                condition=Q(published=False) | Q(publish_at__isnull=True),
                name="lessons_lesson_published_has_no_schedule",
                violation_error_message='A published lesson has no "publish at".',
            ),
            # Learners never read a draft: every learner-facing read asks for published (or
            # due) lessons, and a draft can be neither. Only drafts have a draft's schedule.
            models.CheckConstraint(
                condition=Q(draft_of__isnull=True, draft_publish_at__isnull=True)
                | Q(draft_of__isnull=False, published=False, publish_at__isnull=True),
                name="lessons_lesson_draft_never_published",
                violation_error_message="A draft of a live lesson is published by publishing it.",
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def clean(self) -> None:
        super().clean()
        if self.draft_of_id is not None and (self.published or self.publish_at is not None):
            raise ValidationError(
                {"published": "This is a draft of a live lesson: publish it with Publish draft."}
            )
        if self.unit is not None and self.unit.quest_id != self.quest_id:
            raise ValidationError({"unit": "Pick a unit of the lesson's own quest."})
        # Ticking "published" (form or change list) publishes now: the schedule is done with.
        if self.published:
            self.publish_at = None

    @property
    def is_published(self) -> bool:
        """What learners get: published, or scheduled for a time that has come (the beat task
        then publishes it). The one rule; `LessonQuerySet.published()` is its query."""
        return self.published or (self.publish_at is not None and self.publish_at <= clock.now())

    @property
    def is_draft_of_live(self) -> bool:
        return self.draft_of_id is not None


class Block(models.Model):
    """One ordered piece of a lesson's body. Which fields matter depends on `kind`."""

    class Kind(models.TextChoices):
        PROSE = "prose", "Prose (Markdown)"
        TABLE = "table", "Table"
        CODE = "code", "Code"
        CALLOUT = "callout", "Callout"
        CHECK = "check", "Check (a question)"

    class CalloutStyle(models.TextChoices):
        NOTE = "note", "Note"
        TIP = "tip", "Tip"
        WARNING = "warning", "Warning"

    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="blocks")
    position = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # prose and callout
    markdown = models.TextField(blank=True)
    html = models.TextField(
        blank=True,
        editable=False,
        help_text="Sanitized HTML rendered from `markdown` when the block is saved.",
    )
    style = models.CharField(
        max_length=10, choices=CalloutStyle.choices, blank=True, help_text="Callouts only."
    )
    # table
    caption = models.CharField(max_length=300, blank=True)
    columns = models.JSONField(default=list, blank=True, help_text='Tables: ["Model", "d_model"]')
    rows = models.JSONField(
        default=list, blank=True, help_text='Tables: [["GPT-2", "768"], ["BERT-base", "768"]]'
    )
    # code
    title = models.CharField(max_length=200, blank=True, help_text="Code blocks: a title.")
    language = models.CharField(max_length=30, blank=True)
    source = models.TextField(blank=True)
    # check: its prompt is `markdown`; the rest (key, type, answer, options...) is lessons.checks'
    spec = models.JSONField(default=dict, blank=True, help_text="Checks: the question's spec.")
    history = HistoricalRecords()

    class Meta:
        ordering = ("lesson", "position", "id")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["prose", "table", "code", "callout", "check"]),
                name="lessons_block_kind_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.position}"

    def clean(self) -> None:
        errors = block_errors(
            self.kind,
            {
                "markdown": self.markdown,
                "style": self.style,
                "columns": self.columns,
                "rows": self.rows,
                "source": self.source,
                "language": self.language,
                "spec": self.spec,
            },
        )
        if errors:
            raise ValidationError(errors)


class Link(models.Model):
    """An external link ("further reading") at the end of a lesson."""

    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="links")
    position = models.PositiveIntegerField(default=0)
    title = models.CharField(max_length=200)
    url = models.URLField(max_length=500)
    history = HistoricalRecords()

    class Meta:
        ordering = ("lesson", "position", "id")

    def __str__(self) -> str:
        return self.title

    def clean(self) -> None:
        error = link_url_error(self.url)
        if error:
            raise ValidationError({"url": error})


class EditorPresence(models.Model):
    """An editor having a lesson's change page open: when the page last said so (on opening,
    then every PRESENCE_HEARTBEAT_SECONDS). One row per editor and lesson, overwritten."""

    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="presences")
    editor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lesson_presences"
    )
    last_seen = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["lesson", "editor"], name="lessons_editorpresence_one_per_editor"
            ),
        ]
        indexes = [models.Index(fields=["lesson", "last_seen"])]

    def __str__(self) -> str:
        return f"{self.editor_id} on {self.lesson_id} at {self.last_seen:%H:%M:%S}"


class LessonOldSlug(models.Model):
    """A slug a lesson had before it was renamed: its old address answers with a redirect to
    the lesson. Recorded by the service that saves the lesson; unique, so one old address
    leads to one lesson, and dropped when a lesson takes the slug again."""

    old_slug = models.SlugField(max_length=100, unique=True)
    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="old_slugs")
    renamed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.old_slug} -> {self.lesson_id}"


class LessonImage(models.Model):
    """An image uploaded in the admin for lessons to show (`![alt](url)` in a block's Markdown).

    The file is what lessons.images made of the upload (checked, no wider than
    LESSON_IMAGE_MAX_WIDTH, without metadata), kept by the default storage (STORAGES): its URL
    is the storage's. Never replaced: a block's stored HTML keeps pointing at it."""

    file = models.FileField(upload_to="lessons/images/%Y/%m/", max_length=255)
    # Required: learners using a screen reader hear it, and it is the Markdown's `![...]`.
    alt_text = models.CharField(max_length=300)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="uploaded_lesson_images",
    )
    created_at = models.DateTimeField(default=clock.now, editable=False)

    class Meta:
        ordering = ("-created_at", "-id")
        constraints = [
            models.CheckConstraint(
                condition=~Q(alt_text=""), name="lessons_lessonimage_alt_text_required"
            ),
        ]

    def __str__(self) -> str:
        return self.alt_text

    def markdown(self) -> str:
        """What an editor pastes into a block to show the image."""
        alt = self.alt_text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
        return f"![{alt}]({self.file.url})"
