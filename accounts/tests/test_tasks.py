import pytest
from django.core import mail

from accounts import services
from accounts.tasks import send_email


def test_send_email_task_sends_through_the_configured_backend():
    send_email(subject="Hello", body="Body", to=["a@example.com"])

    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "Hello"
    assert mail.outbox[0].to == ["a@example.com"]


@pytest.mark.django_db
def test_queue_email_sends_only_after_the_transaction_commits(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.queue_email(subject="Later", body="Body", to=["b@example.com"])
        assert mail.outbox == []

    for callback in callbacks:
        callback()
    assert [m.subject for m in mail.outbox] == ["Later"]


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_queued_email_is_sent_by_a_real_worker(live_worker):
    services.queue_email(subject="From the worker", body="Body", to=["c@example.com"])

    live_worker.wait_for(live_worker.sent_mail)
    sent = live_worker.sent_mail()
    assert len(sent) == 1, live_worker.log()
    assert "Subject: From the worker" in sent[0]
