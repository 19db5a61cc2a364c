"""Lesson images: uploaded in the admin, checked and resized, shown in lessons, served."""

import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from learning_platform.markdown import markdown_problems, render_markdown
from lessons.models import LessonImage
from lessons.tests.factories import LessonFactory, ProseBlockFactory

pytestmark = pytest.mark.django_db

ADD_URL = reverse("admin:lessons_lessonimage_add")


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Uploads go to a directory of the test's own, never into the repository."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def image_file(
    width=2400, height=1200, fmt="JPEG", name="photo.jpg", exif=True, mode="RGB"
) -> SimpleUploadedFile:
    image = Image.new(mode, (width, height), "teal")
    out = io.BytesIO()
    options = {}
    if exif and fmt == "JPEG":
        metadata = Image.Exif()
        metadata[0x010F] = "CameraMaker"  # Make
        metadata[0x0132] = "2026:01:01 10:00:00"  # DateTime
        options["exif"] = metadata
    image.save(out, format=fmt, **options)
    return SimpleUploadedFile(name, out.getvalue(), content_type=f"image/{fmt.lower()}")


def _errors(response) -> str:
    return " ".join(
        re.sub(r"<[^>]+>", " ", m)
        for m in re.findall(r'<ul class="errorlist[^"]*".*?</ul>', response.content.decode(), re.S)
    )


def test_an_editor_uploads_an_image_stored_resized_without_metadata(client, editor, media_root):
    response = client.post(ADD_URL, {"upload": image_file(), "alt_text": "  A teal square  "})

    assert response.status_code == 302, _errors(response)
    image = LessonImage.objects.get()
    assert (image.alt_text, image.width, image.height) == ("A teal square", 1600, 800)
    assert image.uploaded_by == editor
    assert re.fullmatch(r"lessons/images/\d{4}/\d\d/photo(_\w+)?\.jpg", image.file.name)
    with Image.open(media_root / image.file.name) as stored:
        assert stored.size == (1600, 800)
        assert stored.format == "JPEG"
        assert not stored.getexif()


def test_the_change_page_shows_the_image_and_its_markdown(client, editor):
    client.post(ADD_URL, {"upload": image_file(), "alt_text": "A teal [square]"})
    image = LessonImage.objects.get()

    body = client.get(reverse("admin:lessons_lessonimage_change", args=[image.pk])).content.decode()

    assert f'value="![A teal \\[square\\]](/media/{image.file.name})"' in body
    list_body = client.get(reverse("admin:lessons_lessonimage_changelist")).content.decode()
    assert f'src="/media/{image.file.name}"' in list_body


def test_an_image_without_alt_text_is_refused_and_nothing_is_stored(client, editor, media_root):
    response = client.post(ADD_URL, {"upload": image_file(), "alt_text": "   "})

    assert response.status_code == 200
    assert "This field is required." in _errors(response)
    assert not LessonImage.objects.exists()
    assert not media_root.exists() or not any(media_root.rglob("*.*"))


def test_the_database_refuses_a_blank_alt_text():
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        LessonImage.objects.create(file="lessons/images/x.png", alt_text="", width=1, height=1)


@pytest.mark.parametrize(
    ("upload", "words"),
    [
        (
            SimpleUploadedFile("notes.png", b"not an image at all", content_type="image/png"),
            "not an image that can be read",
        ),
        (image_file(fmt="BMP", name="old.bmp", exif=False), "BMP images are not accepted"),
        (image_file(fmt="TIFF", name="scan.tif", exif=False), "TIFF images are not accepted"),
    ],
    ids=["text", "bmp", "tiff"],
)
def test_what_is_not_an_accepted_image_is_refused_with_a_form_error(client, editor, upload, words):
    response = client.post(ADD_URL, {"upload": upload, "alt_text": "Something"})

    assert response.status_code == 200
    assert words in _errors(response)
    assert 'value="Something"' in response.content.decode()  # the alt text stays in the form
    assert not LessonImage.objects.exists()


def test_an_oversized_file_is_refused_before_it_is_decoded(client, editor, settings):
    settings.LESSON_IMAGE_MAX_BYTES = 1000

    response = client.post(ADD_URL, {"upload": image_file(), "alt_text": "Big"})

    assert response.status_code == 200
    assert "images may be up to 1 KB" in _errors(response)
    assert not LessonImage.objects.exists()


def test_too_many_pixels_is_refused_from_the_header(client, editor, settings):
    settings.LESSON_IMAGE_MAX_PIXELS = 1_000_000

    upload = image_file(width=2000, height=1000, fmt="PNG", name="wide.png", exif=False)
    response = client.post(ADD_URL, {"upload": upload, "alt_text": "Wide"})

    assert response.status_code == 200
    assert "The image is 2000 x 1000 pixels" in _errors(response)
    assert not LessonImage.objects.exists()


@pytest.mark.parametrize(
    ("fmt", "name", "stored"),
    [("PNG", "a.png", "PNG"), ("WEBP", "a.webp", "WEBP"), ("GIF", "a.gif", "PNG")],
)
def test_each_accepted_format_is_stored(client, editor, media_root, fmt, name, stored):
    mode = "P" if fmt == "GIF" else "RGBA"
    upload = image_file(width=300, height=200, fmt=fmt, name=name, exif=False, mode=mode)

    response = client.post(ADD_URL, {"upload": upload, "alt_text": "Small"})

    assert response.status_code == 302, _errors(response)
    image = LessonImage.objects.get()
    with Image.open(media_root / image.file.name) as kept:
        assert (kept.format, kept.size) == (stored, (300, 200))


def test_editing_changes_the_alt_text_only(client, editor):
    client.post(ADD_URL, {"upload": image_file(), "alt_text": "Old"})
    image = LessonImage.objects.get()

    response = client.post(
        reverse("admin:lessons_lessonimage_change", args=[image.pk]), {"alt_text": "New"}
    )

    assert response.status_code == 302
    image.refresh_from_db()
    assert image.alt_text == "New"


def test_markdown_renders_an_uploaded_image_and_strips_foreign_sources():
    html = render_markdown(
        "![A diagram](/media/lessons/images/2026/12/d.png)\n\n"
        "![Elsewhere](http://example.com/x.png) ![Up](/media/../admin/x.png) ![Own](/static/x.png)",
        profile="lesson",
    )

    assert '<img src="/media/lessons/images/2026/12/d.png" alt="A diagram" loading="lazy">' in html
    assert html.count("<img") == 4
    assert html.count("src=") == 1
    assert markdown_problems("![Own](/static/x.png)", profile="lesson") == [
        "remove the image '/static/x.png' or give it an https:// URL or an uploaded image's"
    ]
    assert markdown_problems("![A](/media/lessons/images/d.png)", profile="lesson") == []


def test_a_learner_gets_the_image_in_the_lesson_and_the_file_is_served(client, editor, api_client):
    client.post(ADD_URL, {"upload": image_file(), "alt_text": "A teal square"})
    image = LessonImage.objects.get()
    lesson = LessonFactory(published=True)
    ProseBlockFactory(lesson=lesson, markdown=f"Look:\n\n{image.markdown()}")

    body = api_client.get(f"/api/v1/lessons/{lesson.slug}/").json()

    html = " ".join(block.get("html", "") for block in body["blocks"])
    assert f'<img src="/media/{image.file.name}" alt="A teal square" loading="lazy">' in html
    served = api_client.get(f"/media/{image.file.name}")
    assert served.status_code == 200
    assert served["Content-Type"] == "image/jpeg"
    assert "max-age=86400" in served["Cache-Control"]
    assert "sandbox" in served["Content-Security-Policy"]
    with Image.open(io.BytesIO(b"".join(served.streaming_content))) as seen:
        assert seen.size == (1600, 800)


def test_media_has_no_directory_listing_nor_a_way_out(api_client, client, editor):
    client.post(ADD_URL, {"upload": image_file(), "alt_text": "A teal square"})

    assert api_client.get("/media/lessons/images/").status_code == 404
    # Django's safe_join refuses it: a 400, never the file.
    assert api_client.get("/media/../manage.py").status_code == 400
    assert api_client.get("/media/lessons/images/missing.png").status_code == 404
