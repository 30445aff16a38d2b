"""Choose the distiller from settings: the LLM one only when a URL is configured explicitly."""

from __future__ import annotations

from ingest.distill.base import Distiller
from ingest.distill.llm import LlmDistiller
from ingest.distill.nlp import DISABLED, EnglishParser, checked, default_model_path
from ingest.distill.offline import OfflineDistiller


def make_distiller(
    *,
    llm_url: str | None,
    llm_model: str,
    llm_timeout: float,
    llm_retries: int,
    llm_api_key: str | None,
    english_model: str | None = None,
) -> Distiller:
    """An :class:`LlmDistiller` for ``llm_url`` (``TRACTATUS_LLM_URL``), else the offline one
    with the English model of ``english_model`` (``TRACTATUS_ENGLISH_MODEL``: a directory;
    ``none``: no parser; None: the installed one), checked here so that a missing model
    stops the server at start (``parser_unavailable``).

    A blank URL counts as none, so an empty variable in a compose file keeps the default.
    """
    if llm_url is None or not llm_url.strip():
        if english_model is not None and english_model.strip().lower() in DISABLED:
            return OfflineDistiller(english=False)
        path = checked(english_model if english_model is not None else default_model_path())
        return OfflineDistiller(EnglishParser(path))
    return LlmDistiller(
        url=llm_url.strip(),
        model=llm_model,
        timeout=llm_timeout,
        retries=llm_retries,
        api_key=llm_api_key or None,
    )
