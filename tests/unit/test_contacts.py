"""A phone number or an email address asked for, and whether a text holds one (recall's
``missing_kinds``: graph_schema/recall/contacts.py)."""

from __future__ import annotations

import pytest

from graph_schema.recall import contacts
from graph_schema.recall.contacts import EMAIL, PHONE


@pytest.mark.parametrize(
    ("query", "kinds"),
    [
        ("What's Dana Whitfield's phone number?", [PHONE]),
        ("What's Ms. Alvarez's email address?", [EMAIL]),
        ("What is Sam's email?", [EMAIL]),
        ("Which mobile number should I text Priya on?", [PHONE]),
        ("What are Jordan's email address and phone number?", [EMAIL, PHONE]),
        ("Where should invoices be emailed these days?", []),  # a place to send, no address
        ("How many people are on the mobile team now?", []),
        ("Did Maya email us about the outage?", []),
        # the detail ends its sentence: it is asked for (a blind trial's, answered before)
        ("do you have Ms. Okafor's email? want to send her a thank-you note", [EMAIL]),
        ("what's his cell, I need to call him", [PHONE]),
        ("Did you read Okafor's email about the deadline?", []),  # a message, no address
        ("Did Priya's phone break again?", []),
        # named after it (a new user's try: answered at 0.74 by the removal firm's turn)
        ("What is the email of Shift Removals?", [EMAIL]),
        ("what's the phone for the plumber", [PHONE]),
        ("Who sent the email to Shift Removals?", []),
        ("What was in the email from Pickfords?", []),
    ],
)  # fmt: skip
def test_the_questions_that_ask_for_a_contact_detail(query: str, kinds: list[str]) -> None:
    assert contacts.asked(query) == kinds


@pytest.mark.parametrize(
    ("kind", "text", "holds"),
    [
        (PHONE, "call him on +1 415 555 0142", True),
        (PHONE, "my mobile is 07700-900123", True),
        (PHONE, "(0161) 496 0000 after 9", True),
        (PHONE, "Deliver to 220 Pine St on March 14th by 9:00", False),
        (PHONE, "the run on 2025-03-14 took 38m", False),  # a date, no number to call
        (PHONE, "row count 1,356 (as of 2025-03-12 07:10 UTC)", False),
        (PHONE, "Ticket PB-5531, fee $120", False),
        # an identifier's digits are no number to call (a blind trial: "Mrs. Dorsey's phone
        # number?" was answered by the note of this account)
        (PHONE, "Common App account CA-48213077 created", False),
        (PHONE, "invoice INV-2024-0316 and order #SO-20240316", False),
        (PHONE, "ref 48213077AB", False),
        (EMAIL, "send invoices to jordan.blake@kestrelfreight.com", True),
        (EMAIL, "email Jordan about the invoices", False),
    ],
)  # fmt: skip
def test_whether_a_text_holds_a_contact_detail(kind: str, text: str, holds: bool) -> None:
    assert contacts.states(kind, text) is holds


def test_a_detail_asked_for_is_missing_when_no_text_holds_it() -> None:
    texts = ["Dana from Keller & Shaw: 40 pastries by 9am", "send it to dana.w@kellershaw.com"]
    assert contacts.missing("What's Dana's phone number?", texts) == [PHONE]
    assert contacts.missing("What's Dana's email address?", texts) == []
    assert contacts.missing("What did Dana order?", texts) == []


def test_for_a_name_no_speaker_bears_only_the_texts_naming_it_are_read() -> None:
    """A blind trial's "What's Raj Patel's phone number?" was answered: the notes read held an
    invoice's long number about the tiles. Raj is no speaker, so only the texts naming him
    are read; a speaker's own turns never name them, so for a question about a speaker every
    text is (``narrow`` False). A whole text: the number may come before the name."""
    texts = [
        "Raj Patel (Volt Pro) starts the rewiring Monday.",
        "Invoice 20250312-4471 for the tiles is paid.",
    ]
    assert contacts.missing("What's Raj Patel's phone number?", texts) == [PHONE]
    assert contacts.missing("What's Raj Patel's phone number?", texts, narrow=False) == []
    later = ["Raj Patel is the new electrician. Call him on 0161 555 0142."]
    assert contacts.missing("What's Raj Patel's phone number?", later) == []
    before = ["Updated Wang Li's record: phone 021 555 0192. Mochi's booster is due 20 Feb."]
    assert contacts.missing("What's the phone number for Mochi's owner?", before) == []
