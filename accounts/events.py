"""What accounts announces to the apps above it (learning_platform/hooks.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from learning_platform.hooks import Hook


@dataclass(frozen=True)
class AccountDataAsked:
    """The learner asked for a copy of their data (GDPR article 20)."""

    user_id: int


# Subscribers return the sections they own, by name ({"comments": [...]}), as plain JSON
# data: the download is their union with the profile.
account_data_asked: Hook[AccountDataAsked, dict[str, Any]] = Hook("accounts.account_data_asked")


@dataclass(frozen=True)
class AccountPurged:
    """A learner's account is being deleted for good (GDPR article 17), in the open
    transaction: the user row stays as a nameless tombstone, so whatever only counts (the XP
    ledger, completions, answers) may stay; whatever says who the learner is must go."""

    user_id: int
    # What named the learner (address, display name, handle): texts written for others that
    # quote them (a "Ada replied" notification) say "A deleted learner" instead.
    former_names: tuple[str, ...] = ()


# Subscribers delete or blank what they hold that is personal; they return nothing.
account_purged: Hook[AccountPurged, None] = Hook("accounts.account_purged")
