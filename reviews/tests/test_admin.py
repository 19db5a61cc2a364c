"""The reviews' admin pages: review logs exported in the CSV shape FSRS tools read, and each
fit of a quest's parameters with how it and the defaults predicted the held-out logs."""

import csv
import io
from datetime import UTC, datetime

import pytest
import time_machine
from django.test import Client

from accounts.tests.factories import UserFactory
from reviews.admin import CSV_COLUMNS
from reviews.models import ParameterFit, ReviewLog
from reviews.tests.conftest import DAY, answer, checks_of, review, right_answer, wrong_answer

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)


@pytest.fixture
def superuser_client() -> Client:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def test_review_logs_export_as_fsrs_csv(superuser_client, user_client, lesson):
    check = checks_of(lesson)[0]
    with time_machine.travel(T0, tick=False):
        answer(user_client, check, wrong_answer(check))
    with time_machine.travel(T0 + DAY, tick=False):
        review(user_client, check, right_answer(check), duration_ms=8200)
    logs = list(ReviewLog.objects.order_by("reviewed_at"))

    response = superuser_client.post(
        "/admin/reviews/reviewlog/",
        {"action": "export_csv", "_selected_action": [log.pk for log in logs]},
    )

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv"
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    card = logs[0].card_id
    assert rows == [
        list(CSV_COLUMNS),
        [str(card), str(int(T0.timestamp() * 1000)), "1", "0", "0"],
        [str(card), str(int((T0 + DAY).timestamp() * 1000)), "3", "2", "8200"],
    ]


def test_the_fits_list_shows_log_loss_and_rmse_of_fit_and_defaults(superuser_client, lesson):
    ParameterFit.objects.create(
        quest=lesson.quest,
        fitted_at=T0,
        parameters=[0.5] * 21,
        reviews=1500,
        train_items=900,
        test_items=230,
        log_loss=0.2016,
        rmse=0.0384,
        default_log_loss=0.2161,
        default_rmse=0.0617,
        adopted=True,
        seconds=0.4,
    )

    page = superuser_client.get("/admin/reviews/parameterfit/").content.decode()

    for figure in ("0.2016", "0.2161", "0.0384", "0.0617", "1500"):
        assert figure in page


@pytest.mark.parametrize("model", ["reviewcard", "reviewlog", "parameterfit"])
def test_review_rows_are_read_only_in_the_admin(superuser_client, model):
    assert superuser_client.get(f"/admin/reviews/{model}/add/").status_code == 403
