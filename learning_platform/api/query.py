from typing import Any

from rest_framework import serializers


class QuerySerializer(serializers.Serializer[None]):
    """Query parameters of a view. A parameter sent empty (`?period=`) is refused like any
    other invalid value; DRF alone would take it as absent and quietly use the default."""

    def to_internal_value(self, data: Any) -> Any:
        blank = {
            name: ["This parameter may not be empty."]
            for name, field in self.fields.items()
            if data.get(name) == "" and not getattr(field, "allow_blank", False)
        }
        if blank:
            raise serializers.ValidationError(blank)
        return super().to_internal_value(data)
