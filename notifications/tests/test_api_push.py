"""The Web Push API: the server's public key, and this browser's subscription."""

import base64

import pytest

from accounts.tests.factories import UserFactory
from notifications.models import PushSubscription
from notifications.views import PUSH_ENDPOINT_PATTERN

pytestmark = pytest.mark.django_db

VAPID_KEY = "jmqJmK-wxvYXP3UcYVM4JnH5NwIXpWv8hd2yrytrjOw"
URL = "/api/v1/me/push-subscription"
ENDPOINT = "https://push.example.com/v1/abc"


def _body(endpoint=ENDPOINT, p256dh="BPub", auth="secret"):
    return {"endpoint": endpoint, "expirationTime": None, "keys": {"p256dh": p256dh, "auth": auth}}


@pytest.fixture
def vapid(settings):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = VAPID_KEY


def test_the_public_key_is_null_when_the_server_sends_no_pushes(client, settings):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""

    response = client.get("/api/v1/push/key")

    assert response.status_code == 200
    assert response.json() == {"public_key": None}


def test_the_public_key_is_the_uncompressed_point_of_the_configured_key(client, vapid):
    key = client.get("/api/v1/push/key").json()["public_key"]

    point = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    assert len(point) == 65
    assert point[0] == 4


def test_subscribing_needs_a_signed_in_learner(client, vapid):
    response = client.put(URL, _body(), content_type="application/json")

    assert response.status_code in (401, 403)
    assert not PushSubscription.objects.exists()


def test_a_new_subscription_is_201_and_the_same_again_is_200_with_its_keys_updated(
    user_client, user, vapid
):
    first = user_client.put(URL, _body(), format="json")
    again = user_client.put(URL, _body(p256dh="BNew"), format="json")

    assert (first.status_code, again.status_code) == (201, 200)
    subscription = PushSubscription.objects.get()
    assert (subscription.user_id, subscription.p256dh) == (user.pk, "BNew")


def test_a_browser_signed_in_as_another_learner_moves_to_them(user_client, user, vapid):
    PushSubscription.objects.create(user=UserFactory(), endpoint=ENDPOINT, p256dh="B", auth="a")

    response = user_client.put(URL, _body(), format="json")

    assert response.status_code == 200
    assert PushSubscription.objects.get().user_id == user.pk


def test_an_endpoint_that_is_not_https_is_a_400_naming_the_field(user_client, vapid):
    response = user_client.put(URL, _body(endpoint="http://10.0.0.1/hook"), format="json")

    assert response.status_code == 400
    assert response.json()["type"] == "validation_error"
    assert "endpoint" in response.json()["errors"]


def test_a_subscription_without_keys_is_a_400_naming_the_field(user_client, vapid):
    response = user_client.put(URL, {"endpoint": ENDPOINT}, format="json")

    assert response.status_code == 400
    assert "keys" in response.json()["errors"]


def test_subscribing_where_the_server_sends_no_pushes_is_a_409(user_client, settings):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""

    response = user_client.put(URL, _body(), format="json")

    assert response.status_code == 409
    assert response.json()["type"] == "push_not_configured"


def test_turning_push_off_forgets_this_browser_only(user_client, user, vapid):
    user_client.put(URL, _body(), format="json")
    user_client.put(URL, _body(endpoint="https://push.example.com/v1/other"), format="json")

    response = user_client.delete(f"{URL}?endpoint={ENDPOINT}")

    assert response.status_code == 204
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        "https://push.example.com/v1/other"
    ]


def test_turning_push_off_cannot_touch_another_learners_browser(user_client, vapid):
    PushSubscription.objects.create(user=UserFactory(), endpoint=ENDPOINT, p256dh="B", auth="a")

    response = user_client.delete(f"{URL}?endpoint={ENDPOINT}")

    assert response.status_code == 204
    assert PushSubscription.objects.count() == 1


def test_the_data_copy_names_each_devices_push_service_by_host_only(user_client, vapid):
    user_client.put(URL, _body(), format="json")

    copy = user_client.get("/api/v1/me/data").json()

    [device] = copy["push_devices"]
    assert device["push_service"] == "push.example.com"
    assert ENDPOINT not in str(copy)


def test_deleting_the_account_forgets_its_devices(user, vapid):
    from accounts.events import AccountPurged
    from notifications import personal_data

    PushSubscription.objects.create(user=user, endpoint=ENDPOINT, p256dh="B", auth="a")

    personal_data.purge(AccountPurged(user_id=user.pk, former_names=()))

    assert not PushSubscription.objects.exists()


def test_turning_push_off_with_an_endpoint_never_saved_is_a_204(user_client, vapid):
    response = user_client.delete(f"{URL}?endpoint=not-a-url")

    assert response.status_code == 204


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/dV3:APA91b-x_y",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk~",
        "https://push.example.com:8443",
    ],
)
def test_the_endpoints_of_the_browsers_push_services_are_accepted(user_client, vapid, endpoint):
    response = user_client.put(URL, _body(endpoint=endpoint), format="json")

    assert response.status_code == 201


def test_an_endpoint_with_a_space_in_its_path_is_a_400(user_client, vapid):
    response = user_client.put(URL, _body(endpoint=f"{ENDPOINT}/a b"), format="json")

    assert response.status_code == 400
    assert "endpoint" in response.json()["errors"]


def test_the_schema_gives_the_endpoint_rule_and_the_409(client):
    schema = client.get("/api/schema/?format=json").json()
    put = schema["paths"]["/api/v1/me/push-subscription"]["put"]
    endpoint = schema["components"]["schemas"]["PushSubscriptionRequest"]["properties"]["endpoint"]

    assert "409" in put["responses"]
    assert endpoint["pattern"] == PUSH_ENDPOINT_PATTERN
