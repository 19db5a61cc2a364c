"""E-mail backends for tests."""

from django.core.mail.backends.base import BaseEmailBackend


class DownBackend(BaseEmailBackend):
    """A mail server that refuses connections (an outage)."""

    def send_messages(self, email_messages):
        raise ConnectionRefusedError(111, "Connection refused (test mail server down)")
