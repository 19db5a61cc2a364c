from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from pages.web_rules import RULES_FILE, rendered


class Command(BaseCommand):
    help = "Write the rules the web app states (web/src/lib/rules.json) from the server's."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check", action="store_true", help="Fail if the file is not current; write nothing."
        )

    def handle(self, *args: Any, check: bool, **options: Any) -> None:
        current = RULES_FILE.read_text() if RULES_FILE.exists() else ""
        if check:
            if current != rendered():
                raise CommandError(f"{RULES_FILE} is out of date: run manage.py export_web_rules")
            self.stdout.write(f"{RULES_FILE.name} is current.")
            return
        if current == rendered():
            self.stdout.write(f"{RULES_FILE.name} is current: nothing written.")
            return
        RULES_FILE.write_text(rendered())
        self.stdout.write(f"Wrote {RULES_FILE}.")
