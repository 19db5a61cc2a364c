"""Print a new VAPID private key for WEBPUSH_VAPID_PRIVATE_KEY (Web Push, notifications.push)."""

from __future__ import annotations

import base64
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Print a new VAPID private key, as the line to put in the environment."

    def handle(self, *args: Any, **options: Any) -> None:
        key = ec.generate_private_key(ec.SECP256R1())
        raw = key.private_numbers().private_value.to_bytes(32, "big")
        encoded = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
        self.stdout.write(f"WEBPUSH_VAPID_PRIVATE_KEY={encoded}")
