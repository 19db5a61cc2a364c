import pytest
from django.test import Client

from accounts.tests.factories import UserFactory
from lessons.tests.factories import LessonFactory
from progress import services
from progress.models import Level, XPAward
from progress.tests import readings
from progress.tests.factories import LessonCompletionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client() -> Client:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def level_changelist_form(changes: dict[int, dict]) -> dict:
    levels = list(Level.objects.order_by("xp_required", "number"))
    form = {
        "form-TOTAL_FORMS": str(len(levels)),
        "form-INITIAL_FORMS": str(len(levels)),
        "form-MIN_NUM_FORMS": "0",
        "form-MAX_NUM_FORMS": "1000",
        "_save": "Save",
    }
    for i, level in enumerate(levels):
        fields = {
            "name": level.name,
            "xp_required": level.xp_required,
            **changes.get(level.number, {}),
        }
        form[f"form-{i}-id"] = str(level.pk)
        form[f"form-{i}-name"] = fields["name"]
        form[f"form-{i}-xp_required"] = str(fields["xp_required"])
    return form


def test_the_level_changelist_lists_the_curve(superuser_client):
    response = superuser_client.get("/admin/progress/level/")

    assert response.status_code == 200
    assert b"Token" in response.content


def test_editing_the_curve_in_the_changelist_relevels_learners(superuser_client):
    learner = UserFactory()
    services.award_xp(
        awards=[services.Award(user_id=learner.id, source_type="exercise", source_id=1, amount=150)]
    )
    assert readings.level_for_user(user_id=learner.id)["number"] == 1

    response = superuser_client.post(
        "/admin/progress/level/", level_changelist_form({1: {"xp_required": 160}})
    )

    assert response.status_code == 302
    assert Level.objects.get(number=1).xp_required == 160
    assert readings.level_for_user(user_id=learner.id)["number"] == 0


def test_the_xp_ledger_is_searchable_by_learner(superuser_client):
    learner = UserFactory(email="ada@example.com")
    services.award_xp(
        awards=[services.Award(user_id=learner.id, source_type="exercise", source_id=7, amount=50)]
    )
    services.award_xp(
        awards=[
            services.Award(user_id=UserFactory().id, source_type="exercise", source_id=8, amount=50)
        ]
    )

    response = superuser_client.get("/admin/progress/xpaward/", {"q": "ada@"})

    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == list(XPAward.objects.filter(user=learner))


def test_the_xp_ledger_is_read_only_in_the_admin(superuser_client):
    services.award_xp(
        awards=[
            services.Award(user_id=UserFactory().id, source_type="exercise", source_id=7, amount=50)
        ]
    )
    award = XPAward.objects.get()

    assert superuser_client.get("/admin/progress/xpaward/add/").status_code == 403
    assert superuser_client.post(f"/admin/progress/xpaward/{award.pk}/delete/").status_code == 403
    superuser_client.post(f"/admin/progress/xpaward/{award.pk}/change/", {"amount": "5000"})
    award.refresh_from_db()
    assert award.amount == 50


def test_the_completions_are_listed_read_only(superuser_client):
    completion = LessonCompletionFactory(lesson=LessonFactory(slug="attention"))

    listing = superuser_client.get("/admin/progress/lessoncompletion/", {"q": "attention"})

    assert listing.status_code == 200
    assert list(listing.context["cl"].result_list) == [completion]
    assert superuser_client.get("/admin/progress/lessoncompletion/add/").status_code == 403
