"""Reads the API answers as they are, rendered once and cached: the views send them and the web
pages embed them (pages/web.py).

Not re-exported by `progress.selectors`: it renders through progress.serializers, which imports
that package.
"""

from __future__ import annotations

from learning_platform import versioned
from learning_platform.api.conditional import Page, page
from progress.selectors.levels import level_curve
from progress.serializers import LevelCurveSerializer


@versioned.cached(key=lambda: "pages:levels", versions=lambda: [versioned.CONTENT])
def level_curve_page() -> Page:
    """`/levels`: the same for every caller."""
    curve = level_curve()
    return page(LevelCurveSerializer({"count": len(curve), "results": curve}).data)
