"""The HTTP machinery under the generated operations: standard library only (urllib, json, uuid).

Written by hand; `_operations.py` and `models.py` beside it are generated from docs/openapi.json by
scripts/generate-python-client.mjs and call `BaseClient._request` once per operation.
"""

from __future__ import annotations

import json
import mimetypes
import os
import urllib.error
import urllib.parse
import urllib.request
import uuid
from email.message import Message
from typing import IO, Any, Dict, List, Mapping, Optional, Tuple, Union

#: Answer headers: an http.client.HTTPMessage, whose `get` ignores the case of the name.
Headers = Union[Message, Mapping[str, str]]

#: A multipart file part: the raw bytes, an open binary file, or (filename, bytes or file[, content type]).
FileField = Union[bytes, IO[bytes], Tuple[str, Union[bytes, IO[bytes]]], Tuple[str, Union[bytes, IO[bytes]], str]]

DEFAULT_BASE_URL = "http://localhost:8080"  # the server's default port (PORT)


class ApiError(Exception):
    """An error answer of the API (4xx or 5xx).

    The server answers `{"detail": ..., "errors": [{"field": ..., "message": ...}]}`; `field` and `message` are those
    of the first named error (or None and `detail`). `retry_after` is the `Retry-After` header in seconds (409 while
    a project's analysis is queued or running, 429 after too many attempts), else None.
    """

    def __init__(self, method: str, path: str, status: int, body: Any, headers: Headers):
        self.method = method
        self.path = path
        self.status = status
        self.body = body
        self.headers = headers  # case-insensitive (http.client.HTTPMessage)
        parsed = body if isinstance(body, dict) else {}
        self.detail: str = str(parsed.get("detail") or (body if isinstance(body, str) and body else f"HTTP {status}"))
        self.errors: List[Dict[str, str]] = [e for e in parsed.get("errors") or [] if isinstance(e, dict)]
        self.field: Optional[str] = self.errors[0].get("field") if self.errors else None
        self.message: str = self.errors[0].get("message", self.detail) if self.errors else self.detail
        retry = headers.get("Retry-After") or parsed.get("retry_after_seconds")
        try:
            self.retry_after: Optional[float] = float(retry) if retry is not None else None
        except ValueError:
            self.retry_after = None
        # the detail usually repeats the first error ("hazard: unknown key ..."); name the field when it does not
        where = f" ({self.field}: {self.message})" if self.field and self.message not in self.detail else ""
        super().__init__(f"{method} {path}: {status} {self.detail}{where}")


def _decode(content_type: str, raw: bytes) -> Any:
    """JSON answers parsed, JSON lines as a list, text answers (CSV) as str, anything else (GeoPackage, GeoTIFF,
    Parquet, PNG, PDF) as bytes."""
    media = content_type.split(";")[0].strip().lower()
    if media == "application/x-ndjson":
        return [json.loads(line) for line in raw.decode("utf-8").splitlines() if line.strip()]
    if media == "application/json" or media.endswith("+json"):
        return json.loads(raw.decode("utf-8")) if raw else None
    if media.startswith("text/"):
        charset = "utf-8"
        for part in content_type.split(";")[1:]:
            key, _, value = part.strip().partition("=")
            if key.lower() == "charset" and value:
                charset = value.strip('"')
        return raw.decode(charset)
    return raw


def _multipart(fields: Mapping[str, Any], files: Mapping[str, FileField]) -> Tuple[bytes, str]:
    boundary = "crp-" + uuid.uuid4().hex
    out = bytearray()
    for name, value in fields.items():
        if value is None:
            continue
        text = value if isinstance(value, str) else json.dumps(value) if isinstance(value, (dict, list, bool)) else str(value)
        out += f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
        out += text.encode("utf-8") + b"\r\n"
    for name, spec in files.items():
        if isinstance(spec, tuple):
            filename, content = spec[0], spec[1]
            ctype = spec[2] if len(spec) > 2 else None  # type: ignore[misc]
        else:
            content = spec
            filename = os.path.basename(getattr(spec, "name", name) or name)
            ctype = None
        data = content if isinstance(content, (bytes, bytearray)) else content.read()
        ctype = ctype or mimetypes.guess_type(filename)[0] or "application/octet-stream"
        out += (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            f"Content-Type: {ctype}\r\n\r\n"
        ).encode()
        out += bytes(data) + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return bytes(out), f"multipart/form-data; boundary={boundary}"


class BaseClient:
    """Base URL, token and one `_request` that every generated operation calls.

    `token` is a personal API token (`crp_pat_...`, read-only, made on /setup) or a session token from
    `POST /api/user/rest_login/` (`Client.login`); it is sent as `Authorization: Token <token>` on every operation
    that needs one.
    """

    def __init__(self, base_url: Optional[str] = None, token: Optional[str] = None, timeout: float = 300.0):
        self.base_url = (base_url or os.environ.get("CRP_BASE") or DEFAULT_BASE_URL).rstrip("/")
        self.token = token
        self.timeout = timeout
        #: The status and headers of the last answer (e.g. `X-Cell-Size-Deg` of a COG; names in any case).
        self.last_status: Optional[int] = None
        self.last_headers: Headers = {}

    def _request(
        self,
        method: str,
        path: str,
        *,
        path_params: Optional[Mapping[str, Any]] = None,
        query: Optional[Mapping[str, Any]] = None,
        headers: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        files: Optional[Mapping[str, FileField]] = None,
        media: Optional[str] = None,
        auth: bool = True,
    ) -> Any:
        for name, value in (path_params or {}).items():
            path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
        pairs: List[Tuple[str, str]] = []
        for name, value in (query or {}).items():
            if value is None:
                continue
            for item in value if isinstance(value, (list, tuple)) else [value]:
                pairs.append((name, ("true" if item else "false") if isinstance(item, bool) else str(item)))
        url = self.base_url + path + ("?" + urllib.parse.urlencode(pairs) if pairs else "")
        send: Dict[str, str] = {"accept": "application/json, */*;q=0.5", "user-agent": "crp-client-python"}
        for name, value in (headers or {}).items():
            if value is not None:
                send[name] = str(value)
        if auth and self.token:
            send["authorization"] = f"Token {self.token}"
        data: Optional[bytes] = None
        if files or media == "multipart/form-data":
            data, send["content-type"] = _multipart(body or {}, files or {})
        elif isinstance(body, str):  # a CSV body
            data = body.encode("utf-8")
            send["content-type"] = (media if media and media.startswith("text/") else "text/csv") + "; charset=utf-8"
        elif isinstance(body, (bytes, bytearray)):
            data = bytes(body)
            send["content-type"] = media or "application/octet-stream"
        elif body is not None:
            data = json.dumps(body).encode("utf-8")
            send["content-type"] = media or "application/json"
        req = urllib.request.Request(url, data=data, method=method, headers=send)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                self.last_status, self.last_headers = r.status, r.headers
                return _decode(r.headers.get("content-type", ""), r.read())
        except urllib.error.HTTPError as e:
            raw = e.read()
            self.last_status, self.last_headers = e.code, e.headers
            try:
                parsed = _decode(e.headers.get("content-type", "") or "text/plain", raw)
            except ValueError:
                parsed = raw.decode("utf-8", "replace")
            raise ApiError(method, path, e.code, parsed, e.headers) from None
