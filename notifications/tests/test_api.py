import pytest
from django.utils import timezone

from notifications.models import Notification
from notifications.tests.factories import NotificationFactory

pytestmark = pytest.mark.django_db


def test_notifications_list_is_newest_first_with_unread_count(user_client, user):
    older = NotificationFactory(recipient=user, read_at=timezone.now())
    newer = NotificationFactory(recipient=user)
    NotificationFactory()  # someone else's

    body = user_client.get("/api/v1/me/notifications/").json()

    assert [n["id"] for n in body["results"]] == [newer.id, older.id]
    assert body["unread_count"] == 1
    assert body["count"] == 2


def test_notifications_list_can_show_only_unread(user_client, user):
    NotificationFactory(recipient=user, read_at=timezone.now())
    unread = NotificationFactory(recipient=user)

    body = user_client.get("/api/v1/me/notifications/?unread=true").json()

    assert [n["id"] for n in body["results"]] == [unread.id]


def test_mark_one_notification_read(user_client, user):
    notification = NotificationFactory(recipient=user)

    response = user_client.post(f"/api/v1/me/notifications/{notification.id}/read")

    assert response.status_code == 200
    assert response.json()["is_read"] is True
    notification.refresh_from_db()
    assert notification.read_at is not None


def test_someone_elses_notification_is_404(user_client):
    theirs = NotificationFactory()

    response = user_client.post(f"/api/v1/me/notifications/{theirs.id}/read")

    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_read_all_marks_only_my_notifications(user_client, user):
    NotificationFactory.create_batch(2, recipient=user)
    theirs = NotificationFactory()

    response = user_client.post("/api/v1/me/notifications/read-all")

    assert response.json() == {"marked_read": 2, "unread_count": 0}
    assert not Notification.objects.filter(recipient=user, read_at__isnull=True).exists()
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_notifications_need_sign_in(api_client):
    assert api_client.get("/api/v1/me/notifications/").status_code in (401, 403)


def test_notification_list_runs_a_fixed_number_of_queries(
    user_client, user, django_assert_num_queries
):
    NotificationFactory.create_batch(15, recipient=user)

    # unread count, page count, page
    with django_assert_num_queries(3):
        user_client.get("/api/v1/me/notifications/")


def test_unsubscribe_get_confirms_and_changes_nothing(api_client, user):
    from notifications.services import make_unsubscribe_token

    token = make_unsubscribe_token(user_id=user.id)

    response = api_client.get(f"/api/v1/unsubscribe/{token}")

    assert response.json() == {"scope": "email", "lesson": None, "done": False}
    user.refresh_from_db()
    assert user.email_notifications is True


def test_one_click_unsubscribe_post_turns_emails_off_without_sign_in(api_client, user):
    from notifications.services import make_unsubscribe_token

    token = make_unsubscribe_token(user_id=user.id)

    response = api_client.post(
        f"/api/v1/unsubscribe/{token}",
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 200
    assert response.json()["done"] is True
    user.refresh_from_db()
    assert user.email_notifications is False


@pytest.mark.parametrize("token", ["garbage", "eyJ1IjoxfQ:1xXuSU:forged-signature"])
def test_forged_unsubscribe_token_is_404(api_client, token):
    assert api_client.post(f"/api/v1/unsubscribe/{token}").status_code == 404


def test_unsubscribe_page_for_browsers_is_html_with_a_button(api_client, user):
    from notifications.services import make_unsubscribe_token

    token = make_unsubscribe_token(user_id=user.id)

    response = api_client.get(f"/api/v1/unsubscribe/{token}", HTTP_ACCEPT="text/html")

    assert response["Content-Type"].startswith("text/html")
    assert b'<form method="post"' in response.content


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_unsubscribe_link_that_names_nothing_is_404_for_either_method(api_client, method):
    response = getattr(api_client, method)("/api/v1/unsubscribe/not-a-token")

    assert response.status_code == 404
    assert response.json()["type"] == "not_found"


@pytest.mark.parametrize(
    ("method", "valid"), [("get", True), ("post", True), ("get", False)]
)  # fmt: skip
def test_every_unsubscribe_page_links_back_to_the_app_and_its_settings(
    api_client, user, settings, method, valid
):
    from notifications.services import make_unsubscribe_token

    token = make_unsubscribe_token(user_id=user.id) if valid else "not-a-token"

    response = getattr(api_client, method)(f"/api/v1/unsubscribe/{token}", HTTP_ACCEPT="text/html")

    page = response.content.decode()
    assert f'<a href="{settings.FRONTEND_URL}/">Back to Learning Platform</a>' in page
    assert f'<a href="{settings.FRONTEND_URL}/settings">Notification settings</a>' in page
