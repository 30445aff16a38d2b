"""FastAPI dependencies: settings, the driver, the caller's identity."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Security
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from neo4j import Driver

from graph_schema.core.errors import AuthenticationFailed, PermissionDenied
from graph_schema.core.types import Principal
from graph_schema.recall.fusion import FusionConfig
from ingest.distill.base import Distiller
from ingest.embeddings.model import Embedder
from ingest.lifecycle.access_log import AccessLog
from ingest.lifecycle.consolidate import Lifecycle
from server.settings import Settings


def _query_names(dependant: Dependant) -> set[str]:
    names = {field.alias for field in dependant.query_params}
    for dependency in dependant.dependencies:
        names |= _query_names(dependency)
    return names


def known_query(request: Request) -> None:
    """Refuse a query parameter the route does not declare (422): a misspelt ``as_of`` would
    otherwise be ignored, and the question answered for another time than the one asked."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute):
        return
    unknown = sorted(set(request.query_params) - _query_names(route.dependant))
    if unknown:
        raise RequestValidationError(
            [
                {
                    "loc": ("query", name),
                    "msg": "unknown query parameter",
                    "type": "extra_forbidden",
                }
                for name in unknown
            ]
        )


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_driver(request: Request) -> Driver:
    driver: Driver = request.app.state.driver
    return driver


# Declares the bearer scheme of every /v1 operation in the OpenAPI document. The key itself was
# checked before the route ran, by server.middleware.Authenticate (before the body is read).
BEARER = HTTPBearer(
    auto_error=False, scheme_name="bearer", description="a key of the principals file"
)


def get_principal(
    request: Request, _: Annotated[HTTPAuthorizationCredentials | None, Security(BEARER)]
) -> Principal:
    """The caller, resolved by :class:`server.middleware.Authenticate` before the body."""
    principal = getattr(request.state, "principal", None)
    if not isinstance(principal, Principal):
        raise AuthenticationFailed("a valid bearer key is required")
    return principal


def get_admin(principal: Annotated[Principal, Depends(get_principal)]) -> Principal:
    if not principal.is_admin:
        raise PermissionDenied("this operation needs the admin role")
    return principal


def get_distiller(request: Request) -> Distiller:
    distiller: Distiller = request.app.state.distiller
    return distiller


def get_embedder(request: Request) -> Embedder | None:
    embedder: Embedder | None = request.app.state.embedder
    return embedder


def get_lifecycle(request: Request) -> Lifecycle:
    life: Lifecycle = request.app.state.lifecycle
    return life


def get_access_log(request: Request) -> AccessLog | None:
    """The access log (None when ``TRACTATUS_ACCESS_LOG`` is off)."""
    log: AccessLog | None = request.app.state.access_log
    return log


def get_fusion(request: Request) -> FusionConfig:
    """Recall's fusion configuration, built once from the settings when the app was made."""
    fusion: FusionConfig = request.app.state.fusion
    return fusion


SettingsDep = Annotated[Settings, Depends(get_settings)]
LifecycleDep = Annotated[Lifecycle, Depends(get_lifecycle)]
AccessLogDep = Annotated[AccessLog | None, Depends(get_access_log)]
DistillerDep = Annotated[Distiller, Depends(get_distiller)]
EmbedderDep = Annotated[Embedder | None, Depends(get_embedder)]
FusionDep = Annotated[FusionConfig, Depends(get_fusion)]
DriverDep = Annotated[Driver, Depends(get_driver)]
PrincipalDep = Annotated[Principal, Depends(get_principal)]
AdminDep = Annotated[Principal, Depends(get_admin)]
