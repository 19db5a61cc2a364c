"""Reads of the progress app, by job: levels, learners' completions and standing, the progress
header, leaderboards, the admin's analytics. Each selector states how many queries it runs."""

# The goals a learner may set (what the web app offers: pages/web_rules.py).
from progress.models import DAILY_GOALS as DAILY_GOALS
from progress.selectors.analytics import (
    completion_counts,
    completions_by_week,
    furthest_lesson_counts,
)
from progress.selectors.calendar import CALENDAR_WEEKS, activity_calendar
from progress.selectors.leaderboards import LEADERBOARD_PERIODS, leaderboard
from progress.selectors.learners import (
    WeekXP,
    completed_lesson_ids,
    completed_lesson_ids_by_user,
    completions_changed_by_other_devices,
    count_completed_lessons,
    count_completed_lessons_by_user,
    days_of_users,
    latest_week_xp,
    percent_complete,
    quest_percent,
    quest_percents_by_user,
    standing_for_user,
    standings_for_users,
    today_in,
)
from progress.selectors.levels import (
    LevelStep,
    level_curve,
    level_progress,
    levels_crossed,
    xp_total,
)
from progress.selectors.summary import (
    ProgressSummary,
    QuestNotFound,
    progress_summary,
    quest_exists,
    state_after_sync,
)
