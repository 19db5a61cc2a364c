"""Ralph's LRS (the `ralph.api` FastAPI app) as `ralph runserver -b fs` serves it, for
uvicorn started by xapi/tests/ralph_lrs.py. Imported only in that server's process.

Ralph 5.1's file backend writes its statements file with the data backend's default
operation, `create`, which refuses a file that exists: every POST after the first one fails
with a 500 ("Statements bulk indexation failed"). Appending is what an LRS does with new
statements, so the backend appends here; reading, the duplicate check by id and the 409 on
conflicting content are Ralph's own, untouched.
"""

from ralph.api import app
from ralph.backends.data.base import BaseOperationType
from ralph.backends.lrs.fs import FSLRSBackend

FSLRSBackend.default_operation_type = BaseOperationType.APPEND

__all__ = ["app"]
