"""FastAPI dependencies: settings, the driver, the caller's identity."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from neo4j import Driver

from graph_schema.core.errors import AuthenticationFailed, PermissionDenied
from graph_schema.core.types import Principal
from graph_schema.recall.fusion import FusionConfig
from ingest.distill.base import Distiller
from ingest.embeddings.model import Embedder
from server.settings import Settings


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_driver(request: Request) -> Driver:
    driver: Driver = request.app.state.driver
    return driver


def get_principal(request: Request) -> Principal:
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


def get_fusion(request: Request) -> FusionConfig:
    """Recall's fusion configuration, built once from the settings when the app was made."""
    fusion: FusionConfig = request.app.state.fusion
    return fusion


SettingsDep = Annotated[Settings, Depends(get_settings)]
DistillerDep = Annotated[Distiller, Depends(get_distiller)]
EmbedderDep = Annotated[Embedder | None, Depends(get_embedder)]
FusionDep = Annotated[FusionConfig, Depends(get_fusion)]
DriverDep = Annotated[Driver, Depends(get_driver)]
PrincipalDep = Annotated[Principal, Depends(get_principal)]
AdminDep = Annotated[Principal, Depends(get_admin)]
