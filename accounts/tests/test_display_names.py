"""Display names cannot impersonate another learner: look-alikes, case, invisible characters."""

import pytest
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def set_name(user: User, name: str):
    client = Client()
    client.force_login(user)
    return client.patch("/api/v1/me/", {"display_name": name}, content_type="application/json")


@pytest.mark.parametrize(
    "look_alike",
    [
        "Flush One",  # the same
        "flush one",  # another case
        "FLUSH ONE",
        "Flush \u041ene",  # Cyrillic capital O
        "F1ush 0ne",  # digits for letters
        "FIush One",  # capital I for small l
        "\uff26lush One",  # fullwidth F
        "Flush  One",  # two spaces
        " Flush One ",
    ],
    ids=repr,
)
def test_a_name_a_reader_cannot_tell_from_another_learners_is_refused(look_alike):
    UserFactory(display_name="Flush One")
    impostor = UserFactory(display_name="Before")

    response = set_name(impostor, look_alike)

    assert response.status_code == 400
    body = response.json()
    assert body["type"] == "validation_error"
    assert body["errors"]["display_name"] == [
        "This name is taken, or looks too much like another learner's name. Please pick another."
    ]
    assert body["detail"].startswith("display_name: This name is taken")
    impostor.refresh_from_db()
    assert impostor.display_name == "Before"


@pytest.mark.parametrize(
    ("character", "label"),
    [
        ("\U000e0041", "U+E0041 TAG LATIN CAPITAL LETTER A"),
        ("\u3164", "U+3164 HANGUL FILLER"),
        ("\u00a0", "U+00A0 NO-BREAK SPACE"),
        ("\u3000", "U+3000 IDEOGRAPHIC SPACE"),
        ("\u2800", "U+2800 BRAILLE PATTERN BLANK"),
        ("\u034f", "U+034F COMBINING GRAPHEME JOINER"),
        ("\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
        ("\ue000", "U+E000 unnamed character"),  # private use
        ("\u0378", "U+0378 unnamed character"),  # unassigned
    ],
)
def test_an_invisible_or_format_character_is_refused_by_name(character, label):
    UserFactory(display_name="Flush One")
    impostor = UserFactory(display_name="Before")

    response = set_name(impostor, f"Flush{character}One")

    assert response.status_code == 400
    message = response.json()["errors"]["display_name"][0]
    assert f"({label})" in message
    assert message.startswith("A name cannot contain invisible or formatting characters")


def test_a_name_is_stored_nfkc_normalised_and_keeping_ones_own_name_is_fine():
    user = UserFactory(display_name="Before")

    assert set_name(user, "\uff21da  Lovelace\u2163").json()["display_name"] == "Ada LovelaceIV"
    assert set_name(user, "ada lovelaceiv").status_code == 200  # one's own name, recased
    user.refresh_from_db()
    assert (user.display_name, user.display_name_key) == ("ada lovelaceiv", "ada lovelaceiv")


@pytest.mark.parametrize("name", ["Learner 482913", "learner 1OO0O1", "Learner 7"])
def test_a_name_that_looks_like_a_learners_handle_is_refused(name):
    user = UserFactory(display_name="Before")

    response = set_name(user, name)

    assert response.status_code == 400
    assert "handles of learners" in response.json()["errors"]["display_name"][0]


def test_learners_without_a_display_name_do_not_collide():
    first, second = UserFactory(display_name="A"), UserFactory(display_name="B")

    assert set_name(first, "").status_code == 200
    assert set_name(second, "").status_code == 200


def test_the_database_refuses_a_second_learner_with_the_same_name_skeleton():
    UserFactory(display_name="Flush One")

    with pytest.raises(IntegrityError):
        UserFactory(display_name="FLUSH \u041ene")


def test_two_learners_taking_one_name_at_once_get_a_400_not_a_500(monkeypatch):
    # Both pass the check in clean() before either saves: the constraint decides.
    UserFactory(display_name="Flush One")
    impostor = UserFactory(display_name="Before")
    monkeypatch.setattr(User, "clean", lambda self: None)

    response = set_name(impostor, "flush one")

    assert response.status_code == 400
    assert "display_name" in response.json()["errors"]


def test_the_admin_names_the_field_when_a_name_is_taken(admin_client):
    UserFactory(display_name="Flush One")
    user = UserFactory(display_name="Before")
    url = reverse("admin:accounts_user_change", args=[user.pk])
    form = admin_client.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    data.update(display_name="flush \u041ene", date_joined_0="2026-01-01", date_joined_1="00:00")

    response = admin_client.post(url, data)

    assert response.status_code == 200
    assert "looks too much like another learner" in str(
        response.context["adminform"].form.errors["display_name"]
    )


def test_a_name_kept_from_older_rules_does_not_block_other_profile_changes(api_client):
    # The migration kept names that look like handles; their owners can still change settings
    # and unsubscribe.
    user = UserFactory()
    type(user).objects.filter(pk=user.pk).update(display_name="Learner 7")
    api_client.force_authenticate(user)

    response = api_client.patch("/api/v1/me/", {"email_notifications": False}, format="json")

    assert response.status_code == 200
    user.refresh_from_db()
    assert (user.display_name, user.email_notifications) == ("Learner 7", False)
