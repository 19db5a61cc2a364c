"""Lesson images: what an upload must be, and what is stored of it.

An upload is checked before anything is decoded (its size, then the dimensions in its header,
so a small file that claims a huge image never reaches the decoder), then verified and decoded
by Pillow, turned upright (EXIF orientation), scaled down to LESSON_IMAGE_MAX_WIDTH keeping
its aspect, and encoded again: EXIF (camera, place, time) and other metadata are not written.
Every refusal is a ValidationError saying what to do, shown on the admin's form.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from pathlib import PurePath

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile
from django.utils.text import slugify
from PIL import Image, ImageOps, UnidentifiedImageError

from accounts.models import User
from lessons.models import LessonImage

# Pillow's format name -> the extension stored. A GIF is stored as a still PNG: scaling would
# drop its animation anyway, and lessons explain with diagrams, not clips.
FORMATS = {"PNG": "png", "JPEG": "jpg", "WEBP": "webp", "GIF": "png"}
ALLOWED = "PNG, JPEG, WebP or GIF"


@dataclass(frozen=True)
class PreparedImage:
    content: ContentFile[bytes]
    width: int
    height: int


def _megabytes(size: int) -> str:
    if size < 1024 * 1024:
        return f"{round(size / 1024)} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def prepare_image(upload: UploadedFile[bytes]) -> PreparedImage:
    """The image to store for `upload`, or a ValidationError saying why it cannot be one."""
    max_bytes = settings.LESSON_IMAGE_MAX_BYTES
    if upload.size is not None and upload.size > max_bytes:
        raise ValidationError(
            f"The file is {_megabytes(upload.size)}; images may be up to {_megabytes(max_bytes)}."
            " Export it smaller or as JPEG/WebP.",
            code="too_large",
        )
    data = upload.read()
    try:
        with warnings.catch_warnings():
            # Pillow only warns between its limit and twice it; ours is checked below anyway.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as probe:
                kind = probe.format
                width, height = probe.size
                _check_kind_and_size(kind, width, height)
                probe.verify()
            with Image.open(io.BytesIO(data)) as image:
                image.load()
                return _reencoded(image, kind=str(kind), name=upload.name or "")
    except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ValidationError(
            f"This file is not an image that can be read: upload a {ALLOWED} file.",
            code="not_an_image",
        ) from None
    except (OSError, SyntaxError, ValueError) as error:  # what a truncated or corrupt file raises
        raise ValidationError(
            f"This image is damaged and cannot be read ({error}): export it again.",
            code="damaged",
        ) from None


def _stem(name: str) -> str:
    return slugify(PurePath(name).stem)[:60].strip("-") or "image"


def _check_kind_and_size(kind: str | None, width: int, height: int) -> None:
    if kind not in FORMATS:
        raise ValidationError(
            f"{kind or 'This'} images are not accepted: upload a {ALLOWED} file.",
            code="format",
        )
    max_pixels = settings.LESSON_IMAGE_MAX_PIXELS
    if width * height > max_pixels:
        raise ValidationError(
            f"The image is {width} x {height} pixels; images may have up to "
            f"{max_pixels / 1_000_000:g} million pixels. Scale it down first.",
            code="too_many_pixels",
        )


def _reencoded(image: Image.Image, *, kind: str, name: str) -> PreparedImage:
    icc_profile = image.info.get("icc_profile")
    image = ImageOps.exif_transpose(image)
    max_width = settings.LESSON_IMAGE_MAX_WIDTH
    if image.width > max_width:
        if image.mode in ("1", "P"):  # palettes would be scaled by nearest neighbour
            image = image.convert("RGBA")
        height = max(1, round(image.height * max_width / image.width))
        image = image.resize((max_width, height), Image.Resampling.LANCZOS)
    extension = FORMATS[kind]
    if extension == "jpg":
        image = image.convert("RGB")
        options = {"quality": 85, "optimize": True, "progressive": True}
    elif extension == "webp":
        options = {"quality": 85, "method": 4}
    else:
        if image.mode not in ("1", "L", "LA", "P", "RGB", "RGBA"):
            image = image.convert("RGBA")
        options = {"optimize": True}
    if icc_profile:  # colours as the author saw them; not metadata about them or their camera
        options["icc_profile"] = icc_profile
    out = io.BytesIO()
    # No exif=, no pnginfo=: nothing of the original's metadata is written.
    image.save(out, format="JPEG" if extension == "jpg" else extension.upper(), **options)
    return PreparedImage(
        # The uploaded name, made safe for a URL, tells files apart in listings and buckets.
        content=ContentFile(out.getvalue(), name=f"{_stem(name)}.{extension}"),
        width=image.width,
        height=image.height,
    )


def upload_lesson_image(
    *, upload: UploadedFile[bytes] | PreparedImage, alt_text: str, uploaded_by: User | None
) -> LessonImage:
    """Store the image made of `upload` (prepared already, or prepared now) with its alt text.

    The storage picks a free name, so an upload never replaces an image lessons show."""
    prepared = upload if isinstance(upload, PreparedImage) else prepare_image(upload)
    alt = alt_text.strip()
    if not alt:
        raise ValidationError("Describe the image for learners who cannot see it.", code="alt")
    image = LessonImage(
        alt_text=alt, width=prepared.width, height=prepared.height, uploaded_by=uploaded_by
    )
    image.file.save(prepared.content.name or "image", prepared.content, save=False)
    try:
        image.save()
    except BaseException:
        image.file.delete(save=False)  # no file left behind that no row knows of
        raise
    return image
