"""The kinds a question asks for, and whether texts name a thing of that kind (recall's
``missing_kinds``: graph_schema/recall/kinds.py, the table from WordNet 3.1)."""

from __future__ import annotations

import json

import pytest

from graph_schema.recall import kinds


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("What instrument does Tom play?", ["musical_instrument"]),
        ("Which musical instrument did Tom take up?", ["musical_instrument"]),
        ("What is Priya's favourite colour?", ["color"]),
        ("What's Maya's favorite color?", ["color"]),
        ("What is the name of Tom's dog?", ["dog"]),
        ("What are the names of Maria's pets?", ["animal"]),
        ("What kind of food did Nate cook?", ["food"]),
        ("Which languages is Priya learning?", ["language"]),
        ("What sport does Mia love?", []),  # "I love running": a sport WordNet files elsewhere
        ("What is Priya's cat called?", ["feline"]),
        ("Where does Priya's brother live?", ["brother"]),
        ("Where does Priya\u2019s brother live?", ["brother"]),  # a typographic apostrophe
        ("What did Tom's mum cook?", ["mother"]),
        ("What was grandpa's gift to Caroline?", []),  # "what was": no noun asked for
        # no kind asked for: the answer may be a title, a name, a place, a time
        ("Which song motivates Caroline?", []),
        # a language known by its name: Rust, Go (a new user's trial)
        ("What programming language is Dev's team moving to?", []),
        ("What is Dev's favourite coding language?", []),
        ("What book did Melanie read?", []),
        ("Where did Priya get a job?", []),
        ("When did Tom's gearbox die?", []),
        ("What did Tom give up learning?", []),
        ("小李养了什么宠物？", []),
        # a count of a kind, or whether someone has one of it
        ("How many kids does Tomás have?", ["child"]),
        ("How many children does Melanie have?", ["child"]),
        ("Does Tomás have a brother?", ["brother"]),
        ("Has Inês had any pets?", ["animal"]),
        ("How many times did Jon go there?", []),
        ("What did Caroline have a chance to do?", []),
        # the asker's own (a new user's trial of an assistant)
        ("what's my brother's name?", ["brother"]),
        ("what is the name of my brother?", ["brother"]),
        ("what is my job title?", []),
    ],
)  # fmt: skip
def test_the_kinds_a_question_asks_for(query: str, asked: list[str]) -> None:
    assert kinds.table().asked_in(query) == asked


@pytest.mark.parametrize(
    ("kind", "text", "names"),
    [
        ("musical_instrument", "I play the cello every evening.", True),
        ("musical_instrument", "Learning the drums was my best decision.", True),  # plural
        ("musical_instrument", "I bought a French horn last week.", True),  # two words
        ("musical_instrument", "A cat! I'm allergic to it.", False),  # a whip, only rarely
        ("color", "I painted the door navy blue.", True),
        ("color", "I'm also learning Portuguese on an app.", False),
        ("language", "I'm also learning Portuguese on an app.", True),
        ("dog", "We adopted a puppy from the shelter.", True),
        ("dog", "We adopted a rescue cat called Biscuit.", False),
        ("feline", "Our kitten Bailey sleeps all day.", True),  # added to WordNet's by hand
        ("animal", "Our geese wake us up at dawn.", True),  # an irregular plural
        ("food", "We had ice cream after the hike.", True),
        ("brother", "By the way, my sister Anika is moving to Lisbon.", False),
        ("daughter", "We celebrated my daughter's birthday.", True),  # a possessive
        ("mother", "My mom taught me to bake.", True),
        # a word with a letter outside a-z is one word: "Tomás" is no "tom" (a tomcat)
        ("feline", "My brother Tomás is getting married in June.", False),
        # no "caf"; and "a" is no vitamin A (WordNet's food holds the letters)
        ("food", "We met at a café near the river.", False),
        ("beverage", "Zoë brought café au lait.", True),  # WordNet's "cafe au lait"
    ],
)  # fmt: skip
def test_whether_a_text_names_a_thing_of_a_kind(kind: str, text: str, names: bool) -> None:
    assert kinds.table().names(kind, text) is names


@pytest.mark.parametrize(
    ("kind", "phrase", "member"),
    [
        ("dog", "beagle", True),
        ("dog", "golden retrievers", True),  # the last word in the singular
        ("dog", "dog person", False),  # holds a dog, is none: the name rule reads the phrase
        ("feline", "cat", True),
        ("dog", "cat", False),
    ],
)  # fmt: skip
def test_whether_a_phrase_is_itself_a_thing_of_a_kind(kind: str, phrase: str, member: bool) -> None:
    assert kinds.table().member(kind, phrase) is member


def test_missing_lists_each_kind_no_text_names() -> None:
    texts = ["I finally got the job at the aquarium.", "We adopted a rescue cat yesterday!"]
    assert kinds.missing("What is Priya's favourite colour?", texts) == ["color"]
    assert kinds.missing("What is the name of Priya's pet?", texts) == []
    assert kinds.missing("What instrument does Priya play?", []) == ["musical_instrument"]
    assert kinds.missing("Where did Priya get a job?", []) == []  # asks for no kind


def test_a_text_in_chinese_japanese_or_korean_may_name_a_kind_the_lists_cannot_read() -> None:
    """A new user's "When is Hana's mother visiting?" of "我妈妈下个月来温哥华看我们" was
    refused with missing_kinds ["mother"]: the English word lists cannot read the text."""
    assert kinds.missing("When is Hana's mother visiting?", ["我妈妈下个月来温哥华看我们。"]) == []
    assert kinds.missing("What is Hana's cat's colour?", ["猫很可爱", "I like tea"]) == []
    assert kinds.missing("When is Hana's mother visiting?", ["I like tea"]) == ["mother"]
    assert kinds.missing("What is Hana's dog's name?", ["うちの子はかわいい"]) == []  # Japanese


def test_a_chinese_text_names_a_relative_a_dog_or_a_cat_by_its_chinese_words() -> None:
    """A new user's trial of a chat in English and Chinese: "What is my dog's name?" was
    answered (0.67) with the kitten's turn, since the Chinese turns read ("我领养了一只橘猫")
    made every kind named; no turn spoke of a dog."""
    read = ["我领养了一只橘猫！两个月大。", "Actually we changed the kitten's name to Mochi."]
    assert kinds.missing("What is my dog's name?", read) == ["dog"]
    assert kinds.missing("What is my cat's name?", read) == []
    assert kinds.missing("What is my dog's name?", ["我家的柯基叫豆豆"]) == []  # a breed
    assert kinds.missing("When is my mom's flight?", ["上周末和爸妈去了苏州"]) == []  # 爸妈
    assert kinds.missing("When is my mom's flight?", ["我爸特别开心"]) == ["mother"]
    assert kinds.missing("What is the name of Omar's niece?", ["我妹妹生了个女儿"]) == []
    # a kind without Chinese words: a Chinese text may name one in words no list holds
    assert kinds.missing("What instrument does Tom play?", ["我最近在学弹琴"]) == []
    kids = ["Aquarium trip done! 25 pupils went.", "晓雨6月21日可以去水族馆"]  # a trial's
    assert kinds.missing("how many kids went to the aquarium?", kids) == []


def test_a_word_in_capitals_asks_for_no_kind() -> None:
    """A trial's translator asked "Which CAT tool am I using going forward?" (a
    computer-assisted translation tool): not a cat."""
    assert kinds.table().asked_in("Which CAT tool am I using going forward?") == []
    assert kinds.table().asked_in("Which cat did Tom adopt?") == ["feline"]
    assert kinds.table().asked_in("WHICH CAT DID TOM ADOPT?") == ["feline"]


def test_a_relative_named_through_two_others_is_named() -> None:
    """A new user's "What is the name of Omar's niece?" of "My sister Leila just had a baby
    girl, her name is Yasmin" was refused: no word of the turn is a niece."""
    baby = ["My sister Leila just had a baby girl, her name is Yasmin."]
    assert kinds.missing("What is the name of Omar's niece?", baby) == []
    assert kinds.missing("What is the name of Omar's niece?", ["My sister is a nurse."]) == [
        "niece"
    ]
    bakery = ["My mom and her sister run a bakery."]
    assert kinds.missing("Where does Mia's aunt live?", bakery) == []
    assert kinds.missing("Where does Mia's uncle live?", bakery) == ["uncle"]
    # one text names both: a sister in one turn and a baby in another name no niece
    apart = ["My sister is a nurse.", "We had a baby girl!"]
    assert kinds.missing("What is the name of Omar's niece?", apart) == ["niece"]


def test_the_table_keeps_wordnets_licence_and_every_asked_kind_has_members() -> None:
    data = json.loads(kinds.TABLE.read_text(encoding="utf-8"))
    assert "WordNet 3.1 Copyright 2011 by Princeton University" in data["licence"]
    assert set(data["asked"].values()) <= set(data["members"])
    for kind, words in data["members"].items():  # each kind holds a word that asks for it
        assert {w for w, k in data["asked"].items() if k == kind} & set(words), kind


def test_the_status_reads_the_persons_own_turns_and_the_questions_they_answer() -> None:
    """For a question about one person, only that person's groups are read, each its own
    turn (not the previous turn its context holds) and the question it answers; for a
    question naming no one, every group's texts."""
    from datetime import UTC, datetime

    from graph_schema.recall.fusion import Scored
    from graph_schema.recall.pipeline import RecallQuery, _missing_kinds, _Status, _Work

    now = datetime(2026, 1, 1, tzinfo=UTC)
    query = RecallQuery(text="What instrument does Tom play?", k=10, as_of=now, known_at=now)
    ana = Scored(
        "g1", speaker="Ana", texts=["Ana: I play the cello."], turn="Ana: I play the cello."
    )
    context = "Ana: I play the cello.\nTom: Nice, I mostly run."
    tom = Scored("g2", speaker="Tom", texts=[context], turn="Tom: Nice, I mostly run.")
    work = _Work([ana, tom], {})
    assert _missing_kinds(work, query, _Status.of("Tom", query)) == ["musical_instrument"]
    assert _missing_kinds(work, query, _Status()) == []  # naming no one: Ana's turn is read
    answer = Scored("g3", speaker="Tom", turn="Tom: The piano, since school.", texts=["…"])
    assert _missing_kinds(_Work([tom, answer], {}), query, _Status.of("Tom", query)) == []
    asked = Scored("g4", speaker="Tom", turn="Tom: Yes, since school.", question="A violin?")
    assert _missing_kinds(_Work([tom, asked], {}), query, _Status.of("Tom", query)) == []


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("We have two boys and a baby girl.", True),
        ("My daughter starts school in May.", True),
        ("The kids loved the beach.", True),
        ("It's just me and my cat Miso for now.", False),
        ("My girlfriend Inês stayed in Valencia.", False),
    ],
)
def test_a_child_is_named_by_a_son_a_daughter_a_kid_a_baby_a_boy(text: str, names: bool) -> None:
    assert kinds.missing("How many kids does Tomás have?", [text]) == ([] if names else ["child"])
