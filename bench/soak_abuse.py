"""The soak's two actors from issue 41 (bench/soak.py), with their invariants:

- an address squatter: signed in, they keep adding other learners' addresses to their own
  account (the owners signed up through the API), while the owners open the confirmation
  e-mails that reach them, as trusting owners would (half of them never open their own
  sign-up's, so their address stays unconfirmed). Every address must stay its owner's, and
  every owner must still sign in with their password;
- a moderator: in the admin, they hide comments followers were just told of, while the digests
  that carry them wait (some through the mail server outage). No hidden comment may be left in
  a notification, nor in a digest sent after it was hidden.
"""

from __future__ import annotations

import email
import email.policy
import http.client
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import unquote, urlencode

from bench.soak_learners import Client, Log

OWNER_PASSWORD = "0wner-s0ak-pass!"
VERIFY_LINK = re.compile(r"/account/verify-email/([^\s/]+)")
APP = "/_allauth/app/v1"
# A digest already on its way when a comment was hidden goes as it was (its send is under way).
SEND_GRACE = timedelta(seconds=2)


@dataclass
class Abuse:
    lock: threading.Lock = field(default_factory=threading.Lock)
    owners: list[str] = field(default_factory=list)
    adds: list[int] = field(default_factory=list)  # the status of each squatting attempt
    mailed: dict[str, list[str]] = field(default_factory=dict)  # owner -> keys mailed to them
    opened: set[str] = field(default_factory=set)  # confirmation keys the owners opened
    hidden: dict[int, datetime] = field(default_factory=dict)  # comment id -> when hidden
    gathered: int = 0  # of them, hidden once their digest was gathered but not yet sent


# --- The squatter and the owners -------------------------------------------------------------


def sign_up_owners(port: int, log: Log, count: int) -> list[str]:
    """`count` learners who sign up through the API with an address and a password."""
    owners = []
    for n in range(count):
        address = f"owner{n}@example.com"
        status, _ = Client(port, "", log).call(
            "POST", f"{APP}/auth/signup", {"email": address, "password": OWNER_PASSWORD},
            "owner-signup",
        )  # fmt: skip
        if status == 200:
            owners.append(address)
    return owners


def _confirmation_keys(mail_dir: Path) -> list[tuple[str, str]]:
    """(recipient, key) of every confirmation e-mail the mail server accepted."""
    found = []
    for path in sorted(mail_dir.iterdir()):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        body = message.get_body(("plain",))
        text = body.get_content() if body is not None else ""
        for key in VERIFY_LINK.findall(text):
            found.append((str(message["To"]), unquote(key)))
    return found


def squat(squatter: Client, port: int, mail_dir: Path, log: Log, abuse: Abuse,
          until: float) -> None:  # fmt: skip
    """Until `until` (time.monotonic()): add an owner's address to the squatter's account (one
    every 7 s: allauth allows 10 address changes a minute), then let the owners open the
    confirmation e-mails that reached them: every one for half of them; for the other half,
    every one but their sign-up's (they never confirmed their address, yet trust a later one)."""
    owner_client = Client(port, "", log)
    seen: set[str] = set()
    n = 0
    while time.monotonic() < until:
        address = abuse.owners[n % len(abuse.owners)]
        n += 1
        status, _ = squatter.call("POST", f"{APP}/account/email", {"email": address}, "squat")
        with abuse.lock:
            abuse.adds.append(status)
        for recipient, key in _confirmation_keys(mail_dir):
            if recipient not in abuse.owners or key in seen:
                continue
            seen.add(key)
            abuse.mailed.setdefault(recipient, []).append(key)
            if abuse.owners.index(recipient) % 2 and len(abuse.mailed[recipient]) == 1:
                continue  # the sign-up's own e-mail, left unopened
            owner_client.call("POST", f"{APP}/auth/email/verify", {"key": key}, "confirm")
            abuse.opened.add(key)
        time.sleep(max(0.0, min(7.0, until - time.monotonic())))


def squatting_invariant(abuse: Abuse, squatter_id: int, port: int,
                        log: Log) -> tuple[str, bool, str]:  # fmt: skip
    from allauth.account.models import EmailAddress

    from accounts.models import User

    astray = [
        address for address in abuse.owners
        if EmailAddress.objects.filter(email__iexact=address)
        .exclude(user__email__iexact=address).exists()
    ]  # fmt: skip
    held = EmailAddress.objects.filter(user_id=squatter_id, email__in=abuse.owners).count()
    signed_in = sum(
        Client(port, "", log).call(
            "POST", f"{APP}/auth/login", {"email": a, "password": OWNER_PASSWORD}, "owner-login"
        )[0] == 200
        for a in abuse.owners
    )  # fmt: skip
    confirmed_owners = User.objects.filter(
        email__in=abuse.owners, emailaddress__verified=True
    ).count()
    attached = abuse.adds.count(200)
    ok = bool(abuse.adds) and not (astray or held or attached) and signed_in == len(abuse.owners)
    return ("no address squatted", ok,
            f"{len(abuse.adds)} attempts on {len(abuse.owners)} owners' addresses "
            f"({confirmed_owners} confirmed), {attached} attached, {abuse.adds.count(400)} "
            f"refused; {len(abuse.opened)} of {sum(map(len, abuse.mailed.values()))} confirmation "
            f"e-mails opened by owners; "
            f"{held} held by the squatter, {len(astray)} astray; {signed_in} of "
            f"{len(abuse.owners)} owners sign in")  # fmt: skip


# --- The moderator ---------------------------------------------------------------------------


class AdminSession:
    """A staff member in the admin over HTTP, with a session cookie (made as a sign-in makes
    one: the soak's server has no collected static files, so the admin's pages cannot render;
    its actions answer a redirect) and a CSRF cookie with its token."""

    def __init__(self, port: int, session_key: str) -> None:
        self.port = port
        self.cookies = {"sessionid": session_key, "csrftoken": secrets.token_hex(16)}

    def _send(self, method: str, path: str, form: dict | None = None) -> int:
        for _ in range(20):  # through the outages, as the learners' client does
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
                if form is not None:
                    headers["Content-Type"] = "application/x-www-form-urlencoded"
                connection.request(method, path, urlencode(form or {}, doseq=True), headers)
                response = connection.getresponse()
                response.read()
                for header, value in response.getheaders():
                    if header.lower() == "set-cookie":
                        name, _, rest = value.partition("=")
                        self.cookies[name.strip()] = rest.split(";", 1)[0]
                connection.close()
            except OSError:
                time.sleep(0.5)
                continue
            if response.status < 500:
                return response.status
            time.sleep(0.5)
        raise RuntimeError(f"{method} {path}: the admin kept failing")

    def hide(self, comment_id: int) -> bool:
        """The admin's "Hide" action on one comment; whether it was done (a redirect back)."""
        return self._send("POST", "/admin/community/comment/", {
            "csrfmiddlewaretoken": self.cookies["csrftoken"],
            "action": "hide_comments", "_selected_action": [str(comment_id)], "post": "yes",
        }) == 302  # fmt: skip


def moderate(admin: AdminSession, abuse: Abuse, working: Callable[[], bool]) -> None:
    """Every second while the learners are `working`, hide a comment whose digest has not gone
    yet: one already gathered into an e-mail the mail server has not taken (its outage), else
    the one followers were told of last (its digest waits COMMUNITY_DIGEST_WINDOW_SECONDS)."""
    from django.db.models import Case, IntegerField, Value, When

    from notifications.models import EmailState, Notification

    gathered_first = Case(
        When(email_state=EmailState.BATCHED, then=Value(0)),
        default=Value(1),
        output_field=IntegerField(),
    )
    while working():
        time.sleep(1)
        waiting = (
            Notification.objects.filter(dedupe_key__startswith="comment:")
            .filter(email_state__in=[EmailState.PENDING, EmailState.BATCHED])
            .filter(email_delivery__sent_at__isnull=True)
            .exclude(dedupe_key__in=[f"comment:{i}" for i in abuse.hidden])
            .order_by(gathered_first, "-id")
            .values_list("dedupe_key", "email_state")
            .first()
        )
        if waiting is None:
            continue
        comment_id = int(waiting[0].split(":")[1])
        if admin.hide(comment_id):
            with abuse.lock:
                abuse.hidden[comment_id] = datetime.now(UTC)
                abuse.gathered += waiting[1] == EmailState.BATCHED


def moderation_invariant(abuse: Abuse) -> tuple[str, bool, str]:
    from community.models import Comment
    from notifications.models import EmailDelivery, Notification

    hidden = Comment.objects.filter(pk__in=abuse.hidden, is_hidden=True)
    # A hidden thread's head hides its replies.
    thread = list(
        Comment.objects.filter(parent__in=hidden.filter(parent__isnull=True))
        .values_list("pk", flat=True)
    ) + list(hidden.values_list("pk", flat=True))  # fmt: skip
    left = Notification.objects.filter(dedupe_key__in=[f"comment:{i}" for i in thread]).count()
    late = [
        comment.pk
        for comment in hidden
        if EmailDelivery.objects.filter(
            sent_at__gt=abuse.hidden[comment.pk] + SEND_GRACE,
            text_body__contains=f"#comment-{comment.pk}\n",
        ).exists()
    ]
    ok = bool(abuse.hidden) and hidden.count() == len(abuse.hidden) and not left and not late
    return ("hidden comments leave notifications and digests", ok,
            f"{len(abuse.hidden)} comments hidden mid-digest ({abuse.gathered} in an e-mail "
            f"gathered, not sent; {len(thread)} with replies), {left} notifications left, "
            f"{len(late)} in a digest sent after")  # fmt: skip
