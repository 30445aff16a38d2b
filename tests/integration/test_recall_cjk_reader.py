"""A CJK question read by the CJK model (graph_schema/recall/cjk.py, ingest/embeddings/cjk.py):
the shipped embedding model is English, so a Chinese question said in other words than its
answer's was ``not_found`` on coverage alone; the second model reads the question and the
first groups, puts them in its order and lifts the status. Written as a new user writes
(observations over HTTP, recall straight after), with the real bge-small-zh model."""

from __future__ import annotations

from typing import Any

import pytest

from server.settings import Settings
from tests.helpers import Api, recall_in, serving_with, serving_without, write_chat

pytestmark = pytest.mark.integration

CHAT = [
    ("林姐", "新的陶土供应商叫山川陶料，起订量是二十袋，每袋二十五公斤。"),
    ("阿杰", "下周三我要带女儿去看牙医，那天下午请个假。"),
    ("林姐", "烧窑的温度我们一般设在一千二百三十度左右，釉色最稳定。"),
    ("阿杰", "店里的网站下个月改版，新的页面设计由小周负责。"),
    ("林姐", "上个月的电费比平时高了不少，大概是因为窑多烧了三次。"),
]
# said in other words than the turn: its bigrams cover a third of it (the lexical rule wants
# 0.35), the CJK model reads it close (a cosine ~0.76, over its 0.58)
PARAPHRASED = "窑烧到多少度釉色最好？"
NEVER_SAID = "店里的咖啡机是什么牌子的？"


@pytest.fixture(scope="module")
def chat(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], CHAT)


def first_text(answer: dict[str, Any]) -> str:
    quote: str = answer["results"][0]["evidence"][0]["quote"]
    return quote


def test_a_chinese_question_in_other_words_is_answered_by_the_cjk_model(
    api: dict[str, Api], chat: str
) -> None:
    answer = recall_in(api["bob"], PARAPHRASED, chat)
    assert answer["status"] == "answered", answer["relevance"]
    assert "烧窑的温度" in first_text(answer)
    why = answer["results"][0]["why"]
    assert why["similarity"] is not None and 0.0 < why["similarity"] <= 1.0


def test_without_the_cjk_model_the_same_question_is_read_lexically(
    settings: Settings, chat: str
) -> None:
    """``TRACTATUS_RECALL_DISABLE=cjk``: coverage alone, as before the model, refuses it."""
    with serving_without(settings, {"cjk"}) as served:
        answer = recall_in(served, PARAPHRASED, chat)
    assert answer["status"] == "not_found", answer["relevance"]
    assert all(r["why"]["similarity"] is None for r in answer["results"])
    assert all("cjk" not in r["why"]["boosts"] for r in answer["results"])


def test_a_chinese_question_nothing_answers_stays_not_found(api: dict[str, Api], chat: str) -> None:
    answer = recall_in(api["bob"], NEVER_SAID, chat)
    assert answer["status"] == "not_found", answer["relevance"]


def test_an_english_question_is_not_read_by_the_cjk_model(api: dict[str, Api], chat: str) -> None:
    answer = recall_in(api["bob"], "How many bags does the new clay supplier need per order?", chat)
    assert all("cjk" not in r["why"]["boosts"] for r in answer["results"])


def test_a_cjk_model_that_cannot_be_loaded_is_a_503_for_cjk_questions_only(
    settings: Settings, chat: str, tmp_path: Any
) -> None:
    with serving_with(settings, {"cjk_embedding_model": str(tmp_path / "no-such")}) as served:
        body = {"query": PARAPHRASED, "filters": {"conversation_id": chat}}
        refused = served.post("/v1/recall", body)
        english = served.post("/v1/recall", {**body, "query": "clay supplier bags"})
    assert refused.status_code == 503
    assert refused.json()["error"]["code"] == "embedding_unavailable"
    assert english.status_code == 200


def test_a_cjk_model_switched_off_reads_lexically(settings: Settings, chat: str) -> None:
    """``TRACTATUS_CJK_EMBEDDING_MODEL=none``."""
    with serving_with(settings, {"cjk_embedding_model": "none"}) as served:
        answer = recall_in(served, PARAPHRASED, chat)
    assert answer["status"] == "not_found"
    assert all(r["why"]["similarity"] is None for r in answer["results"])
