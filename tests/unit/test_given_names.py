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
