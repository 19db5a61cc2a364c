"""Input and output shapes of the community API. Serializers validate and present; never write."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from community.models import COMMENT_MAX_LENGTH, REPORT_MESSAGE_MAX_LENGTH, Comment, IssueReport
from learning_platform.api.fields import StrictCharField, StrictEmailField, StrictIntegerField
from learning_platform.markdown import render_markdown

DELETED_BODY = "[deleted]"

# --- Comments -------------------------------------------------------------------------------


class CommentInputSerializer(serializers.Serializer[Any]):
    body = StrictCharField(
        max_length=COMMENT_MAX_LENGTH, help_text="Markdown: emphasis, code, links, lists."
    )
    # The metaclass moves declared fields off the class: no clash with Field.parent.
    parent = StrictIntegerField(  # type: ignore[assignment]
        required=False,
        allow_null=True,
        min_value=1,
        help_text="Reply to this comment (of the same lesson). A reply to a reply joins the "
        "same thread.",
    )


class CommentEditSerializer(serializers.Serializer[Any]):
    body = StrictCharField(max_length=COMMENT_MAX_LENGTH)


class CommentAuthorSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField(source="public_name")


class ReplyToSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    author = serializers.CharField(source="author.public_name")


class CommentSerializer(serializers.Serializer[Comment]):
    """One comment or reply. A deleted comment keeps its place as "[deleted]" with no author."""

    id = serializers.IntegerField()
    lesson = serializers.CharField(source="lesson.slug")
    # The metaclass moves declared fields off the class: no clash with Field.parent.
    parent = serializers.IntegerField(source="parent_id", allow_null=True)  # type: ignore[assignment]
    reply_to = ReplyToSerializer(allow_null=True, help_text="The comment answered, if a reply.")
    author = serializers.SerializerMethodField()
    body = serializers.SerializerMethodField(help_text="Markdown source.")
    body_html = serializers.SerializerMethodField(help_text="Sanitized HTML from `body`.")
    is_deleted = serializers.BooleanField()
    is_edited = serializers.SerializerMethodField()
    is_author = serializers.SerializerMethodField(help_text="Whether the requester wrote it.")
    created_at = serializers.DateTimeField()
    edited_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(CommentAuthorSerializer(allow_null=True))
    def get_author(self, comment: Comment) -> dict[str, Any] | None:
        if comment.is_deleted:
            return None
        return CommentAuthorSerializer(comment.author).data

    def get_body(self, comment: Comment) -> str:
        return DELETED_BODY if comment.is_deleted else comment.body

    def get_body_html(self, comment: Comment) -> str:
        if comment.body_html:
            return comment.body_html  # rendered when posted or edited
        # "[deleted]" (memoised), or a row written around the services.
        return render_markdown(self.get_body(comment), profile="comment")

    def get_is_edited(self, comment: Comment) -> bool:
        return comment.edited_at is not None

    def get_is_author(self, comment: Comment) -> bool:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        return bool(user and user.is_authenticated and user.id == comment.author_id)


class ThreadSerializer(CommentSerializer):
    """A top-level comment with the start of its thread."""

    reply_count = serializers.IntegerField(help_text="Visible replies in the thread.")
    replies = serializers.SerializerMethodField(
        help_text="The first few replies, oldest first; all of them are at `replies_url`."
    )
    replies_url = serializers.SerializerMethodField()

    @extend_schema_field(CommentSerializer(many=True))
    def get_replies(self, comment: Comment) -> list[Any]:
        # Set on the threads comment_threads reads, by its Prefetch(to_attr=...).
        embedded = comment.embedded_replies  # type: ignore[attr-defined]
        replies = CommentSerializer(embedded, many=True, context=self.context)
        return list(replies.data)

    @extend_schema_field(OpenApiTypes.URI)
    def get_replies_url(self, comment: Comment) -> str:
        path = reverse("comment-replies", kwargs={"pk": comment.pk})
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path


# --- Follows --------------------------------------------------------------------------------


class SubscriptionSerializer(serializers.Serializer[Any]):
    lesson = serializers.CharField()
    following = serializers.BooleanField(
        help_text="Whether new comments on the lesson notify the learner."
    )
    explicit = serializers.BooleanField(
        allow_null=True,
        help_text="The learner's own choice for this lesson (true: follow, false: don't); "
        "null when the profile default (`reply_notifications`, for lessons one commented on) "
        "decides.",
    )
    commented = serializers.BooleanField(
        help_text="Whether the learner has a comment on the lesson (not deleted)."
    )
    follows_on_comment = serializers.BooleanField(
        help_text="Whether posting a comment here makes the learner follow the lesson: no "
        "choice of their own for it, and the profile's `reply_notifications` on."
    )


# --- Issue reports --------------------------------------------------------------------------


class ReportInputSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=IssueReport.Kind.choices)
    message = StrictCharField(max_length=REPORT_MESSAGE_MAX_LENGTH)
    block = StrictIntegerField(
        required=False, allow_null=True, min_value=1, help_text="Id of the block concerned."
    )
    contact_email = StrictEmailField(
        required=False,
        allow_blank=True,
        help_text="Signed out only: where to tell you it is resolved. Ignored when signed in.",
    )
    website = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=500,
        help_text="Leave empty. (A honeypot for bots: a filled-in report is silently dropped.)",
    )


class ReportSerializer(serializers.Serializer[IssueReport]):
    id = serializers.IntegerField(allow_null=True)
    lesson = serializers.CharField(source="lesson.slug")
    lesson_title = serializers.CharField(source="lesson.title")
    kind = serializers.ChoiceField(choices=IssueReport.Kind.choices)
    message = serializers.CharField()
    block = serializers.IntegerField(source="block_id", allow_null=True)
    status = serializers.ChoiceField(choices=IssueReport.Status.choices)
    created_at = serializers.DateTimeField(allow_null=True)
    resolved_at = serializers.DateTimeField(allow_null=True)
    answer = serializers.CharField(help_text='The editors\' answer to the reporter; "" when none.')
