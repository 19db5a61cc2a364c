from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from curriculum.files import CurriculumError
from curriculum.services import load_curriculum


class Command(BaseCommand):
    help = "Upsert the curriculum files under DIRECTORY (by slug, in one transaction)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("directory", nargs="?", default="content", type=Path)

    def handle(self, *args: Any, directory: Path, **options: Any) -> None:
        try:
            report = load_curriculum(root=directory)
        except CurriculumError as exc:
            lines = "\n".join(f"  {problem}" for problem in exc.problems)
            raise CommandError(
                f"Curriculum not loaded; nothing was changed. {len(exc.problems)} problem(s):\n{lines}"
            ) from None
        verdict = "Loaded" if report.changed else "Nothing to change"
        self.stdout.write(self.style.SUCCESS(f"{verdict}: {report.summary()}."))
