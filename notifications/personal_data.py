"""What notifications holds about a learner: their copy of it, and what goes when the account
is deleted. Subscribed in NotificationsConfig.ready()."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from django.db.models import Q

from accounts.events import AccountDataAsked, AccountPurged
from notifications.models import EmailDelivery, Notification, PushSubscription

DELETED_LEARNER = "A deleted learner"


def export(event: AccountDataAsked) -> dict[str, Any]:
    notifications = Notification.objects.filter(recipient_id=event.user_id).order_by(
        "created_at", "pk"
    )
    return {
        "notifications": [
            {
                "kind": row["kind"],
                "title": row["title"],
                "body": row["body"],
                "created_at": row["created_at"].isoformat(),
                "read_at": row["read_at"].isoformat() if row["read_at"] else None,
            }
            for row in notifications.values("kind", "title", "body", "created_at", "read_at")
        ],
        # The devices' push services, by host: the rest of an endpoint is a capability.
        "push_devices": [
            {
                "push_service": urlsplit(row["endpoint"]).netloc,
                "since": row["created_at"].isoformat(),
            }
            for row in PushSubscription.objects.filter(user_id=event.user_id)
            .order_by("created_at", "pk")
            .values("endpoint", "created_at")
        ],
    }


def purge(event: AccountPurged) -> None:
    Notification.objects.filter(recipient_id=event.user_id).delete()
    EmailDelivery.objects.filter(recipient_id=event.user_id).delete()
    PushSubscription.objects.filter(user_id=event.user_id).delete()
    # Other learners' notifications that quote the learner's name ("Ada replied").
    for name in event.former_names:
        quoting = Q(title__contains=name) | Q(body__contains=name) | Q(data__icontains=name)
        for notification in Notification.objects.filter(quoting).only("title", "body", "data"):
            notification.title = notification.title.replace(name, DELETED_LEARNER)
            notification.body = notification.body.replace(name, DELETED_LEARNER)
            notification.data = _without(name, notification.data)
            notification.save(update_fields=["title", "body", "data"])
        deliveries = Q(subject__contains=name) | Q(text_body__contains=name)
        for delivery in EmailDelivery.objects.filter(deliveries).only(
            "subject", "text_body", "html_body"
        ):
            delivery.subject = delivery.subject.replace(name, DELETED_LEARNER)
            delivery.text_body = delivery.text_body.replace(name, DELETED_LEARNER)
            delivery.html_body = delivery.html_body.replace(name, DELETED_LEARNER)
            delivery.save(update_fields=["subject", "text_body", "html_body"])


def _without(name: str, data: Any) -> Any:
    # Through the JSON text: the name may sit at any depth, and a string replaced as text
    # stays valid JSON since the replacement has nothing to escape.
    return json.loads(json.dumps(data).replace(json.dumps(name)[1:-1], DELETED_LEARNER))
