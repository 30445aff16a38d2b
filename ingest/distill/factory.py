"""Choose the distiller from settings: the LLM one only when a URL is configured explicitly."""

from __future__ import annotations

from ingest.distill.base import Distiller
from ingest.distill.llm import LlmDistiller
from ingest.distill.offline import OfflineDistiller


def make_distiller(
    *,
    llm_url: str | None,
    llm_model: str,
    llm_timeout: float,
    llm_retries: int,
    llm_api_key: str | None,
) -> Distiller:
    """An :class:`LlmDistiller` for ``llm_url`` (``TRACTATUS_LLM_URL``), else the offline one.

    A blank URL counts as none, so an empty variable in a compose file keeps the default.
    """
    if llm_url is None or not llm_url.strip():
        return OfflineDistiller()
    return LlmDistiller(
        url=llm_url.strip(),
        model=llm_model,
        timeout=llm_timeout,
        retries=llm_retries,
        api_key=llm_api_key or None,
    )
