import pytest


@pytest.fixture
def no_seed(db):
    """Start from no achievements: the ten seeded by the data migration would unlock too."""
    from achievements.models import Achievement

    Achievement.objects.all().delete()
