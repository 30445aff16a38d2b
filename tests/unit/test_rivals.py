"""Names that share a word with the one a question asks about (recall's contrast of a thing
with another of its name: graph_schema/recall/rivals.py)."""

from __future__ import annotations

import pytest

from graph_schema.recall.rivals import asked_names, names_another


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("When does Acme Labs' contract renew?", [("acme", "labs")]),
        ("What did we promise Tom Becker about the refund?", [("tom", "becker")]),
        # the sentence's opening words and a single capitalised word name nothing
        ("What SSO problem did Acme Labs report?", [("acme", "labs")]),
        ("Which ticket did Beichen open about API keys?", []),
        ("Did Caroline go to the museum?", []),
        ("Acme Labs: when do they renew?", [("acme", "labs")]),
    ],
)
def test_the_names_a_question_asks_about(query: str, names: list[tuple[str, ...]]) -> None:
    assert asked_names(query) == names


ACME_LABS = asked_names("When does Acme Labs' contract renew?")
TOM_BECKER = asked_names("What did we promise Tom Becker?")


@pytest.mark.parametrize(
    ("text", "another"),
    [
        ("Hi, this is Priya Nair, IT manager at Acme Ltd. Our contract renews in March.", True),
        ("Opened ticket TCK-1042 for Acme Ltd: SSO login fails.", True),
        ("Acme Ltd renews soon.", True),  # a sentence's first word, a word of the name
        ("Acme Labs and Acme Ltd both renew in March.", False),  # names the one asked too
        ("Acme Labs Inc renews in March.", False),  # a long form of it
        ("we moved acme labs to the new plan, unlike Acme Ltd", False),  # in lower case
        ("Yesterday Acme said they renew.", False),  # no name of two words
        ("Globex Ltd renews in March.", False),  # shares only a company's form
        ("The contract renews in March.", False),
    ],
)
def test_a_text_about_another_thing_of_the_name(text: str, another: bool) -> None:
    assert names_another([text], ACME_LABS) is another


@pytest.mark.parametrize(
    ("text", "another"),
    [
        ("Tom Hanks was great in that film.", True),
        ("Yesterday Tom said he would call.", False),  # the opener is no part of a name
        ("I met Tom Becker at the office.", False),
        ("Tom Becker's plan is the Enterprise one.", False),
    ],
)
def test_a_text_about_another_person_of_the_name(text: str, another: bool) -> None:
    assert names_another([text], TOM_BECKER) is another


def test_a_question_naming_nothing_has_no_rival() -> None:
    assert not names_another(["Acme Ltd renews soon."], [])


@pytest.mark.parametrize(
    ("query", "names"),
    [
        # a title and a surname are any person of that surname ("Chen Guoliang"), and the
        # name of an owner ends at the possessive: the benchmark of 96 trials had answerable
        # questions refused for both (a first form of the rule)
        ("what's the incident report number for Mr. Chen's fall", []),
        ("When did Marcus's DBS renewal come through?", []),
        ("What was the Brightline CPM under the original contract?", []),  # an attribute
        ("Oscar Hale的妈妈叫什么名字？", [("oscar", "hale")]),
        ("Did Dr. Maya Patel call back?", [("maya", "patel")]),
    ],
)
def test_what_is_not_part_of_a_name(query: str, names: list[tuple[str, ...]]) -> None:
    assert asked_names(query) == names


def test_a_short_shared_prefix_makes_no_rival() -> None:
    ap_chem = asked_names("How did his AP Chem score improve?")
    assert ap_chem == [("ap", "chem")]
    assert not names_another(["Ms. Alvarez, his AP Calc teacher, says he improved."], ap_chem)


def test_a_name_ends_with_its_sentence() -> None:
    """ "arriving Thursday. Sofia and Dev have enrolled" read "Thursday Sofia" as a name, a
    rival of "Sofia Marsh" (found in the 96 trials)."""
    sofia = asked_names("which hardware key model did Sofia Marsh get")
    text = "Two keys are arriving Thursday. Sofia and Dev have both promised to enrol."
    assert not names_another([text], sofia)
    assert names_another(["Sofia Brandt got the YubiKey 5 NFC."], sofia)
