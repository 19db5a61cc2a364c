import factory

from accounts.tests.factories import UserFactory
from community.models import Comment, IssueReport, LessonSubscription
from learning_platform.markdown import render_markdown
from lessons.tests.factories import LessonFactory


class CommentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Comment

    lesson = factory.SubFactory(LessonFactory)
    author = factory.SubFactory(UserFactory)
    body = factory.Sequence(lambda n: f"Comment number {n}.")
    # As the services store it.
    body_html = factory.LazyAttribute(
        lambda comment: render_markdown(comment.body, profile="comment")
    )


class ReplyFactory(CommentFactory):
    parent = factory.SubFactory(CommentFactory)
    lesson = factory.SelfAttribute("parent.lesson")
    reply_to = factory.SelfAttribute("parent")


class LessonSubscriptionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = LessonSubscription

    user = factory.SubFactory(UserFactory)
    lesson = factory.SubFactory(LessonFactory)
    subscribed = True


class IssueReportFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = IssueReport

    lesson = factory.SubFactory(LessonFactory)
    reporter = factory.SubFactory(UserFactory)
    kind = IssueReport.Kind.TYPO
    message = "There is a typo in the second paragraph."
