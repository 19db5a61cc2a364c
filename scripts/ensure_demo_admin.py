"""Create the local demo superuser once, and say how to sign in (used by `make run`).

The password is generated on first use and kept in `.venv/demo-admin-password`, so re-runs
print the same credentials without touching the account. Never run against production.
"""

import os
import secrets
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
EMAIL = os.environ.get("DEMO_ADMIN_EMAIL", "admin@example.com")
PASSWORD_FILE = BASE_DIR / ".venv" / "demo-admin-password"


def stored_password() -> str:
    if PASSWORD_FILE.exists():
        return PASSWORD_FILE.read_text().strip()
    password = secrets.token_urlsafe(12)
    PASSWORD_FILE.parent.mkdir(parents=True, exist_ok=True)
    PASSWORD_FILE.write_text(password + "\n")
    PASSWORD_FILE.chmod(0o600)
    return password


def main() -> int:
    sys.path.insert(0, str(BASE_DIR))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "learning_platform.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    password = stored_password()
    user = user_model.objects.filter(email__iexact=EMAIL).first()
    if user is None:
        user_model.objects.create_superuser(email=EMAIL, password=password)
        print(f"Created the demo admin {EMAIL}.")
    elif not (user.is_superuser and user.check_password(password)):
        print(
            f"Admin {EMAIL} already exists with another password; "
            f"reset it with: .venv/bin/python manage.py changepassword {EMAIL}"
        )
        return 0
    print(f"  Admin login: {EMAIL} / {password}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
