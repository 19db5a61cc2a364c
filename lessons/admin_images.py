"""The admin's lesson images: upload one with its alt text, see it, copy its Markdown."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html

from accounts.models import User
from lessons import images
from lessons.models import LessonImage


class LessonImageForm(forms.ModelForm):  # type: ignore[type-arg]  # django-stubs: generic
    """Upload (on adding) and alt text; the file is checked and prepared in clean, so every
    refusal is an error on the form, with the editor's alt text kept."""

    upload = forms.FileField(
        label="Image",
        required=False,
        help_text=(
            f"{images.ALLOWED}. Stored at most {{width}} pixels wide, without metadata (EXIF)."
        ),
        widget=forms.ClearableFileInput(
            attrs={"accept": "image/png,image/jpeg,image/webp,image/gif"}
        ),
    )

    class Meta:
        model = LessonImage
        fields = ("alt_text",)
        help_texts = {
            "alt_text": "What the image shows, for learners who cannot see it (read aloud).",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["upload"]
        field.help_text = str(field.help_text).replace(
            "{width}", str(settings.LESSON_IMAGE_MAX_WIDTH)
        )
        if self.instance.pk:
            del self.fields["upload"]  # an image is never replaced: lessons point at it
        else:
            field.required = True
        self.prepared: images.PreparedImage | None = None

    def clean_upload(self) -> Any:
        upload = self.cleaned_data.get("upload")
        if upload:
            self.prepared = images.prepare_image(upload)
        return upload


@admin.register(LessonImage)
class LessonImageAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # django-stubs: generic
    form = LessonImageForm
    list_display = ("thumbnail", "alt_text", "dimensions", "uploaded_by", "created_at")
    search_fields = ("alt_text",)
    search_help_text = "Words of an image's alt text."
    readonly_fields = ("preview", "markdown_snippet", "dimensions", "uploaded_by", "created_at")
    list_select_related = ("uploaded_by",)

    def get_fields(self, request: HttpRequest, obj: LessonImage | None = None) -> Any:
        if obj is None:
            return ("upload", "alt_text")
        return (
            "preview",
            "alt_text",
            "markdown_snippet",
            "dimensions",
            "uploaded_by",
            "created_at",
        )

    def save_model(self, request: HttpRequest, obj: LessonImage, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        # The form prepared the upload and checked the alt text: nothing left to refuse here.
        stored = images.upload_lesson_image(
            upload=form.prepared,
            alt_text=obj.alt_text,
            uploaded_by=request.user if isinstance(request.user, User) else None,
        )
        obj.pk, obj.file, obj.width, obj.height = (
            stored.pk,
            stored.file,
            stored.width,
            stored.height,
        )
        obj.uploaded_by, obj.created_at = stored.uploaded_by, stored.created_at
        obj._state.adding = False

    @admin.display(description="Image")
    def thumbnail(self, obj: LessonImage) -> str:
        return format_html(
            '<img src="{}" alt="" style="max-width:120px;max-height:80px" loading="lazy">',
            obj.file.url,
        )

    @admin.display(description="Image")
    def preview(self, obj: LessonImage) -> str:
        return format_html(
            '<img src="{}" alt="{}" style="max-width:min(100%,600px);height:auto">',
            obj.file.url,
            obj.alt_text,
        )

    @admin.display(description="Size")
    def dimensions(self, obj: LessonImage) -> str:
        return f"{obj.width} x {obj.height} px"

    @admin.display(description="Markdown")
    def markdown_snippet(self, obj: LessonImage) -> str:
        # Selected whole on a click, ready to copy into a block's Markdown.
        return format_html(
            '<input type="text" readonly value="{}" style="width:min(100%,48em)" '
            'aria-label="Markdown for this image" data-lesson-image-markdown '
            'onclick="this.select()">'
            '<div class="help">Copy it into a prose or callout block.</div>',
            obj.markdown(),
        )
