"""Distiller version 32, Chinese: what a new user's trial found misread (a bilingual personal
assistant's chat; the user 林晓 speaks as "Lin Xiao", the assistant as "Assistant"): a
naming read as a plan with half a quotation, an assistant's note of the user's plan read as
the assistant's own, a sister's wedding read as the user's plan and a plan left undated by the
clause before it, a move read as a thing's status, and an injury, a weekend trip with one's
parents and a sport given up left unread. Each sentence is the trial's or of the same shape."""

from __future__ import annotations

from typing import Any

import pytest

from ingest.distill import chinese
from ingest.distill.offline import distill_text

USER = "Lin Xiao"
ASSISTANT = "Assistant"
AT = "2025-05-12T13:15:00+08:00"  # a Monday


def drafts(text: str, *, speaker: str = USER, at: str = AT) -> list[dict[str, Any]]:
    return [
        d for d in distill_text(text, speaker=speaker, occurred_at=at) if d["predicate"] != "said"
    ]


def facts(text: str, **kw: str) -> list[tuple[str, str, Any, bool]]:
    return [(d["subject"], d["predicate"], d["object"], d["polarity"]) for d in drafts(text, **kw)]


# --- 1. a pet named as it is told of; a naming is no plan ---------------------------------------


def test_a_pet_adopted_and_named_in_one_sentence_takes_the_name() -> None:
    assert facts("我领养了一只橘猫，两个月大，打算叫它“汤圆”。") == [
        (USER, "has_pet", f"{USER}/cat:汤圆", True)
    ]


def test_a_pet_named_in_the_sentence_after_the_one_that_told_of_it() -> None:
    # the trial's turn: "！" ends the sentence that tells of the cat before it is named
    assert facts("我领养了一只两个月大的橘猫！打算叫它“汤圆”。") == [
        (USER, "has_pet", f"{USER}/cat:汤圆", True)
    ]
    # whose pet the naming names is not said: the sister's dog stays unnamed
    assert (f"{USER}/sister", "has_pet", f"{USER}/sister/dog", True) in facts(
        "我妹妹养了一只狗。打算叫它豆豆。"
    )


def test_a_pet_adopted_is_a_pet() -> None:
    assert facts("我领养了一只橘猫！") == [(USER, "has_pet", f"{USER}/cat", True)]


@pytest.mark.parametrize(
    "text", ["两个月大，打算叫它“汤圆”。", "打算叫它“汤圆”", "准备给它取名叫豆豆。"]
)
def test_a_naming_is_no_plan(text: str) -> None:
    assert facts(text) == []


def test_a_pet_given_a_name_after_a_comma_takes_it() -> None:
    assert facts("我养了一只小狗，给它取名叫豆豆。") == [
        (USER, "has_pet", f"{USER}/dog:豆豆", True)
    ]


def test_the_name_a_sentence_gives_a_pet_it_calls_it() -> None:
    assert chinese.pet_name("两个月大，打算叫它“汤圆”。") == "汤圆"
    assert chinese.pet_name("我们打算把项目叫做“星河”") is None


def test_a_plan_cut_inside_a_quotation_keeps_no_half_of_it() -> None:
    assert facts("我打算报名“城市马拉松") == [(USER, "plans", "报名城市马拉松", True)]


def test_the_assistant_s_echo_of_the_pet_is_no_pet_of_its_own() -> None:
    text = "太可爱了！已记录：你领养了一只两个月大的橘猫，名字叫汤圆。"
    assert facts(text, speaker=ASSISTANT) == []


# --- 2. an assistant's note of the user's plan is not the assistant's plan ----------------------


@pytest.mark.parametrize(
    "text",
    [
        "好主意！已记录：下个月婚礼后，你计划带妈妈去京都玩五天。",
        "下个月婚礼后，你计划带妈妈去京都玩五天。",  # no note: the time is no plan, 你 no speaker
        "已记录：手腕拉伤了。",
        "记住了：下个月去京都。",
        "好的林晓，我会记住：住在上海静安区，在携程工作。",
        "你住在上海，在阿里工作。",
    ],
)
def test_what_the_assistant_notes_of_the_user_is_none_of_its_own(text: str) -> None:
    assert facts(text, speaker=ASSISTANT) == []


def test_a_bare_note_heading_of_ones_own_still_states() -> None:
    assert facts("记录：今天膝盖受伤了") == [(USER, "health_condition", "膝盖受伤", True)]


# --- 3. someone else's event is no plan; a clause that says when dates the next ----------------


def test_a_sisters_wedding_is_no_plan_and_the_clause_before_dates_the_plan() -> None:
    assert facts("下个月妹妹婚礼之后，我打算带妈妈去京都玩五天。") == [
        (USER, "plans", "带妈妈去京都玩五天 (2025-06)", True)
    ]


@pytest.mark.parametrize(
    "text",
    ["妹妹下个月结婚，婚礼后带妈妈去京都玩五天。", "她下个月结婚。", "下个月妹妹婚礼。"],
)
def test_an_event_of_another_is_no_plan_of_the_speakers(text: str) -> None:
    assert [f for f in facts(text) if f[0] == USER] == []


@pytest.mark.parametrize(
    "text",
    [
        "下个月带妈妈去京都玩五天",
        "下个月，带妈妈去京都玩五天。",
        "下个月初带妈妈去京都玩五天",
        "下个月婚礼后，我计划带妈妈去京都玩五天。",
    ],
)
def test_next_month_dates_the_trip(text: str) -> None:
    assert facts(text) == [(USER, "plans", "带妈妈去京都玩五天 (2025-06)", True)]


def test_a_possessed_relatives_wedding_after_a_time_is_the_relatives() -> None:
    assert facts("下个月我妹妹结婚。") == [
        (f"{USER}/sister", "plans", "结婚 (2025-06)", True),
        (USER, "has_relative", f"{USER}/sister", True),
    ]


# --- 4. a move done is no thing's status --------------------------------------------------------


def test_a_move_done_is_no_status() -> None:
    assert facts("搬家搞定了！") == []
    assert facts("支付服务已经上线了") == [("支付服务", "status", "上线", True)]


# --- 5. facts a careful reader finds ------------------------------------------------------------


def test_the_employer_and_the_job_are_kept() -> None:
    assert facts("我在携程做产品经理") == [
        (USER, "works_at", "携程", True),
        (USER, "works_as", "产品经理", True),
    ]


def test_a_food_not_eaten_is_left_to_said() -> None:
    # no predicate of the ontology holds a diet; not a dislike (why, the words do not say)
    assert facts("对了，推荐餐厅的时候记得我不吃香菜。") == []
    assert facts("我不吃香菜") == []


@pytest.mark.parametrize(
    ("text", "condition"),
    [("手腕拉伤了", "手腕拉伤"), ("打球把手腕扭伤了。", "手腕扭伤"), ("我肌肉拉伤了", "肌肉拉伤")],
)
def test_an_injury_is_a_health_condition(text: str, condition: str) -> None:
    assert facts(text) == [(USER, "health_condition", condition, True)]


def test_an_injury_of_another_is_not_the_speakers() -> None:
    assert facts("她打球把手腕扭伤了。") == []


def test_an_injury_and_the_sport_given_up_for_it() -> None:
    text = "羽毛球打到手腕拉伤了，医生让我停一个月，所以暂时不打了。"
    assert facts(text, at="2025-05-27T22:10:00+08:00") == [
        (USER, "health_condition", "手腕拉伤", True),
        (USER, "activity", "羽毛球", False),
    ]


def test_a_weekend_trip_with_ones_parents_is_a_visit_dated_that_week() -> None:
    found = drafts(
        "上周末和爸妈去了苏州，逛了拙政园，我爸特别开心。", at="2025-02-17T19:05:00+08:00"
    )
    visits = [(d["object"], d.get("valid_from")) for d in found if d["predicate"] == "visited"]
    assert visits == [("苏州", "2025-02-10T00:00:00+08:00")]  # the week of 15-16 February


@pytest.mark.parametrize(
    ("text", "sport"),
    [
        ("我停了羽毛球", "羽毛球"),
        ("不打羽毛球了", "羽毛球"),
        ("我不再练瑜伽了", "瑜伽"),
        ("以后不打羽毛球了", "羽毛球"),
        ("羽毛球，暂时不打了。", "羽毛球"),
    ],
)
def test_a_sport_given_up_is_withdrawn(text: str, sport: str) -> None:
    assert facts(text) == [(USER, "activity", sport, False)]


def test_a_sport_given_up_last_month_is_withdrawn_by_its_end() -> None:
    found = drafts("上个月我就不打羽毛球了")
    assert [(d["object"], d["polarity"], d.get("valid_from")) for d in found] == [
        ("羽毛球", False, "2025-04-30T23:59:59+08:00")
    ]


def test_a_sport_dropped_is_withdrawn_as_well() -> None:
    assert facts("我放弃了羽毛球") == [
        (USER, "dropped", "羽毛球", True),
        (USER, "activity", "羽毛球", False),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "今天不去游泳了",  # once
        "羽毛球，今天不打了。",
        "我最近没再打羽毛球",  # not lately: no ending said
        "如果下雨，羽毛球就不打了",
        "羽毛球馆不开了",
        "他不打篮球了",
    ],
)
def test_no_sport_is_withdrawn_for_a_day_a_condition_or_another(text: str) -> None:
    assert [f for f in facts(text) if f[1] == "activity"] == []
