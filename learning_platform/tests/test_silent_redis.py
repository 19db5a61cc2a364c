"""A Redis that stops answering without refusing (connections accepted, nothing answered, as
behind a network dropping packets): each use of it waits at most its socket timeout, and
requests still answer. The cache and the broker go through a proxy the test freezes."""

import time

import pytest
from django.conf import settings
from django.test import Client, override_settings

from exercises.models import Submission, SubmissionStatus
from exercises.services.catalogue import load_reference_catalogue
from exercises.tests.conftest import GOOD_CSV
from exercises.tests.factories import ExerciseFactory
from learning_platform import outbox
from learning_platform.broker import is_rabbitmq
from learning_platform.models import UnsentTask
from learning_platform.tasks import send_unsent_tasks
from learning_platform.tests.brokers import Broker
from learning_platform.tests.redis_proxy import RedisProxy

pytestmark = pytest.mark.django_db

READINESS_TIMEOUT = 3  # seconds: deploy/k8s/web.yaml's readinessProbe.timeoutSeconds


@pytest.fixture
def proxy():
    if not settings.REDIS_URL:
        pytest.skip("needs REDIS_URL: the proxy stands in front of Redis")
    proxy = RedisProxy(settings.REDIS_URL)
    yield proxy
    proxy.close()


def test_a_signed_in_read_waits_for_one_cache_socket_timeout_at_most(proxy, user):
    default = settings.CACHES["default"]
    with override_settings(CACHES={"default": {**default, "LOCATION": proxy.url}}):
        client = Client()
        client.force_login(user)
        client.get("/api/v1/me/progress")
        proxy.freeze()
        started = time.monotonic()
        first = client.get("/api/v1/me/progress")
        second = client.get("/api/v1/me/progress")
        took = time.monotonic() - started
        proxy.thaw()

    assert first.status_code == second.status_code == 200
    assert took < 3 * default["OPTIONS"]["SOCKET_TIMEOUT"]  # one timeout, then the pause


@pytest.fixture
def silent_broker(proxy):
    """The Celery app publishing to Redis through the proxy, frozen."""
    if is_rabbitmq(settings.CELERY_BROKER_URL):
        pytest.skip("the broker under test is Redis")
    broker = Broker()
    broker.app.conf.task_always_eager = False
    broker.app.conf.broker_url = proxy.url
    broker._forget_connections()
    proxy.freeze()
    yield broker.app.conf.broker_transport_options["socket_timeout"]
    proxy.thaw()
    broker.up()


# Each publish gives up after one socket timeout, with no retry after it, under the readiness
# probe's timeout: a request held longer keeps its web worker from the probe, and with every
# worker held the balancer takes the node out.


def test_a_publish_to_a_silent_broker_gives_up_after_one_timeout_and_keeps_the_task(
    silent_broker, django_capture_on_commit_callbacks
):
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        outbox.publish_on_commit(send_unsent_tasks)
    took = time.monotonic() - started

    assert silent_broker < READINESS_TIMEOUT
    assert took < silent_broker + 1.5, took
    assert UnsentTask.objects.filter(task="learning_platform.send_unsent_tasks").exists()


def test_a_submission_to_a_silent_broker_answers_after_one_timeout_and_waits_queued(
    silent_broker, user, django_capture_on_commit_callbacks
):
    load_reference_catalogue()
    exercise = ExerciseFactory()
    client = Client()
    client.force_login(user)

    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            f"/api/v1/exercises/{exercise.id}/submissions/",
            {"format": "csv", "content": GOOD_CSV},
            content_type="application/json",
        )
    took = time.monotonic() - started

    assert answer.status_code == 202, answer.content
    assert silent_broker < READINESS_TIMEOUT
    assert took < silent_broker + 1.5, took
    assert Submission.objects.get(user=user).status == SubmissionStatus.QUEUED
