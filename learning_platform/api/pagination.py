from rest_framework import pagination


class PageNumberPagination(pagination.PageNumberPagination):
    """`?page=N&page_size=M`; answers `{count, next, previous, results}`."""

    page_size_query_param = "page_size"
    max_page_size = 100
