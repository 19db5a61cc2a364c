from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from progress import boards, rollup


class Command(BaseCommand):
    help = (
        "Rebuild the Redis leaderboards from the XP ledger's per-day rollup; with --from-ledger, "
        "recompute the rollup from the ledger first (a repair: inserts into the ledger wait)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--from-ledger",
            action="store_true",
            help="Recompute the XP-per-day rollup from the ledger before rebuilding the boards.",
        )

    def handle(self, *args: Any, from_ledger: bool = False, **options: Any) -> None:
        if from_ledger:
            rows = rollup.refill_from_ledger()
            self.stdout.write(f"Rollup recomputed from the ledger: {rows} learner-days.")
        if not boards.enabled():
            self.stdout.write("Redis leaderboards are off (LEADERBOARD_REDIS): SQL answers them.")
            return
        try:
            counts = boards.rebuild()
        except boards.BoardUnavailable as error:
            raise CommandError(f"Redis is not reachable: {error}") from error
        self.stdout.write(
            self.style.SUCCESS(
                f"Leaderboards rebuilt: {counts['members']} scores over {counts['days']} days, "
                f"{counts['hidden']} learners hidden, {counts['periods']} period boards built."
            )
        )
