from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from curriculum.services import export_curriculum


class Command(BaseCommand):
    help = "Write the database's quests and lessons as curriculum files under DIRECTORY."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("directory", nargs="?", default="content", type=Path)
        parser.add_argument("--quest", action="append", dest="quests", help="Only this quest slug.")

    def handle(self, *args: Any, directory: Path, quests: list[str] | None, **options: Any) -> None:
        written = export_curriculum(root=directory, quest_slugs=quests)
        self.stdout.write(self.style.SUCCESS(f"Wrote {len(written)} files under {directory}."))
