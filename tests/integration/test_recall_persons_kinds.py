"""A person and the kinds asked for, in a chat written in English and Chinese (docs/recall.md,
*The person asked about*, *Kinds nothing names*), over HTTP as a new user writes. From a new
user's trial of a user and her assistant: a question about her sister, whose full name shares
the user's family name, was answered as one about the user; and a dog and a mother's name
never given were answered, because a Chinese turn among those read gave up the rules."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import Api, recall_in, write_chat

pytestmark = pytest.mark.integration

ASSISTANT = "agent_inferred"
CHAT = [
    ("Lin Xiao", "你好！我叫林晓，住在上海静安区，以后帮我记一下生活里的事情吧。"),
    ("Assistant", "好的林晓，我会记住：你住在上海静安区。"),
    ("Lin Xiao", "I work at Trip.com as a product manager, three years now."),
    ("Assistant", "Noted: you are a product manager at Trip.com."),
    ("Lin Xiao", "Also, my sister Lin Yue is getting married in May, in Hangzhou."),
    ("Assistant", "Noted: your sister Lin Yue's wedding is in May in Hangzhou."),
    ("Lin Xiao", "上周末和爸妈去了苏州，逛了拙政园，我爸特别开心。"),
    ("Lin Xiao", "我领养了一只橘猫！两个月大。"),
    ("Lin Xiao", "We named the kitten Mochi, my boyfriend Chen Hao voted for it."),
    ("Lin Xiao", "下个月妹妹婚礼之后，我打算带妈妈去京都玩五天。"),
    ("Lin Xiao", "My dad turned 60 last Sunday! We did a video call."),
]


def asked(api: Api, question: str, chat: str) -> dict[str, Any]:
    answer = recall_in(api, question, chat)
    top = [r["evidence"][0]["quote"] for r in answer["results"][:3]]
    answer["seen"] = (answer["status"], answer["person"], answer["missing_kinds"], top)
    return answer


@pytest.fixture(scope="module")
def chat(api: dict[str, Api]) -> str:
    kinds = {n: ASSISTANT for n, (speaker, _) in enumerate(CHAT) if speaker == "Assistant"}
    return write_chat(api["alice"], CHAT, kinds=kinds)


@pytest.mark.parametrize("question", ["What does Lin Yue do for work?", "Where does Lin Yue work?"])
def test_a_full_name_sharing_the_speakers_family_name_is_not_the_speaker(
    api: dict[str, Api], chat: str, question: str
) -> None:
    """The speaker's own job turn answered for her sister (0.66, `person` Lin Xiao)."""
    answer = asked(api["bob"], question, chat)
    assert answer["person"] is None or answer["person"]["name"] != "Lin Xiao", answer["seen"]


def test_the_speakers_full_name_still_names_her(api: dict[str, Api], chat: str) -> None:
    answer = asked(api["bob"], "Where does Lin Xiao work?", chat)
    assert answer["status"] == "answered", answer["seen"]
    assert answer["person"]["name"] == "Lin Xiao", answer["seen"]
    assert "Trip.com" in answer["results"][0]["turn"]["text"], answer["seen"]


@pytest.mark.parametrize(
    ("question", "kind"),
    [("What is my dog's name?", "dog"), ("What is my mother's name?", "name")],
)
def test_a_kind_or_a_name_no_text_gives_is_not_found_beside_chinese_turns(
    api: dict[str, Api], chat: str, question: str, kind: str
) -> None:
    """Only a kitten (in English and as 橘猫) and a mother spoken of as 妈妈, never named."""
    answer = asked(api["bob"], question, chat)
    assert answer["status"] == "not_found", answer["seen"]
    assert answer["missing_kinds"] == [kind], answer["seen"]


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("What is my cat's name?", "Mochi"),
        ("What is my sister's name?", "Lin Yue"),
        ("When is Lin Yue getting married?", "May"),
    ],
)
def test_what_the_chat_gives_is_answered_beside_chinese_turns(
    api: dict[str, Api], chat: str, question: str, said: str
) -> None:
    answer = asked(api["bob"], question, chat)
    assert answer["status"] == "answered", answer["seen"]
    assert answer["missing_kinds"] == [], answer["seen"]
    assert any(said in r["turn"]["text"] for r in answer["results"][:2]), answer["seen"]
