from typing import Any

from django.db.models import Manager
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from lessons.blocks import block_html
from lessons.checks import public_check
from lessons.models import Block, Lesson, Quest, Tag


class QuestRefSerializer(serializers.Serializer[Quest]):
    slug = serializers.CharField()
    title = serializers.CharField()


class NeighbourSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    title = serializers.CharField()


class ProseBlockSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["prose"])
    markdown = serializers.CharField(help_text="The Markdown source.")
    html = serializers.CharField(help_text="Sanitized HTML rendered from `markdown`.")


class CalloutBlockSerializer(ProseBlockSerializer):
    kind = serializers.ChoiceField(choices=["callout"])
    # The metaclass moves declared fields off the class: no clash with Field.style.
    style = serializers.ChoiceField(choices=Block.CalloutStyle.choices)  # type: ignore[assignment]


class TableBlockSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["table"])
    caption = serializers.CharField(allow_blank=True)
    columns = serializers.ListField(child=serializers.CharField())
    rows = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))


class CodeBlockSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["code"])
    title = serializers.CharField(allow_blank=True)
    language = serializers.CharField(allow_blank=True)
    # The metaclass moves declared fields off the class: no clash with Field.source.
    source = serializers.CharField()  # type: ignore[assignment]


class CheckOptionSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="Opaque and stable; answers name options by it.")
    text = serializers.CharField()


class CheckSerializer(serializers.Serializer[Any]):
    """What a learner is shown of a check: never its answer."""

    key = serializers.CharField()
    type = serializers.ChoiceField(choices=["numeric", "choice", "ordering"])
    reveal_after = serializers.IntegerField(
        help_text="Wrong tries after which the learner may reveal the answer (no XP then)."
    )
    unit = serializers.CharField(required=False, help_text="numeric: the answer's unit, or empty.")
    multiple = serializers.BooleanField(
        required=False, help_text="choice: more than one option is right; pick all of them."
    )
    options = CheckOptionSerializer(many=True, required=False, help_text="choice: to shuffle.")
    items = CheckOptionSerializer(
        many=True, required=False, help_text="ordering: the items, not in the right order."
    )


class CheckBlockSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The check's id: answers are posted to it.")
    kind = serializers.ChoiceField(choices=["check"])
    html = serializers.CharField(help_text="The prompt: sanitized HTML.")
    check = CheckSerializer()


BLOCK_SERIALIZERS: dict[str, serializers.Serializer[Any] | type[serializers.Serializer[Any]]] = {
    "prose": ProseBlockSerializer,
    "callout": CalloutBlockSerializer,
    "table": TableBlockSerializer,
    "code": CodeBlockSerializer,
    "check": CheckBlockSerializer,
}


def block_data(block: Block) -> dict[str, Any]:
    data: dict[str, Any] = {"id": block.id, "kind": block.kind}
    if block.kind in ("prose", "callout"):
        data["markdown"] = block.markdown
        # Stored on write; a row written around the services (none should be) still renders.
        data["html"] = block.html or block_html(block.kind, block.markdown)
        if block.kind == "callout":
            data["style"] = block.style
    elif block.kind == "table":
        data.update(
            caption=block.caption,
            columns=[str(c) for c in block.columns],
            rows=[[str(cell) for cell in row] for row in block.rows],
        )
    elif block.kind == "code":
        data.update(title=block.title, language=block.language, source=block.source)
    elif block.kind == "check":
        data["html"] = block.html or block_html(block.kind, block.markdown)
        data["check"] = public_check(block.spec)
    return data


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="Block",
        serializers=BLOCK_SERIALIZERS,
        resource_type_field_name="kind",
        many=True,
    )
)
class BlocksField(serializers.Field[Manager[Block], Any, list[dict[str, Any]], Any]):
    def to_representation(self, blocks: Manager[Block]) -> list[dict[str, Any]]:
        return [block_data(block) for block in blocks.all()]


class LinkSerializer(serializers.Serializer[Any]):
    title = serializers.CharField()
    url = serializers.URLField()


class LessonListSerializer(serializers.ModelSerializer[Lesson]):
    quest = QuestRefSerializer()
    # Scheduled and due counts as published: what learners get.
    published = serializers.BooleanField(source="is_published", read_only=True)
    tags: serializers.SlugRelatedField[Tag] = serializers.SlugRelatedField(
        slug_field="slug", many=True, read_only=True
    )

    class Meta:
        model = Lesson
        fields: tuple[str, ...] = (
            "slug",
            "title",
            "summary",
            "estimated_minutes",
            "xp",
            "tags",
            "quest",
            "position",
            "published",
        )
        read_only_fields = fields


class QuestListSerializer(serializers.ModelSerializer[Quest]):
    class Meta:
        model = Quest
        fields = ("slug", "title", "description")
        read_only_fields = fields
