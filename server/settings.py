"""One Settings class, read from the environment; it refuses unsafe configurations."""

from __future__ import annotations

from functools import lru_cache
from ipaddress import ip_address
from pathlib import Path
from urllib.parse import urlparse

from neo4j import Driver, GraphDatabase
from pydantic import AliasChoices, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from ingest.distill.nlp import default_model_path as default_english_model
from ingest.embeddings.embedder import DEFAULT_BATCH_SIZE, DEFAULT_CACHE_SIZE
from ingest.embeddings.model import default_model_path

WEAK_PASSWORDS = frozenset({"", "neo4j", "password", "changeme", "secret", "test"})


def _is_loopback(uri: str) -> bool:
    host = urlparse(uri).hostname or ""
    if host == "localhost":
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="TRACTATUS_", extra="ignore", populate_by_name=True
    )

    neo4j_uri: str = Field(
        "bolt://127.0.0.1:7687", validation_alias=AliasChoices("NEO4J_URI", "TRACTATUS_NEO4J_URI")
    )
    neo4j_user: str = Field("neo4j", validation_alias=AliasChoices("NEO4J_USER", "NEO4J_USERNAME"))
    neo4j_password: SecretStr = Field(SecretStr(""), validation_alias="NEO4J_PASSWORD")
    neo4j_database: str = Field("neo4j", validation_alias="NEO4J_DATABASE")
    principals: Path | None = Field(None, validation_alias="TRACTATUS_PRINCIPALS")
    max_body_bytes: int = Field(8 * 1024 * 1024, ge=1024)
    max_batch: int = Field(1_000, ge=1, le=10_000)
    # observations: embeddings, distiller, raw-text retention (docs/ingestion.md)
    embedding_model: str = Field(default_factory=default_model_path)
    embed_batch_size: int = Field(DEFAULT_BATCH_SIZE, ge=1, le=4_096)
    embed_cache_size: int = Field(DEFAULT_CACHE_SIZE, ge=0, le=1_000_000)
    embed_replicas: int = Field(2, ge=1, le=64)
    embed_processes: bool = True
    max_observation_batch: int = Field(256, ge=1, le=4_096)
    retain_raw_text: bool = True
    english_model: str = Field(default_factory=default_english_model)
    llm_url: str | None = None
    llm_model: str = "qwen2.5:7b-instruct"
    llm_timeout: float = Field(60.0, gt=0)
    llm_retries: int = Field(2, ge=0, le=10)
    llm_api_key: SecretStr | None = None

    @model_validator(mode="after")
    def _refuse_unsafe(self) -> Settings:
        weak = self.neo4j_password.get_secret_value() in WEAK_PASSWORDS
        if weak and not _is_loopback(self.neo4j_uri):
            raise ValueError(
                "refusing a missing or well-known Neo4j password for a non-loopback server;"
                " set NEO4J_PASSWORD"
            )
        return self


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()


def open_driver(settings: Settings) -> Driver:
    """The one place a driver is made: auth from settings, server notifications off."""
    return GraphDatabase.driver(
        settings.neo4j_uri,
        auth=(settings.neo4j_user, settings.neo4j_password.get_secret_value()),
        notifications_min_severity="OFF",
    )
