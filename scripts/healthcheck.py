"""Container probe: GET a health path of the local server and exit 0 only on HTTP 200.

    python scripts/healthcheck.py [/healthz|/readyz]

Standard library only (the slim image has no curl). It sends a Host header the app accepts
(the first ALLOWED_HOSTS entry) and `X-Forwarded-Proto: https`, as the load balancer would,
so host validation and SECURE_SSL_REDIRECT answer the probe instead of rejecting it.
"""

import os
import sys
import urllib.error
import urllib.request


def probe_host() -> str:
    hosts = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
    host = hosts[0] if hosts else "localhost"
    if host == "*":
        return "localhost"
    return host.lstrip(".")  # ".example.com" allows example.com itself


def main() -> int:
    path = sys.argv[1] if len(sys.argv) > 1 else "/healthz"
    port = os.environ.get("PORT", "8000")
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        headers={"Host": probe_host(), "X-Forwarded-Proto": "https"},
    )
    try:
        # A fixed http URL on loopback.
        with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    except OSError as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 1
    print(f"{path}: HTTP {status}")
    return 0 if status == 200 else 1


if __name__ == "__main__":
    sys.exit(main())
