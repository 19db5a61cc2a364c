from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from achievements import selectors
from achievements.serializers import AchievementListOutputSerializer
from learning_platform import page_cache
from learning_platform.api.cached_reads import ReadAheadMixin
from learning_platform.api.conditional import IF_NONE_MATCH, NOT_MODIFIED, conditional_response
from progress.selectors import today_in

# What differs between learners in an achievement's entry.
LEARNER_FIELDS = ("unlocked", "unlocked_at", "progress")


class AchievementListView(ReadAheadMixin, APIView):
    permission_classes = [AllowAny]

    def read_ahead_keys(self, *, user_id: str | None) -> list[str]:
        learner = [page_cache.learner_version_key(user_id)] if user_id else []
        return [page_cache.CONTENT_VERSION_KEY, *learner]

    @extend_schema(
        tags=["achievements"],
        operation_id="achievements_list",
        parameters=[IF_NONE_MATCH],
        responses={200: AchievementListOutputSerializer, 304: NOT_MODIFIED},
        description="Every achievement, in display order. For a signed-in learner, each says "
        "whether and when it was unlocked and the progress toward it (e.g. 3 of 10 lessons); "
        "for anonymous callers nothing is unlocked and progress is null.",
    )
    def get(self, request: Request) -> Response:
        # The catalogue is the same for everyone (cached, content-versioned). A signed-in
        # learner's statuses are their own small part, merged onto it; the merged answer is
        # kept, rendered, under their version and their date (streaks count days).
        catalogue = page_cache.Part(
            key="pages:achievements",
            versions=[page_cache.CONTENT_VERSION_KEY],
            build=lambda: self.public_listing(),
        )
        user = request.user
        if not user.is_authenticated:
            [(public, _)] = page_cache.fetch(catalogue)
            return conditional_response(request, etag=public.etag, build=lambda: public.json)
        [mine] = page_cache.fetch(
            page_cache.Part(
                key=f"pages:achievements-page:{user.pk}",
                versions=[
                    page_cache.learner_version_key(user.pk),
                    page_cache.CONTENT_VERSION_KEY,
                ],
                extra=today_in(user.tzinfo).isoformat(),
                build=lambda: self.learner_page(user_id=user.pk, catalogue=catalogue),
            )
        )
        return conditional_response(request, etag=mine.etag, build=lambda: mine.json)

    @classmethod
    def learner_page(cls, *, user_id: int, catalogue: page_cache.Part) -> page_cache.Page:
        """The learner's statuses merged onto the cached catalogue, rendered."""
        [(_, listing)] = page_cache.fetch(catalogue)
        unlocked_count, mine = cls.learner_statuses(user_id=user_id)
        if list(mine) != [achievement["slug"] for achievement in listing["results"]]:
            # The two parts were built on either side of a catalogue change: build it whole.
            return page_cache.page(cls.listing(user_id=user_id))
        return page_cache.page(
            {
                **listing,
                "unlocked_count": unlocked_count,
                "results": [
                    {**achievement, **mine[achievement["slug"]]}
                    for achievement in listing["results"]
                ],
            }
        )

    @classmethod
    def public_listing(cls) -> tuple[page_cache.Page, dict]:
        """The catalogue as anyone sees it: rendered once, and as data to merge a learner's
        statuses onto."""
        listing = cls.listing(user_id=None)
        return page_cache.page(listing), listing

    @staticmethod
    def listing(*, user_id: int | None) -> dict:
        statuses = selectors.achievements_for_learner(user_id=user_id)
        return AchievementListOutputSerializer(
            {
                "count": len(statuses),
                "unlocked_count": sum(status["unlocked"] for status in statuses),
                "results": statuses,
            }
        ).data

    @classmethod
    def learner_statuses(cls, *, user_id: int) -> tuple[int, dict[str, dict]]:
        """(unlocked count, {slug: {unlocked, unlocked_at, progress}} in catalogue order)."""
        data = cls.listing(user_id=user_id)
        return data["unlocked_count"], {
            result["slug"]: {name: result[name] for name in LEARNER_FIELDS}
            for result in data["results"]
        }
