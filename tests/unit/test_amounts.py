"""A sum of money asked for, and whether the texts about the thing state one (recall's
``missing_kinds``: ``amount``, graph_schema/recall/amounts.py)."""

from __future__ import annotations

import pytest

from graph_schema.recall import amounts
from graph_schema.recall.amounts import Read


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        ("How much did the Canon R6 cost?", True),
        ("How much is the rent for the new flat?", True),
        ("How much does Marcus pay for the studio?", True),
        ("How much did Snowflake quote for the warehouse?", True),
        ("What did BigQuery cost in April 2026?", True),
        ("What is the price of the tickets?", True),
        ("What is Hana's salary at Lumen Labs?", True),  # a person's: was read as no sum
        ("What is my rent?", True),
        ("What salary was Lena offered at Northwind?", True),  # a new user's: read as no sum
        ("What discount did we offer for prepaying 12 months?", True),
        ("What price did they quote?", True),
        ("What costume did Mia wear?", False),  # no money noun, only its letters
        ("How much does Tomás make per hour?", True),  # a blind trial's: read as no sum
        ("How much did the bake sale make?", True),
        ("How much pasta did you make?", False),  # a noun after "much": no sum asked
        ("How much error budget is left now?", False),  # an amount, but of no money
        ("How many weddings has Marcus booked?", False),
        ("What did Marcus buy?", False),
    ],
)  # fmt: skip
def test_the_questions_that_ask_for_a_sum_of_money(query: str, asks: bool) -> None:
    assert amounts.asked(query) is asks


@pytest.mark.parametrize(
    ("text", "states"),
    [
        ("About 1,400 dollars a month for the small one.", True),
        ("It was $30 at the market.", True),
        ("Only 300 euros, second hand.", True),
        ("They quoted two grand for the whole thing.", True),
        ("The first lesson was free.", True),
        ("I got the desk for free from a neighbour.", True),
        # a new user's trial: "the 28th" read as "2", beside "bought", answered "How much did
        # Sam pay for the house?" and "What is Sam's salary?"
        ("The van comes on the 28th of November. We bought a house in Bedminster.", False),
        ("We bought it on the 3rd for 420k.", True),
        # a new user's trial: "are you free" answered "How much does Lena earn at Zalando?"
        ("Marco, are you free this weekend? I need help packing boxes.", False),
        ("The bill was cut by 30% since May.", True),
        ("I paid 300 for it at the market.", True),
        ("Replication lag from pg13 to pg16: 0.3 seconds.", False),  # numbers, no money
        ("So far I have 12 weddings booked for the season.", False),
        ("我花了三千块。", True),
        # a currency's code (a blind trial: "RMB 28,800" stated no amount)
        ("So the signing instalment should be RMB 28,800.", True),
        ("Deposit of CHF 1,200 received.", True),
        ("I finally sold the Sony and bought a Canon R6 Mark II last week.", False),  # R6: a name
        ("The build on node p99-3 passed.", False),
    ],
)  # fmt: skip
def test_whether_a_text_states_an_amount(text: str, states: bool) -> None:
    assert amounts.states(text) is states


CANON = Read(["I finally sold the Sony and bought a Canon R6 Mark II last week."])
STUDIO = Read(["I'm thinking of renting a studio in RiNo, about 1,400 dollars a month."])
BIKE = Read(["I got a new bike for the commute."])
PRICE = Read(["Only 300 euros, second hand."], question="Marcus: How much was the bike?")
OTHER = Read(["About 1,400 dollars."], question="Elena: And the studio, what would that cost?")


def test_the_amount_must_be_stated_about_the_thing_asked_about() -> None:
    """The studio's price in another text does not answer what the camera cost."""
    assert amounts.missing("How much did the Canon R6 cost?", [CANON, STUDIO]) is True
    assert amounts.missing("How much does the studio in RiNo cost?", [CANON, STUDIO]) is False


def test_a_reply_to_a_question_naming_the_thing_answers_it() -> None:
    """The amount is in the reply to the question about the bike, not to the one about the
    studio."""
    assert amounts.missing("How much did the bike cost?", [BIKE, PRICE]) is False
    assert amounts.missing("How much did the bike cost?", [BIKE, OTHER]) is True


def test_without_the_things_words_every_text_is_read() -> None:
    query = "How much does Marcus pay for the studio?"  # the studio, held by STUDIO only
    assert amounts.missing(query, [CANON, STUDIO]) is False
    assert amounts.missing(query, [CANON]) is True  # none holds it: every text is read
    assert amounts.missing("What camera did Marcus buy?", [CANON]) is False  # asks no sum


def test_the_amount_must_be_stated_near_the_things_name() -> None:
    """In a text that names the thing, only the sentences naming it and the one after each
    are read: the walker's price, said before the test, is no price of the test."""
    walker = Read(
        ["Pepper's new walker is Tasha, $30 a walk. Also Pepper passed her Good Citizen test!!"]
    )
    query = "How much did the Good Citizen test cost?"
    assert amounts.missing(query, [walker]) is True
    after = Read(["Pepper passed her Good Citizen test! It cost $40 but worth it."])
    assert amounts.missing(query, [after]) is False
    same = Read(["Tasha is great. Paid $40 for the Good Citizen test, she passed."])
    assert amounts.missing(query, [same]) is False


def test_a_later_sentence_naming_the_thing_again_is_read() -> None:
    """A blind trial's "how much did the Riverside room cost us" was not_found: the room hire
    came two sentences after the one naming "Riverside" and "Room" (a booking reference
    between them); a later sentence that names the thing again speaks of it."""
    booking = Read(
        [
            "Booking updated: Spring Recital, Saturday 3:00 PM, Riverside Community Centre, "
            "Room B. Ref REC-0518-R. Room hire $180, paid in full by card ending 4471."
        ]
    )
    assert amounts.missing("how much did the Riverside room cost us", [booking]) is False
    other = Read(["Riverside Community Centre, Room B. Ref REC-0518-R. Parking is $5."])
    assert amounts.missing("how much did the Riverside room cost us", [other]) is True


def test_a_thing_named_across_sentences_is_read_whole() -> None:
    """No one sentence names every word of the thing: the whole text is read."""
    spread = Read(["The Canon is here. The R6 was $2,100 with the lens."])
    assert amounts.missing("How much did the Canon R6 cost?", [spread]) is False


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("How much deposit did Marcus Webb put down on the car?", True),
        ("How much of a deposit did Keystone want?", True),
        ("How much are we paying Jasmine per hour?", True),
        ("What's Tomasz's hourly rate?", False),  # no sum asked for by "how much" or a price
        ("How much equity was Diego offered?", True),
        ("How much did the Canon R6 cost?", False),  # a price, named by no name or rate
        ("How much was the rent a year ago?", False),  # a time ago, no rate
        ("How much does an hour of tutoring cost?", True),
        # a salary or a discount is often stated without its word: not named sums
        ("How much is Tobias's salary?", False),
        ("What discount did Marco offer?", False),
    ],
)  # fmt: skip
def test_the_sums_asked_for_by_their_name_or_rate(query: str, named: bool) -> None:
    assert (amounts.named_sum(query) is not None) is named


def test_a_sum_asked_for_by_its_name_must_be_stated_with_it() -> None:
    """New users' trials asked for a deposit or an hourly rate never given, and the notes
    about the thing, stating other sums, answered them ("How much deposit did Marcus Webb
    put down?" of a car bought for $14,500)."""
    bought = [Read(["Marcus Webb bought the Skoda for $14,500, collected on Friday."])]
    asked = "How much deposit did Marcus Webb put down on the car?"
    assert amounts.missing(asked, bought) is True
    paid = [*bought, Read(["Marcus Webb paid a $500 deposit to hold it."])]
    assert amounts.missing(asked, paid) is False
    # another's deposit does not answer for the one named
    other = [*bought, Read(["Dana Reyes put a $300 deposit on the Fiat."])]
    assert amounts.missing(asked, other) is True
    hourly = "How much are we paying Jasmine per hour?"
    assert amounts.missing(hourly, [Read(["Jasmine's invoice for March: $1,240."])]) is True
    assert amounts.missing(hourly, [Read(["Jasmine is on $32/hr from April."])]) is False
    assert amounts.missing(hourly, [Read(["Jasmine: 32 dollars an hour."])]) is False


def test_a_sum_compared_with_another_is_read_apart() -> None:
    """A new user's trial asked "how much less per month is northpeak costing us than
    brightwake did": each agency's monthly fee is stated on its own, and a note naming both
    states neither. The name the question compares with does not narrow what is read."""
    read = [
        Read(["Kickoff with Northpeak done; Brightwake's access was removed on April 1."]),
        Read(["Paid social is managed by Brightwake Media on a $9,000/month retainer."]),
        Read(["Northpeak proposal: retainer $7,500/month, starting April 1."]),
    ]
    asked = "How much less per month is Northpeak costing us than Brightwake did?"
    assert amounts.missing(asked, read) is False
    assert amounts.missing(asked, read[:1]) is True


SALARY_ASKED = "Jordan: Noted. What's the salary like at Verdant?"
SALARY = "Lower than Monzo, 85k, but I get equity and a four-day week."


def test_a_number_answering_a_question_of_money_is_an_amount() -> None:
    """A new user's trial: "What is Sam's salary at Verdant?" was `not_found` (missing
    `amount`) when Jordan's question ranked above Sam's reply, and answered when the reply
    ranked first: the reply's group held the passage joining the two only in one ranking.
    The reply is read as the answer to the question before it, in either."""
    assert amounts.states(SALARY) is False  # no word of money in the reply itself
    assert amounts.states(SALARY, SALARY_ASKED) is True
    assert amounts.states("Two, since March.", "How many cats do you have?") is False
    asked = "What is Sam's salary at Verdant?"
    assert amounts.missing(asked, [Read([SALARY], SALARY_ASKED)]) is False
    passage = f"{SALARY_ASKED}\nSam: {SALARY}"
    assert amounts.missing(asked, [Read([SALARY, passage], SALARY_ASKED)]) is False


@pytest.mark.parametrize(
    ("query", "thing"),
    [
        ("How much did Sam pay for the house in Bedminster?", ["house", "Bedminster"]),
        ("How much does Lena earn at Zalando?", ["Zalando"]),
        ("What is Sam's salary at Verdant?", ["Verdant"]),
        ("How much did we spend on groceries during the trip?", ["groceries"]),
        ("how much did we pay for the spring catalogue in the end", ["spring", "catalogue"]),
        ("How much is left to pay on the final invoice?", []),  # a balance, not a purchase
        ("How much did the Canon R6 cost?", []),  # the thing that cost: `thing_terms`
    ],
)  # fmt: skip
def test_the_thing_a_sum_was_paid_for_or_earned_at(query: str, thing: list[str]) -> None:
    assert amounts.paid_for(query) == thing


HOUSE = Read(
    ["The removal van comes on the 28th of November. We bought a terraced house in Bedminster."],
    question="Jordan: You're leaving London? When is the move?",
)
RENT = Read(["I signed for a flat in Didsbury yesterday, the rent is 1,150 pounds a month."])


def test_a_sum_of_something_else_does_not_answer_what_was_paid_for_a_thing() -> None:
    """A new user's trial: "How much did Sam pay for the house in Bedminster?" was answered
    by Sam's salary and rent (no price of the house is ever said), and "How much does Lena
    earn at Zalando?" by a turn of hers with no sum at all. Only the groups that hold the
    thing's words are read, when any does."""
    house = "How much did Sam pay for the house in Bedminster?"
    assert amounts.missing(house, [HOUSE, Read([SALARY], SALARY_ASKED), RENT]) is True
    priced = Read(["We bought a terraced house in Bedminster for 420k."])
    assert amounts.missing(house, [HOUSE, priced, RENT]) is False
    job = Read(["I'm moving to Berlin for a new job at Zalando, the flat is ready on the 20th."])
    free = Read(["Marco, are you free this weekend? I need help packing boxes."])
    assert amounts.missing("How much does Lena earn at Zalando?", [free, job, RENT]) is True
    # the thing goes by another name in every group ("a used Subaru", asked as "his car")
    subaru = Read(["Dark green. 2019 model, 40k miles, paid $21,500."], "Priya: What color?")
    assert amounts.missing("How much did Dev pay for his car?", [subaru]) is False
