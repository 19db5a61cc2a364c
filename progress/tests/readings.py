"""What tests read of a learner's progress, through the live selectors."""

from progress import selectors


def streak_for_user(*, user_id: int) -> dict[str, int]:
    """{"current", "best"} in the learner's time zone."""
    streak = selectors.standing_for_user(user_id=user_id)["streak"]
    return {"current": streak["current"], "best": streak["best"]}


def level_for_user(*, user_id: int) -> dict:
    """{"number", "name", "xp"} of the learner's level on the current curve."""
    xp = selectors.xp_total(user_id=user_id)
    level = selectors.level_progress(xp=xp, curve=selectors.level_curve())["level"]
    return {**level, "xp": xp}
