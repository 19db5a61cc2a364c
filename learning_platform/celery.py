"""The Celery app.

Workers: `celery -A learning_platform worker`; beat: `celery -A learning_platform beat`.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "learning_platform.settings")

app = Celery("learning_platform")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
