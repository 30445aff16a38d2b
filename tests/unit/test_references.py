"""A reference number asked for (a booking, an invoice, a claim...), and whether a text gives
one under its name (recall's ``missing_kinds``: graph_schema/recall/references.py)."""

from __future__ import annotations

import pytest

from graph_schema.recall import references
from graph_schema.recall.references import KIND


@pytest.mark.parametrize(
    ("query", "label"),
    [
        ("What's the claim number for Tom's crown?", "claim"),
        ("what was the invoice number castellan sent for the laptop order", "invoice"),
        ("tracking number for the second SO-4471 shipment?", "tracking"),
        ("What's the booking reference code for our TAP flights?", "booking"),
        ("what's the VIN on the outback, need it for a form", "vin"),
        ("what were the serial numbers of the Alaris loan pumps", "serial"),
        ("What was the PO number for the last order?", "po"),
        ("what was the ref number on the road closure application", "reference"),
        ("What's the reference for the Wordloom cancellation?", "reference"),
        ("do you have the work order no. for the boiler?", "work order"),
        # no reference asked for
        ("What's the name of the former manager who gave Diego a reference?", None),
        ("How many invoices did we send in May?", None),
        ("Who booked the flights?", None),
        ("What's Dana's phone number?", None),  # a contact detail: contacts.py
        ("Which order arrived first?", None),
    ],
)  # fmt: skip
def test_the_questions_that_ask_for_a_reference(query: str, label: str | None) -> None:
    assert references.asked(query) == label


@pytest.mark.parametrize(
    ("label", "text", "gives"),
    [
        ("claim", "Claim DX-20417 opened with Delta Dental for the crown.", True),
        ("invoice", "Last invoice INV-30418, £4,950.00 (25 x £198).", True),
        ("invoice", "deposit $450 (invoice SA-0417) due March 28", True),
        ("invoice", "Invoice #AF-2291 from AquaFlow Repair: replace impeller", True),
        ("contract", "Contract PW-2024-117 signed 15 Apr 2024.", True),
        ("receipt", "I'm buying from Kessler from now on. Receipt K-20931.", True),
        ("booking", "booking ref is K7QZ2M, seats 14A-C", True),
        ("vin", "2021 Honda CR-V EX, VIN 7FARW2H84ME012883.", True),
        ("reference", "Application TRO-2024-0417 (temporary street closure): REJECTED.", True),
        # a Chinese turn labels a number by 单号 / 编号 / 号码, whatever it numbers
        ("tracking", "样品今天下午用顺丰国际寄出了，单号SF1409237765，一共3套。", True),
        ("invoice", "发票编号：FP-20240412", True),
        ("invoice", "一共3套，预计3月26日前后能到", False),
        # a flight number is the airline's code and a number, spaced or not
        ("flight", "due to the strike, flight AT 412 London-Lisbon is cancelled", True),
        ("flight", "We're on BA283, landing 14:05.", True),
        ("flight", "Flights to Porto booked for the 12th, two adults.", False),
        # a ticket or a booking is often named by its code alone
        ("ticket", "HD-1130 closed. Scan-to-email failed on the new units.", True),
        # another kind's identifier does not give the one asked for
        ("claim", "Appointment: Tom Alvarez, crown prep. Confirmation code APT-4471.", False),
        ("invoice", "Booking moved: BK-10452 | Biscuit | TPLO surgery", False),
        ("tracking", "Order SO-4471 shipped in two parcels on 3 May.", False),
        # a date, a time or a sum is no identifier
        ("invoice", "invoice paid 2024-03-06 11:00, $2,398 in total", False),
        ("booking", "booking for Friday, all six of us", False),
        ("reference", "she wrote a reference letter for Diego", False),
        # a record names the thing, then gives its reference by the plain word (a blind trial
        # asked "grid connection application ref?" of "EastGrid connection application
        # received. Reference: GCA-557203.", and the rule, reading only a label of the kind
        # asked, refused an answerable question)
        ("application", "EastGrid connection application received. Reference: GCA-557203.", True),
        ("claim", "Claim logged for the cracked screen. Ref no. CLM-20931.", True),
        # the plain word in a sentence that names another thing gives no claim's reference
        ("claim", "Booking confirmed. Ref: CC-448213. The claim is still open.", False),
        ("application", "Site visit done. Invoice follows. Reference: INV-2291.", False),
    ],
)  # fmt: skip
def test_whether_a_text_gives_a_reference(label: str, text: str, gives: bool) -> None:
    assert references.states(label, text) is gives


def test_a_reference_asked_for_is_missing_when_no_text_gives_it() -> None:
    """A blind trial's "What's the claim number for Tom's crown?" was answered by the notes
    of Tom's appointments, full of other identifiers."""
    texts = [
        "Appointment booked: patient Tom Alvarez, crown prep, Room 2. Confirmation code APT-4471.",
        "Tom's insurer approved the crown at 50%.",
    ]
    assert references.missing("What's the claim number for Tom's crown?", texts) == [KIND]
    assert references.missing("What's the confirmation code for Tom's crown?", texts) == []
    assert references.missing("When is Tom's crown fitted?", texts) == []


def test_for_a_name_only_the_texts_naming_it_are_read() -> None:
    """A question naming a company ("What's the Comcast account number?") is not answered by
    another company's account; a whole text is read, since a record gives the name and the
    number in different sentences."""
    texts = ["Comcast bill is due on the 14th.", "Verizon account 4471-2209-18 closed."]
    assert references.missing("What's the Comcast account number?", texts) == [KIND]
    later = ["Comcast: new plan from June. Account no. 8120-3344-9 on the letter."]
    assert references.missing("What's the Comcast account number?", texts + later) == []


def test_the_name_of_the_person_asked_about_need_not_be_in_the_record() -> None:
    """A blind trial's "what's the reference number for the TDS dispute with Dan" was
    refused: the record of the dispute gives its case number without naming Dan, the one
    speaker the question is about (named "Dan" for Daniel Ashworth). Their name, or its
    short form, is left out of the names a text must hold."""
    texts = [
        "Dan asked whether TDS would rule on the cleaning charge by May.",
        "TDS Dispute Service - Case DR-55810-24 opened 09/04/2024. Amount held: 1,065.00.",
    ]
    asked = "what's the reference number for the TDS dispute with Dan"
    assert references.missing(asked, texts) == [KIND]
    assert references.missing(asked, texts, person="Daniel Okoro") == []  # "Dan": his short name
    assert references.other_names(asked, "Daniel Okoro") == ["TDS"]
    assert references.missing("what's the claim number for the TDS dispute", texts[:1]) == [KIND]
