"""Where uploaded files (lesson images) are kept: STORAGES["default"] (settings.py names it).

MEDIA_STORAGE=filesystem (the default) keeps them under MEDIA_ROOT, served at MEDIA_URL by this
server (learning_platform/media.py). MEDIA_STORAGE=s3 keeps them in an S3-compatible bucket
through django-storages, whose URLs point at the bucket (or MEDIA_S3_CUSTOM_DOMAIN); that
package is the optional extra `s3`, not in the locks, so selecting it without it installed
stops the process at start with what to install rather than at the first upload.
"""

from importlib.util import find_spec
from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured

STORAGE_KINDS = ("filesystem", "s3")


def default_storage(env: environ.Env, *, kind: str) -> dict[str, Any]:
    """STORAGES["default"] for MEDIA_STORAGE=`kind`, read from the environment `env`."""
    if kind == "filesystem":
        return {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    if kind != "s3":
        raise ImproperlyConfigured(
            f"MEDIA_STORAGE must be one of {', '.join(STORAGE_KINDS)}, not {kind!r}."
        )
    if find_spec("storages") is None or find_spec("boto3") is None:
        raise ImproperlyConfigured(
            "MEDIA_STORAGE=s3 needs django-storages with boto3: "
            "pip install -c requirements/base.txt 'django-storages[s3]>=1.14' "
            '(docs/operations.md, "Media").'
        )
    bucket = env.str("MEDIA_S3_BUCKET", default="")
    if not bucket:
        raise ImproperlyConfigured("MEDIA_STORAGE=s3 needs MEDIA_S3_BUCKET.")
    options: dict[str, Any] = {
        "bucket_name": bucket,
        # Lesson images are public: plain URLs, cacheable, without signatures that expire in
        # the HTML stored at save.
        "querystring_auth": False,
        # Never replace an image already referenced by a lesson: a new name instead.
        "file_overwrite": False,
        "location": env.str("MEDIA_S3_PREFIX", default="media"),
    }
    optional = {
        "endpoint_url": env.str("MEDIA_S3_ENDPOINT_URL", default=""),
        "region_name": env.str("MEDIA_S3_REGION", default=""),
        "custom_domain": env.str("MEDIA_S3_CUSTOM_DOMAIN", default=""),
        # Unset: boto3 finds credentials itself (AWS_* variables, an instance or pod role).
        "access_key": env.str("MEDIA_S3_ACCESS_KEY_ID", default=""),
        "secret_key": env.str("MEDIA_S3_SECRET_ACCESS_KEY", default=""),
    }
    options.update({name: value for name, value in optional.items() if value})
    return {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": options}
