from typing import Any

from django.core.management.base import BaseCommand

from exercises.services.catalogue import load_reference_catalogue


class Command(BaseCommand):
    help = (
        "Upsert the reference catalogue (model architectures) by name from "
        "exercises/data/model_configs.json and model_aliases.json. Never deletes entries."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        counts = load_reference_catalogue()
        self.stdout.write(
            self.style.SUCCESS(", ".join(f"{n} {outcome}" for outcome, n in counts.items()) + ".")
        )
