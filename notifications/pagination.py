from learning_platform.api.pagination import PageNumberPagination
from notifications.selectors import unread_notification_count


class NotificationPagination(PageNumberPagination):
    """The project's page (`{count, next, previous, results}`) plus `unread_count`: how many of
    the learner's notifications are unread in all (not only on this page)."""

    def paginate_queryset(self, queryset, request, view=None):
        self.unread_count = unread_notification_count(user=request.user)
        return super().paginate_queryset(queryset, request, view)

    def get_paginated_response(self, data):
        response = super().get_paginated_response(data)
        response.data["unread_count"] = self.unread_count
        return response

    def get_paginated_response_schema(self, schema):
        schema = super().get_paginated_response_schema(schema)
        schema["properties"]["unread_count"] = {"type": "integer", "example": 3}
        schema["required"] = [*schema.get("required", []), "unread_count"]
        return schema
