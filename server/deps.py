"""FastAPI dependencies: settings, the driver, the caller's identity."""

from __future__ import annotations

from types import UnionType
from typing import Annotated, Union, get_args, get_origin

from fastapi import Depends, Request, Security
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from neo4j import Driver

from graph_schema.core.errors import AuthenticationFailed, PermissionDenied
from graph_schema.core.types import Principal
from graph_schema.recall.cjk import Reader
from graph_schema.recall.fusion import FusionConfig
from graph_schema.schema.space import Guard
from ingest.distill.base import Distiller
from ingest.embeddings.model import Embedder
from ingest.lifecycle.access_log import AccessLog
from ingest.lifecycle.consolidate import Lifecycle
from server.settings import Settings


def _is_sequence(annotation: object) -> bool:
    """Whether a query parameter's type takes several values (``?tier=a&tier=b``)."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _is_sequence(get_args(annotation)[0])
    if origin in (Union, UnionType):
        return any(_is_sequence(arg) for arg in get_args(annotation))
    return origin in (list, tuple, set, frozenset) or annotation in (list, tuple, set, frozenset)


def _query_params(dependant: Dependant) -> dict[str, bool]:
    """The route's query parameters, each with whether it takes several values."""
    names = {f.alias: _is_sequence(f.field_info.annotation) for f in dependant.query_params}
    for dependency in dependant.dependencies:
        names |= _query_params(dependency)
    return names


def _refusal(name: str, message: str, kind: str) -> dict[str, object]:
    return {"loc": ("query", name), "msg": message, "type": kind}


def known_query(request: Request) -> None:
    """Refuse a query parameter the route does not declare (422): a misspelt ``as_of`` would
    otherwise be ignored, and the question answered for another time than the one asked. A
    parameter of one value given twice is refused too, rather than one of them being
    silently taken."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute):
        return
    declared = _query_params(route.dependant)
    given = request.query_params
    errors = [
        _refusal(name, "unknown query parameter", "extra_forbidden")
        for name in sorted(set(given) - set(declared))
    ] + [
        _refusal(name, "given more than once: this parameter takes one value", "repeated")
        for name in sorted(set(given) & set(declared))
        if not declared[name] and len(given.getlist(name)) > 1
    ]
    if errors:
        raise RequestValidationError(errors)


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
    """The embedder, once the store's vectors are known to come from its model (checked at
    start, or here when the store could not be reached then: graph_schema/schema/space.py)."""
    embedder: Embedder | None = request.app.state.embedder
    guard: Guard | None = getattr(request.app.state, "space", None)
    if guard is not None:
        guard.ensure()
    return embedder


def get_cjk_reader(request: Request) -> Reader | None:
    """The model that reads a CJK query (None: off; docs/recall.md "CJK queries")."""
    reader: Reader | None = request.app.state.cjk_reader
    return reader


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
CjkReaderDep = Annotated[Reader | None, Depends(get_cjk_reader)]
FusionDep = Annotated[FusionConfig, Depends(get_fusion)]
DriverDep = Annotated[Driver, Depends(get_driver)]
PrincipalDep = Annotated[Principal, Depends(get_principal)]
AdminDep = Annotated[Principal, Depends(get_admin)]
