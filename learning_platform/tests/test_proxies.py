"""Behind a load balancer (NUM_PROXIES=1), each client is limited on its own address: the
balancer's address, shared by all, limits nobody (issue 25, item 3)."""

import pytest
from django.test import Client

from accounts.tests.factories import UserFactory
from learning_platform.proxies import client_address

pytestmark = pytest.mark.django_db

APP = "/_allauth/app/v1"
BALANCER = "10.0.0.1"


def _login(email: str, password: str, *, client_ip: str, forged: str = ""):
    chain = f"{forged}, {client_ip}" if forged else client_ip
    return Client(REMOTE_ADDR=BALANCER, HTTP_X_FORWARDED_FOR=chain).post(
        f"{APP}/auth/login",
        {"email": email, "password": password},
        content_type="application/json",
    )


@pytest.fixture
def behind_a_balancer(settings):
    settings.NUM_PROXIES = 1
    settings.ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/5m/key"}


def test_ten_failed_sign_ins_from_one_client_do_not_lock_out_another(behind_a_balancer):
    UserFactory(email="other@example.com", password="C0rrect-pass!")

    # The attacker rotates forged left-hand entries; the balancer's entry is what counts.
    failures = [
        _login(f"guess{n}@example.com", "wrong", client_ip="203.0.113.7", forged=f"198.51.100.{n}")
        for n in range(10)
    ]
    locked = _login("guess@example.com", "wrong", client_ip="203.0.113.7")
    other = _login("other@example.com", "C0rrect-pass!", client_ip="203.0.113.8")

    assert {r.status_code for r in failures} == {400}
    assert "too_many_login_attempts" not in str([r.json() for r in failures])
    assert locked.json()["errors"][0]["code"] == "too_many_login_attempts"
    assert other.status_code == 200, other.content


@pytest.mark.parametrize(
    ("forwarded_for", "proxies", "expected"),
    [
        (None, 1, BALANCER),
        ("203.0.113.7", 0, BALANCER),  # no proxy trusted: the header is the client's own
        ("203.0.113.7", 1, "203.0.113.7"),
        ("1.2.3.4, 203.0.113.7", 1, "203.0.113.7"),
        ("203.0.113.7, 10.0.0.9", 2, "203.0.113.7"),
        ("203.0.113.7", 2, "203.0.113.7"),  # fewer hops than proxies: the leftmost
        ("not-an-address", 1, BALANCER),
    ],
)
def test_the_client_address_is_the_one_the_outermost_trusted_proxy_saw(
    forwarded_for, proxies, expected
):
    assert (
        client_address(forwarded_for=forwarded_for, remote_addr=BALANCER, proxies=proxies)
        == expected
    )


def test_throttles_and_access_logs_read_the_same_client_address(settings):
    from django.test import RequestFactory

    from learning_platform.proxies import TrustedProxiesMiddleware

    settings.NUM_PROXIES = 1
    seen = {}

    def view(request):
        from rest_framework.throttling import SimpleRateThrottle

        seen["drf"] = SimpleRateThrottle.get_ident(None, request)
        from allauth.core.internal.httpkit import get_client_ip

        seen["allauth"] = get_client_ip(request)
        return None

    request = RequestFactory().get(
        "/", REMOTE_ADDR=BALANCER, HTTP_X_FORWARDED_FOR="9.9.9.9, 203.0.113.7"
    )
    TrustedProxiesMiddleware(view)(request)

    # gunicorn's access log (%(h)s) reads this environ entry after the response.
    assert request.META["REMOTE_ADDR"] == "203.0.113.7"
    assert seen == {"drf": "203.0.113.7", "allauth": "203.0.113.7"}
