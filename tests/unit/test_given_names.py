"""A name asked for that nothing gives (graph_schema/recall/given_names.py)."""

from __future__ import annotations

import pytest

from graph_schema.recall import given_names


@pytest.mark.parametrize(
    ("query", "whom"),
    [
        ("What is the name of Maya's daughter?", "daughter"),
        ("What's Maya's daughter's name?", "daughter"),
        ("what is my brother's name?", "brother"),
        ("What are the names of Melanie's pets?", "pet"),
        ("What is Maya's dog called?", "dog"),
        ("What did Maya name her puppy?", "puppy"),
        ("What is Maya's name?", None),  # the person's own: their turns never say it
        ("What is the name of the cafe Maya likes?", None),  # a place: a title
        ("Where does Maya's daughter go to school?", None),  # no name asked for
    ],
)
def test_what_name_a_question_asks_for(query: str, whom: str | None) -> None:
    assert given_names.asked(query) == whom


@pytest.mark.parametrize(
    ("query", "texts", "missing"),
    [
        # a new user's trial: the daughter spoken of, never named, was `answered`
        ("What is the name of Maya's daughter?", ["My daughter is allergic to peanuts."], True),
        ("What is the name of Maya's daughter?", ["My daughter Lily starts school."], False),
        ("What is the name of Maya's daughter?", ["my daughter I'm so proud of her"], True),
        ("What's Maya's sister's name?", ["Emma, my sister, got engaged!"], False),
        ("What's Maya's sister's name?", ["maya has_relative maya/sister:Emma"], False),
        ("What are the names of Melanie's pets?", ["I have two cats, Luna and Oliver."], False),
        ("What are the names of Melanie's pets?", ["My guinea pig Nibbles is fine."], False),
        ("What are the names of Melanie's pets?", ["The cats were sick all week."], True),
        ("What is Maya's dog called?", ["Our dog is called Rex."], False),
        # a trial's turn: the cat's name was given, and the question was `not_found`
        (
            "What is the name of Priya's cat?",
            ["I adopted a cat. She's orange so I named her Mango."],
            False,
        ),
        ("What is the name of Priya's cat?", ["I adopted a cat from the shelter."], True),
        ("What is Maya's dog called?", ["我们家的狗叫旺财"], False),  # a script not read
        # a new user's trial: "<Name> is a <breed>" gave no name, the question not_found
        ("What is the name of Kai's dog?", ["Biscuit is a beagle, he is small enough."], False),
        ("What is the name of Kai's dog?", ["Rex is a retired greyhound from a rescue."], False),
        ("What is the name of Kai's dog?", ["Biscuit is our dog."], False),
        ("What's Maya's sister's name?", ["Emma is my older sister."], False),
        ("What is the name of Kai's dog?", ["Luna is a cat."], True),  # of another kind
        ("What is the name of Kai's dog?", ["Kai is a dog person."], True),  # holds one
        ("What is the name of Kai's dog?", ["It is a beagle."], True),  # no name
        ("What are the names of Melanie's pets?", ["Luna is a Siamese cat."], False),
        # a new user's trial: the name given is the cat's, the dog only refused
        (
            "What is the name of Tom's dog?",
            [
                "No, I found out I'm allergic to dogs, so I adopted a cat instead, "
                "her name is Mochi."
            ],
            True,
        ),
        ("What's Maya's sister's name?", ["My sister has a dog named Rex."], True),
        ("What is the name of Kai's dog?", ["We got a greyhound called Pixel."], False),
        ("What is the name of Tom's cat?", ["I adopted a cat instead, her name is Mochi."], False),
        ("Where does Maya's daughter go to school?", ["My daughter is six."], False),
    ],
)
def test_a_name_no_text_gives_is_missing(query: str, texts: list[str], missing: bool) -> None:
    assert given_names.missing(query, texts) == (["name"] if missing else [])


@pytest.mark.parametrize(
    ("query", "texts", "missing"),
    [
        # a new user's trial of a chat in English and Chinese: the mother spoken of in
        # Chinese and never named, and "What is my mother's name?" was answered (0.66)
        (
            "What is my mother's name?",
            ["下个月妹妹婚礼之后，我打算带妈妈去京都玩五天。", "Lin Xiao: 上周末和爸妈去了苏州。"],
            True,
        ),
        ("What is my mother's name?", ["已记录：你领养了一只橘猫，名字叫汤圆。"], True),  # a cat's
        ("What is my mother's name?", ["我妈叫王芳。"], False),
        ("What is my mother's name?", ["我妈妈王芳下周来上海。"], False),
        ("What is my mother's name?", ["王芳是我妈妈。"], False),
        ("What is my mother's name?", ["我妈妈Linda下周来。"], False),
        ("What is Maya's dog called?", ["我们家的狗叫旺财"], False),
        ("What is my cat's name?", ["我领养了一只橘猫！打算叫它“汤圆”。"], False),
        # the English turn beside them names the cat by another word of its kind, which
        # only a Chinese text among those read had let through
        ("What is my cat's name?", ["我领养了一只橘猫！", "We named the kitten Mochi."], False),
        ("What is my mother's name?", ["我妈妈下周来。", "My mom, Linda, loves Kyoto."], False),
        (
            "What is my dog's name?",
            ["我领养了一只橘猫！", "I adopted a kitten. Mochi is shy."],
            True,
        ),
        # no Chinese words for a friend: a Chinese text may name one, the rule gives up
        ("What is my friend's name?", ["我朋友下周来。"], False),
        ("What is Maya's dog called?", ["うちの犬はかわいい"], False),  # Japanese
    ],
)
def test_a_chinese_text_gives_a_name_of_whom_it_speaks_of(
    query: str, texts: list[str], missing: bool
) -> None:
    assert given_names.missing(query, texts) == (["name"] if missing else [])
