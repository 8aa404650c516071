"""Python client of the Climate Risk Platform API (standard library only).

    from crp_client import Client, ApiError
    api = Client("http://localhost:8080", token="crp_pat_...")
    rows = api.asset_results(project_id=42, scenarios=["85"], years=[2050])["results"]

`Client` has one method per operation of docs/openapi.json (generated into `_operations.py`, types in `models`),
`login`, `wait_for_project` and `asset_results`. See README.md.
"""

from . import models
from ._operations import OPERATIONS
from ._runtime import DEFAULT_BASE_URL, ApiError, BaseClient
from .client import Client, ProjectFailed, ProjectStatus, TwoFactorRequired

__version__ = "0.1.0"

__all__ = [
    "ApiError",
    "BaseClient",
    "Client",
    "DEFAULT_BASE_URL",
    "OPERATIONS",
    "ProjectFailed",
    "ProjectStatus",
    "TwoFactorRequired",
    "models",
]
