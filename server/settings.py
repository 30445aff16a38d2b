"""One Settings class, read from the environment; it refuses unsafe configurations."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta
from functools import lru_cache
from ipaddress import ip_address
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlparse

from neo4j import Driver, GraphDatabase
from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from graph_schema.core.secrets import Policy as SecretsPolicy
from graph_schema.core.types import SourceKind
from graph_schema.lifecycle.rules import DEFAULT_BOUND, TRUSTED_SOURCES, Policy
from graph_schema.procedures.mine import DEFAULT_MIN_SUPPORT
from graph_schema.quarantine.types import Retention
from graph_schema.recall.fusion import DEFAULT_EXACT_LIMIT, FusionConfig
from ingest.distill.nlp import default_model_path as default_english_model
from ingest.embeddings.cjk import EmbeddingReader, default_cjk_model_path, make_reader
from ingest.embeddings.embedder import DEFAULT_BATCH_SIZE, DEFAULT_CACHE_SIZE, make_embedder
from ingest.embeddings.model import Embedder, default_model_path
from ingest.gate import DEFAULT_MAX_FUTURE
from ingest.lifecycle.sleep import SleepConfig

# refused for a non-loopback store, in any case: the well-known ones, this project's compose
# default (every reader of the repository knows it) and the commonest (a new user's trial
# started a server on each of the last four)
WEAK_PASSWORDS = frozenset({
    "", "neo4j", "password", "changeme", "secret", "test", "tractatus-dev-only", "neo4jneo4j",
    "12345678", "123456789", "1234567890", "admin", "letmein", "qwerty", "neo4j123",
})  # fmt: skip
MIN_REMOTE_PASSWORD = 12  # characters of a password for a non-loopback store


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
    # the model that reads a CJK query and its first candidates (docs/recall.md "CJK queries")
    cjk_embedding_model: str = Field(default_factory=default_cjk_model_path)
    embed_batch_size: int = Field(DEFAULT_BATCH_SIZE, ge=1, le=4_096)
    embed_cache_size: int = Field(DEFAULT_CACHE_SIZE, ge=0, le=1_000_000)
    embed_replicas: int = Field(2, ge=1, le=64)
    embed_processes: bool = True
    max_observation_batch: int = Field(256, ge=1, le=4_096)
    # how far an observation's or an event's occurred_at may lie ahead of the server's clock
    max_future: timedelta = DEFAULT_MAX_FUTURE
    retain_raw_text: bool = True
    # a write holding a secret's shape: refused (422 secret_detected), or stored as sent
    # ("allow": unsafe on a shared server; docs/security.md "Secrets")
    secrets: SecretsPolicy = "refuse"
    english_model: str = Field(default_factory=default_english_model)
    llm_url: str | None = None
    llm_model: str = "qwen2.5:7b-instruct"
    llm_timeout: float = Field(60.0, gt=0)
    llm_retries: int = Field(2, ge=0, le=10)
    llm_api_key: SecretStr | None = None
    # what the gate refused: kept this long, and at most this many (the newest)
    quarantine_retention_days: float = Field(90.0, gt=0)
    quarantine_max_items: int = Field(100_000, ge=1)
    # the memory lifecycle (docs/lifecycle.md); durations: seconds or ISO 8601 ("P180D")
    working_memory_bound: int = Field(DEFAULT_BOUND, ge=1, le=10_000_000)
    promote_confidence: float = Field(0.8, ge=0, le=1)
    trusted_sources: Annotated[list[SourceKind], NoDecode] = Field(
        default_factory=lambda: sorted(TRUSTED_SOURCES)
    )
    corroboration_sources: int = Field(2, ge=2, le=100)
    ephemeral_ttl: timedelta = timedelta(days=1)
    dormant_after: timedelta = timedelta(days=180)
    sleep_interval: timedelta | None = None
    sleep_lease: timedelta = timedelta(seconds=60)
    sleep_batch: int = Field(500, ge=1, le=100_000)
    # a sleep mines procedures seen in at least this many tasks (0: none; docs/procedures.md)
    procedure_min_support: int = Field(DEFAULT_MIN_SUPPORT, ge=0, le=1_000_000)
    access_log: bool = True
    access_log_queue: int = Field(10_000, ge=1, le=10_000_000)
    access_log_flush: float = Field(1.0, gt=0, le=3_600)
    # an unreachable store: the driver's own bounds, the probes', the 503's Retry-After
    # (seconds; docs/operations.md)
    neo4j_connection_timeout: float = Field(2.0, gt=0, le=300)
    neo4j_acquisition_timeout: float = Field(3.0, gt=0, le=300)
    neo4j_retry_time: float = Field(3.0, ge=0, le=300)
    probe_timeout: float = Field(0.5, gt=0, le=5)
    retry_after: int = Field(5, ge=1, le=3_600)
    # requests per second per principal, and the burst (0: off; per replica; docs/operations.md)
    rate_limit: float = Field(0.0, ge=0, le=1_000_000)
    rate_burst: int = Field(100, ge=1, le=1_000_000)
    # the server's log (docs/operations.md): one JSON object per line, or text for people
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    log_format: Literal["json", "text"] = "json"

    @field_validator("trusted_sources", mode="before")
    @classmethod
    def _comma_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator(
        "ephemeral_ttl",
        "dormant_after",
        "sleep_interval",
        "sleep_lease",
        "max_future",
        mode="before",
    )
    @classmethod
    def _seconds(cls, value: Any) -> Any:
        """A duration is a number of seconds ("86400") or an ISO 8601 duration ("P1D")."""
        # a sign too, so that "-5" is refused as negative, not as a malformed duration
        if isinstance(value, str) and re.fullmatch(r"\s*[-+]?\d+(\.\d+)?\s*", value):
            return float(value)
        return value

    @field_validator("max_future")
    @classmethod
    def _not_negative(cls, value: timedelta) -> timedelta:
        if value.total_seconds() < 0:
            raise ValueError("a duration may not be negative")
        return value

    # a dormancy or an ephemeral lifetime of 0 would silence every long-term fact (or expire
    # every ephemeral one) at the next sleep: a new operator's trial found 0 accepted
    @field_validator("sleep_interval", "sleep_lease", "dormant_after", "ephemeral_ttl")
    @classmethod
    def _positive(cls, value: timedelta | None) -> timedelta | None:
        if value is not None and value.total_seconds() <= 0:
            raise ValueError("must be a positive duration")
        return value

    def lifecycle_policy(self) -> Policy:
        """The lifecycle rules' settings, read once and passed down."""
        return Policy(
            promote_confidence=self.promote_confidence,
            trusted_sources=frozenset(s.value for s in self.trusted_sources),
            corroboration_sources=self.corroboration_sources,
            working_memory_bound=self.working_memory_bound,
            ephemeral_ttl=self.ephemeral_ttl,
            dormant_after=self.dormant_after,
        )

    def sleep_config(self) -> SleepConfig:
        return SleepConfig(
            lease=self.sleep_lease,
            batch=self.sleep_batch,
            min_support=self.procedure_min_support,
        )

    # recall: steps switched off, a comma list in the environment (ablations; docs/recall.md)
    recall_disable: Annotated[frozenset[str], NoDecode] = frozenset()
    # plan recall's statements in the background at start (graph_schema/recall/warm.py)
    recall_warm_up: bool = True
    # recall: up to this many readable nodes of a kind, vector candidates are an exact scan
    # of what the caller may see (0: always the vector index; docs/security.md "Timing")
    recall_exact_limit: int = Field(DEFAULT_EXACT_LIMIT, ge=0, le=100_000)

    @field_validator("recall_disable", mode="before")
    @classmethod
    def _step_list(cls, value: object) -> object:
        if isinstance(value, str):
            return frozenset(name.strip() for name in value.split(",") if name.strip())
        return value

    @field_validator("recall_disable")
    @classmethod
    def _known_steps(cls, value: frozenset[str]) -> frozenset[str]:
        FusionConfig.disabling(value)  # a ValueError naming an unknown step
        return value

    def fusion(self) -> FusionConfig:
        """Recall's fusion configuration: the defaults minus ``recall_disable``."""
        config = FusionConfig.disabling(self.recall_disable)
        return replace(config, exact_limit=self.recall_exact_limit)

    @model_validator(mode="after")
    def _acquisition_covers_connection(self) -> Settings:
        # acquiring a connection may open one: a shorter bound would cut every new connection
        if self.neo4j_acquisition_timeout < self.neo4j_connection_timeout:
            raise ValueError(
                "TRACTATUS_NEO4J_ACQUISITION_TIMEOUT must be at least"
                " TRACTATUS_NEO4J_CONNECTION_TIMEOUT"
            )
        return self

    @model_validator(mode="after")
    def _refuse_unsafe(self) -> Settings:
        password = self.neo4j_password.get_secret_value()
        weak = password.lower() in WEAK_PASSWORDS or len(password) < MIN_REMOTE_PASSWORD
        if weak and not _is_loopback(self.neo4j_uri):
            raise ValueError(
                "refusing a missing, well-known or short Neo4j password for a non-loopback"
                f" server; set NEO4J_PASSWORD (at least {MIN_REMOTE_PASSWORD} characters)"
            )
        return self

    @property
    def quarantine_retention(self) -> Retention:
        return Retention(
            max_items=self.quarantine_max_items,
            max_age=timedelta(days=self.quarantine_retention_days),
        )


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()


class PrincipalsSetting(BaseSettings):
    """``TRACTATUS_PRINCIPALS`` alone: what ``tractatus dev-principals`` reads, which needs no
    other setting and is not stopped by one refused (README "Configuration")."""

    model_config = SettingsConfigDict(extra="ignore", populate_by_name=True)

    principals: Path | None = Field(None, validation_alias="TRACTATUS_PRINCIPALS")


def settings_embedder(settings: Settings) -> Embedder | None:
    """The embedder the settings name (None: embeddings off); the model loads on first use."""
    return make_embedder(
        settings.embedding_model,
        batch_size=settings.embed_batch_size,
        cache_size=settings.embed_cache_size,
        replicas=settings.embed_replicas,
        processes=settings.embed_processes,
    )


def settings_cjk_reader(settings: Settings) -> EmbeddingReader | None:
    """The CJK reader the settings name (None: off); its model loads on first use."""
    return make_reader(settings.cjk_embedding_model, cache_size=settings.embed_cache_size)


def open_driver(settings: Settings, *, probe: bool = False) -> Driver:
    """The one place a driver is made: auth from settings, server notifications off, and the
    driver's own bounds on an unreachable store (opening a connection, acquiring one from the
    pool, retrying a transaction), so that a request fails with 503 instead of hanging.

    ``probe``: the small driver of the health probes, bounded by ``probe_timeout`` and never
    retrying, so that ``/healthz`` and ``/readyz`` answer within a second.
    """
    connect = settings.probe_timeout if probe else settings.neo4j_connection_timeout
    acquire = settings.probe_timeout if probe else settings.neo4j_acquisition_timeout
    return GraphDatabase.driver(
        settings.neo4j_uri,
        auth=(settings.neo4j_user, settings.neo4j_password.get_secret_value()),
        notifications_min_severity="OFF",
        connection_timeout=connect,
        connection_acquisition_timeout=acquire,
        max_transaction_retry_time=0.0 if probe else settings.neo4j_retry_time,
        max_connection_pool_size=2 if probe else 100,  # 100: the driver's default
    )
