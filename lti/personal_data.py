"""What the LTI tool holds about a learner that goes when the account is deleted: who they are
on the platform (its issuer and their subject there) and where their scores went, which name
them to the platform. A later launch by the same platform user makes a new account.
Subscribed in LtiConfig.ready()."""

from __future__ import annotations

from accounts.events import AccountPurged
from lti.models import GradeLink, LtiAccount


def purge(event: AccountPurged) -> None:
    # The scores not sent yet go with their links (cascade): the learner left.
    GradeLink.objects.filter(user_id=event.user_id).delete()
    LtiAccount.objects.filter(user_id=event.user_id).delete()
