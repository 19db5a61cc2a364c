"""RabbitMQ as the broker, with a real worker: quorum queues, a countdown kept in the broker, a
task run once, and the outbox through an outage.

Runs when BROKER_URL is an amqp:// URL (CI runs the integration tests so, on a vhost of its
own: `.ci/run`); on Redis these are skipped, the other integration tests covering the same
there. A worker killed mid-task is exercises/tests/test_integration.py, on either broker.
"""

import re
import time

import pytest
from amqp.exceptions import PreconditionFailed

from learning_platform import outbox
from learning_platform.broker import is_rabbitmq
from learning_platform.celery import app
from learning_platform.models import UnsentTask
from learning_platform.tests.test_outbox import _reply_with_a_follower, _run_at_once
from notifications.models import Notification

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def rabbit_worker(request, settings):
    if not is_rabbitmq(settings.BROKER_URL):
        pytest.skip("RabbitMQ only: run with BROKER_URL=amqp://... (CI does)")
    return request.getfixturevalue("live_worker")


def _queue_type(name: str) -> str:
    """The queue's type, read from the broker: declaring it as another type is refused with
    the type it has (a client cannot read a queue's arguments otherwise)."""
    with app.connection_for_write() as connection:
        channel = connection.channel()
        channel.queue_declare(name, passive=True)  # it exists
        with pytest.raises(PreconditionFailed) as refused:
            channel.queue_declare(
                name, durable=True, auto_delete=False, arguments={"x-queue-type": "stream"}
            )
    found = re.search(r"current is '(\w+)'", str(refused.value))
    assert found, refused.value
    return found.group(1)


def _delayed_in_the_broker(worker) -> int:
    """Messages in Celery's delay queues (28 levels, a power of two seconds each)."""
    return sum(worker.waiting(f"celery_delayed_{level}") for level in range(28))


def test_readyz_reaches_rabbitmq(rabbit_worker, client):
    assert client.get("/readyz").json()["checks"]["broker"] == "ok"


def test_the_task_queue_is_a_quorum_queue_beside_the_delay_queues(rabbit_worker):
    assert _queue_type(rabbit_worker.queue) == "quorum"
    assert "Global QoS is disabled" in rabbit_worker.log()  # quorum queues refuse it
    # Celery's native delayed delivery: 28 levels of delay queues the worker declared.
    with app.connection_for_write() as connection:
        for level in (0, 27):
            connection.channel().queue_declare(f"celery_delayed_{level}", passive=True)


def test_a_task_published_through_the_outbox_runs_once(rabbit_worker):
    _, follower = _reply_with_a_follower(_run_at_once)

    rabbit_worker.wait_for(lambda: not UnsentTask.objects.exists())
    log = rabbit_worker.log()
    assert Notification.objects.filter(recipient=follower).count() == 1
    assert len(re.findall(r"Task community\.notify_about_comment\[[^\]]+\] received", log)) == 1
    assert len(re.findall(r"Task community\.notify_about_comment\[[^\]]+\] succeeded", log)) == 1


def test_a_countdown_waits_in_the_broker_not_in_a_worker(rabbit_worker):
    from accounts.tasks import send_email

    published = time.monotonic()
    result = send_email.apply_async(
        kwargs={"subject": "Later", "body": "Body", "to": ["later@example.com"]}, countdown=3
    )

    # On Redis the worker would take it at once and hold it, unacknowledged, until due.
    rabbit_worker.wait_for(lambda: _delayed_in_the_broker(rabbit_worker) == 1, timeout=2)
    assert result.id not in rabbit_worker.log()
    rabbit_worker.wait_for(lambda: rabbit_worker.sent_mail())
    assert time.monotonic() - published >= 3
    assert len(rabbit_worker.sent_mail()) == 1


def test_with_the_broker_down_a_request_answers_and_the_outbox_relays_later(
    rabbit_worker, unreachable_broker
):
    _, follower = _reply_with_a_follower(_run_at_once)  # asserts 201

    kept = UnsentTask.objects.get(task="community.notify_about_comment")
    assert "Connection refused" in kept.last_error
    assert not Notification.objects.filter(recipient=follower).exists()

    unreachable_broker.up()
    assert outbox.send_unsent_tasks() >= 1
    rabbit_worker.wait_for(lambda: not UnsentTask.objects.exists())
    assert Notification.objects.filter(recipient=follower).count() == 1
