"""The CJK reader (graph_schema/recall/cjk.py, ingest/embeddings/cjk.py), with the installed
bge-small-zh model: it reads Chinese where the English embedding model ranks noise, puts the
first groups in its order (a place of the lexical ranking worth RANK_STEP), and lifts the
status onto the lexical rule's scale."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from graph_schema.recall import cjk
from graph_schema.recall.fusion import LEXICAL, Scored
from ingest.embeddings.cjk import EmbeddingReader, default_cjk_model_path, make_reader

ANSWER = "我家的猫叫团团，今年三岁了。"
OTHERS = [
    "我下个月要去杭州参加一个数据库会议。",
    "我妹妹在上海读大学，学的是医学。",
    "太好了！我最近在学弹钢琴，每天练一个小时。",
]
QUESTION = "小王的猫叫什么名字？"
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "embedding_model.py"


@pytest.fixture(scope="module")
def reader() -> EmbeddingReader:
    made = make_reader(default_cjk_model_path(), cache_size=64)
    assert made is not None
    return made


def turn(gid: str, text: str, speaker: str = "小王") -> Scored:
    return Scored(gid, speaker=speaker, texts=[f"{speaker}: {text}"], turn=text)


def test_each_model_is_installed_from_its_recorded_archive_with_its_spec() -> None:
    """scripts/embedding_model.py put both models where the server looks for them: the
    archive recorded there is the one whose hash the script records, and the spec the
    server reads is the script's."""
    script = importlib.util.spec_from_file_location("embedding_model", SCRIPT)
    assert script is not None and script.loader is not None
    fetch = importlib.util.module_from_spec(script)
    sys.modules["embedding_model"] = fetch  # its dataclass looks its module up
    script.loader.exec_module(fetch)
    assert str(fetch.MODELS["bge-small-zh-v15-q"].dest) == default_cjk_model_path()
    for model in fetch.MODELS.values():
        spec = json.loads((model.dest / "tractatus-model.json").read_text(encoding="utf-8"))
        assert spec == model.spec
        assert (model.dest / ".archive-sha256").read_text().strip() == model.sha256
        assert (model.dest / "model.onnx").is_file() and (model.dest / "tokenizer.json").is_file()
    assert fetch.MODELS["bge-small-zh-v15-q"].spec["pooling"] == "cls"


def test_the_cjk_model_reads_the_answer_closest(reader: EmbeddingReader) -> None:
    cosines = reader.cosines(QUESTION, [f"小王: {t}" for t in [*OTHERS, ANSWER]])
    assert len(cosines) == 4
    assert max(cosines) == cosines[3]
    assert all(-1.0 <= c <= 1.0 for c in cosines)
    assert reader.cosines(QUESTION, []) == []


def test_the_first_groups_are_put_in_the_models_order(reader: EmbeddingReader) -> None:
    ranked = [turn(f"g{n}", text) for n, text in enumerate([*OTHERS, ANSWER])]
    order, read = cjk.read(ranked, QUESTION, reader)
    assert order[0].gid == "g3"
    assert cjk.BOOST in order[0].boosts
    assert set(read) == {"g0", "g1", "g2", "g3"}
    assert read["g3"] == max(read.values())
    # groups the model put lower carry no boost
    assert all(cjk.BOOST not in s.boosts for s in order[1:] if s.gid == "g0")


def test_a_group_beyond_the_window_is_neither_read_nor_moved(reader: EmbeddingReader) -> None:
    filler = [turn(f"f{n}", OTHERS[n % len(OTHERS)]) for n in range(cjk.WINDOW)]
    ranked = [*filler, turn("late", ANSWER)]
    order, read = cjk.read(ranked, QUESTION, reader)
    assert order[-1].gid == "late"
    assert "late" not in read
    assert len(read) == cjk.WINDOW


def test_texts_the_model_reads_alike_keep_the_lexical_order(reader: EmbeddingReader) -> None:
    ranked = [turn("first", ANSWER), turn("second", ANSWER)]
    order, _ = cjk.read(ranked, QUESTION, reader)
    assert [s.gid for s in order] == ["first", "second"]
    assert not order[0].boosts


def test_what_is_read_of_a_group() -> None:
    assert cjk.text_of(turn("g", ANSWER)) == f"小王: {ANSWER}"
    fact = Scored("f", texts=["小王 has pet 团团", "ignored"])
    assert cjk.text_of(fact) == "小王 has pet 团团"
    assert cjk.text_of(Scored("empty")) == ""


def test_the_threshold_cosine_reads_as_the_lexical_threshold() -> None:
    assert cjk.relevance(cjk.THRESHOLD) == pytest.approx(LEXICAL.threshold)
    assert cjk.relevance(-0.2) == 0.0
    assert cjk.relevance(0.9) > LEXICAL.threshold


def test_none_switches_the_reader_off() -> None:
    assert make_reader("none", cache_size=8) is None
    assert make_reader(" Off ", cache_size=8) is None


def test_the_model_reads_chinese_not_japanese_or_english() -> None:
    assert cjk.chinese(QUESTION)
    assert cjk.chinese("Hallworth 的 1120-S 延期后的截止日期是哪天？")
    assert not cjk.chinese("猫の名前は何ですか？")  # kana: Japanese
    assert not cjk.chinese("What is the cat's name?")
