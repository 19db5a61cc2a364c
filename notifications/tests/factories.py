import factory

from accounts.tests.factories import UserFactory
from notifications.models import Notification


class NotificationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Notification

    recipient = factory.SubFactory(UserFactory)
    kind = "comment_reply"
    title = factory.Sequence(lambda n: f"Notification {n}")
    dedupe_key = factory.Sequence(lambda n: f"test:{n}")
