"""`Client`: every generated operation, plus log-in and the waiting helpers a notebook needs. Written by hand."""

from __future__ import annotations

import os
import time
from typing import Any, Callable, Dict, Iterator, List, Optional, TypeVar, Union

from ._operations import Operations
from ._runtime import ApiError
from .models import (
    AssetResultsFeatureCollection,
    GetV2ProjectsByProjectIdStatusResponse,
    PostUserRestLoginBody,
    PostUserRestLoginResponse201,
    PostV2CreateProjectResponse,
    ResultsResponse,
)

T = TypeVar("T")

#: The status answer: project_id, name, status (queued, running, done, failed), progress 0-1, message, assets.
ProjectStatus = GetV2ProjectsByProjectIdStatusResponse

#: Answers that mean "not yet, ask again after Retry-After seconds": 409 while a project's analysis is queued or
#: running, 429 after too many attempts, 503 while the server starts or is busy.
RETRY_STATUSES = (409, 429, 503)


class TwoFactorRequired(Exception):
    """The account has two-factor authentication: call `login` again with `totp_code` (an e-mail code is on its way
    for the e-mail method)."""


class ProjectFailed(Exception):
    """The project's analysis ended in `failed`; `status` is the status answer (its `message` says why)."""

    def __init__(self, status: Dict[str, Any]):
        self.status = status
        super().__init__(f"project {status.get('project_id')}: analysis failed: {status.get('message')}")


class Client(Operations):
    """The Climate Risk Platform API.

    >>> api = Client("http://localhost:8080", token="crp_pat_...")   # a personal API token (read-only)
    >>> api = Client.from_env()                                        # CRP_BASE and CRP_TOKEN
    >>> api.login("me", "password", "COMPANY")                         # or a session token (can change data)

    One method per operation of docs/openapi.json (e.g. `post_v2_asset_results`), a few shorter names for the
    common ones (`asset_results`, `project_status`, `create_project`), and `wait_for_project`.
    """

    @classmethod
    def from_env(cls, **kwargs: Any) -> "Client":
        """`CRP_BASE` (default http://localhost:8080) and `CRP_TOKEN` (a `crp_pat_...` personal API token)."""
        return cls(os.environ.get("CRP_BASE"), token=os.environ.get("CRP_TOKEN"), **kwargs)

    @property
    def read_only(self) -> bool:
        """A personal API token (`crp_pat_...`) reads only; a session token may also change data."""
        return bool(self.token and self.token.startswith("crp_pat_"))

    def login(self, username: str, password: str, company_code: str, totp_code: Optional[str] = None) -> PostUserRestLoginResponse201:
        """Log in (`POST /api/user/rest_login/`) and use the session token from then on; answers the login body.

        A session token ends after 30 minutes unused and 12 hours after the login (the server's settings).
        Raises TwoFactorRequired when the account asks for a code and none was given, ApiError (401) on bad
        credentials.
        """
        body: PostUserRestLoginBody = {"username": username, "password": password, "company_code": company_code}
        if totp_code:
            body["totp_code"] = totp_code
        out = self.post_user_rest_login(body)
        if "token" not in out:  # 202 {"detail": "2FA_REQUIRED"}
            raise TwoFactorRequired(f"{username}: two-factor code required ({out.get('detail')}); login(..., totp_code=...)")
        self.token = out["token"]
        return out

    def when_ready(self, call: Callable[[], T], timeout: float = 900.0) -> T:
        """Run `call()`; while it answers 409, 429 or 503 with a `Retry-After`, wait that long and run it again.

        A 409 without `Retry-After` (a failed analysis) and every other error are raised at once, as is the last
        answer when `timeout` seconds have passed.
        """
        deadline = time.monotonic() + timeout
        while True:
            try:
                return call()
            except ApiError as e:
                if e.status not in RETRY_STATUSES or e.retry_after is None or time.monotonic() + e.retry_after > deadline:
                    raise
                time.sleep(e.retry_after)

    def wait_for_project(
        self,
        project_id: int,
        timeout: float = 900.0,
        poll_seconds: float = 2.0,
        on_progress: Optional[Callable[[ProjectStatus], None]] = None,
    ) -> ProjectStatus:
        """Poll the project's status until its analysis is done; answers the last status.

        Waits `poll_seconds` between polls, or the server's `Retry-After` when it answers 409, 429 or 503 with one
        (the results API's 409 while the analysis is queued or running says 5 s). `on_progress(status)` is called
        after each poll (`status["progress"]` 0-1). Raises ProjectFailed when the analysis failed, TimeoutError
        after `timeout` seconds.
        """
        deadline = time.monotonic() + timeout
        while True:
            status: ProjectStatus = self.when_ready(lambda: self.get_v2_projects_by_project_id_status(project_id), timeout)
            if on_progress:
                on_progress(status)
            if status["status"] == "done":
                return status
            if status["status"] == "failed":
                raise ProjectFailed(dict(status))
            if time.monotonic() + poll_seconds > deadline:
                raise TimeoutError(f"project {project_id}: still {status['status']} after {timeout:.0f} s")
            time.sleep(poll_seconds)

    # Shorter names for the operations a notebook calls most.

    def asset_results(
        self,
        body: Union[Dict[str, Any], str, None] = None,
        *,
        format: Optional[str] = None,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        timeout: float = 900.0,
        **fields: Any,
    ) -> Union[ResultsResponse, str, AssetResultsFeatureCollection, bytes, List[Dict[str, Any]]]:
        """`POST /api/v2/asset_results/` (`post_v2_asset_results`); while the project is analysed (409 with
        Retry-After) it waits and asks again, up to `timeout` seconds.

        The body as a dict or as keywords (`asset_results(project_id=42, years=[2050])`); or the assets as CSV text
        with a header row (the upload template's columns) or a GeoJSON FeatureCollection of Point features, the
        options then as keywords (`asset_results(csv_text, hazards=["typhoon"], years=[2050])`: sent in the query
        string). `format="csv"` answers the CSV text, `"geojson"` a FeatureCollection, `"ndjson"` a list of rows,
        `"parquet"` the bytes of an Apache Parquet file (`pandas.read_parquet(io.BytesIO(data))`). `limit` rows a
        page and the previous page's `cursor` (`next_cursor`; `self.last_headers["X-Next-Cursor"]` in every format)
        page through a large project; `iter_asset_results` does it for you.
        """
        page = {"limit": limit, "cursor": cursor}
        if isinstance(body, str) or (isinstance(body, dict) and body.get("type") == "FeatureCollection"):
            media = "text/csv" if isinstance(body, str) else "application/geo+json"
            query = {k: ",".join(str(x) for x in v) if isinstance(v, (list, tuple)) else str(v).lower() if isinstance(v, bool) else str(v) for k, v in fields.items()}
            table_body = body
            return self.when_ready(lambda: self.post_v2_asset_results(table_body, format=format, content_type=media, **page, **query), timeout)  # type: ignore[arg-type]
        request = {**(body or {}), **fields}
        return self.when_ready(lambda: self.post_v2_asset_results(request, format=format, **page), timeout)  # type: ignore[arg-type]

    def iter_asset_results(self, body: Union[Dict[str, Any], None] = None, *, page_size: int = 50_000, **fields: Any) -> Iterator[Dict[str, Any]]:
        """Every row of a results request, page by page (`page_size` rows a call, as JSON lines), in answer order:
        `for row in api.iter_asset_results(project_id=42): ...` reads a project of any size in constant memory."""
        cursor: Optional[str] = None
        while True:
            rows = self.asset_results(body, format="ndjson", limit=page_size, cursor=cursor, **fields)
            yield from rows  # type: ignore[misc]
            cursor = self.last_headers.get("X-Next-Cursor")
            if not cursor:
                return

    def project_status(self, project_id: int) -> ProjectStatus:
        """`GET /api/v2/projects/{projectId}/status/`: queued, running, done or failed, and progress 0-1."""
        return self.get_v2_projects_by_project_id_status(project_id)

    def create_project(self, name: str, assets: Any, hazards: Any, **fields: Any) -> PostV2CreateProjectResponse:
        """`POST /api/v2/create_project/`: a physical-risk portfolio from a list of assets (the upload template's
        fields), its analysis queued; `hazards` as the app names them ("Typhoon", "River Flood", ...). Needs a
        session token (`login`): a personal API token is read-only."""
        body = {"portfolio_name": name, "data": assets, "portfolio_variables": hazards, **fields}
        return self.post_v2_create_project(body)  # type: ignore[arg-type]
