"""Honest absence: recall answers ``not_found`` when what it found is about somebody else, and
answers when the person asked about said it; in English and in Chinese. Written as a new user
writes (observations, then recall straight after, no admin call)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.helpers import Api, recall_in, turn, write_chat

pytestmark = pytest.mark.integration

CHAT = [
    ("Zed", "How was your weekend, Mia?"),
    ("Mia", "I ran a charity race on Sunday and it made me realize self-care is important."),
    ("Zed", "That is great. I spent mine repairing my old bicycle."),
    ("Mia", "My grandma gave me a necklace from Sweden for my birthday."),
    ("Zed", "It sounds lovely. I started painting landscapes with watercolours."),
]

CHAT_ZH = [
    ("小王", "我下个月要去杭州参加一个数据库会议。"),
    ("小李", "太好了！我最近在学弹钢琴，每天练一个小时。"),
    ("小王", "我家的猫叫团团，今年三岁了。"),
    ("小李", "我妹妹在上海读大学，学的是医学。"),
]


ask = recall_in


def top_speaker(answer: dict[str, Any]) -> str:
    speaker: str = answer["results"][0]["evidence"][0]["speaker"]
    return speaker


@pytest.fixture(scope="module")
def chat(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], CHAT)


@pytest.mark.parametrize(
    ("question", "speaker"),
    [
        ("What did Mia realize after her charity race?", "Mia"),
        ("What did Mia's grandma give her?", "Mia"),
        ("What did Zed repair?", "Zed"),
    ],
)
def test_a_question_about_the_person_who_said_it_is_answered(
    api: dict[str, Api], chat: str, question: str, speaker: str
) -> None:
    answer = ask(api["bob"], question, chat)
    assert answer["status"] == "answered", answer["relevance"]
    assert top_speaker(answer) == speaker


@pytest.mark.parametrize(
    "question",
    [
        "What did Zed realize after his charity race?",
        "What did Zed's grandma give him?",
        "What did Mia repair?",
    ],
)
def test_a_question_about_the_wrong_person_is_not_found(
    api: dict[str, Api], chat: str, question: str
) -> None:
    answer = ask(api["bob"], question, chat)
    assert answer["status"] == "not_found", [
        (r["evidence"][0]["speaker"], r["why"]) for r in answer["results"][:3]
    ]
    assert answer["results"], "the results are still returned, ranked: only the status says"


@pytest.fixture(scope="module")
def chat_zh(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], CHAT_ZH)


@pytest.mark.parametrize(
    ("question", "turn"),
    [
        ("小王的猫叫什么名字？", "团团"),
        ("小李在学什么乐器？", "钢琴"),
        ("小王下个月去哪里开会？", "杭州"),
    ],
)
def test_a_chinese_question_is_answered(
    api: dict[str, Api], chat_zh: str, question: str, turn: str
) -> None:
    answer = ask(api["bob"], question, chat_zh)
    assert answer["status"] == "answered", answer["relevance"]
    assert turn in answer["results"][0]["assertion"]["object"]


@pytest.mark.parametrize("question", ["小王喜欢什么颜色？", "小李的狗叫什么名字？"])
def test_a_chinese_question_nothing_answers_is_not_found(
    api: dict[str, Api], chat_zh: str, question: str
) -> None:
    answer = ask(api["bob"], question, chat_zh)
    assert answer["status"] == "not_found", answer["relevance"]


# the listener's reactions repeat the speaker's words: "your show", "did you teach?"
CHAT_REACTIONS = [
    ("Mia", "I hosted a cooking show last week where I taught vegan ice cream recipes."),
    ("Zed", "Wow, your cooking show sounds amazing! Which ice cream recipes did you teach?"),
    ("Mia", "Coconut milk, vanilla and a pinch of salt."),
    ("Zed", "Glad your vegan show went well. You must be proud of your cooking."),
    ("Zed", "I repaired my old bicycle this week."),
]


@pytest.fixture(scope="module")
def reactions(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], CHAT_REACTIONS)


def test_what_a_person_says_about_the_listeners_life_does_not_answer_for_them(
    api: dict[str, Api], reactions: str
) -> None:
    wrong = ask(api["bob"], "What kind of cooking show did Zed host?", reactions)
    assert wrong["status"] == "not_found", wrong["relevance"]
    right = ask(api["bob"], "What kind of cooking show did Mia host?", reactions)
    assert right["status"] == "answered", right["relevance"]
    assert top_speaker(right) == "Mia"
    own = ask(api["bob"], "What did Zed repair this week?", reactions)
    assert own["status"] == "answered", own["relevance"]


# the person asked about said something close of their own; the other said what is asked
CHAT_CLOSE = [
    ("Ana", "Surfing makes me feel free; while surfing I forget everything else."),
    ("Tom", "I tried surfing once last summer and mostly fell off the board."),
    ("Ana", "My brother repairs old radios in his garage."),
    ("Tom", "I bake sourdough bread every Saturday."),
]


@pytest.fixture(scope="module")
def close(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], CHAT_CLOSE)


def test_a_person_outmatched_by_what_another_states_is_not_found(
    api: dict[str, Api], close: str
) -> None:
    wrong = ask(api["bob"], "How does Tom feel while surfing?", close)
    assert wrong["status"] == "not_found", (wrong["relevance"], wrong["person"])
    assert wrong["person"]["name"] == "Tom"
    assert wrong["person"]["others_relevance"] > wrong["relevance"]
    right = ask(api["bob"], "How does Ana feel while surfing?", close)
    assert right["status"] == "answered", (right["relevance"], right["person"])
    assert right["person"]["name"] == "Ana" and top_speaker(right) == "Ana"
    own = ask(api["bob"], "What does Tom bake on Saturdays?", close)
    assert own["status"] == "answered", (own["relevance"], own["person"])
    nobody = ask(api["bob"], "What does the bakery sell?", close)
    assert nobody["person"] is None


MANY_CHATS_MINE = [
    ("Tomas", "How was your weekend, Ines?"),
    ("Ines", "I ran a charity race on Sunday and it made me realize self-care is important."),
    ("Tomas", "That is great. I spent mine repairing my old canoe."),
]
MANY_CHATS_OTHER = [
    ("Lena", "After my charity race last weekend I realized that self-care is really important."),
    ("Omar", "I repaired my old canoe on Saturday."),
]


def test_another_chats_people_do_not_move_the_status_of_a_question_about_a_person(
    api: dict[str, Api],
) -> None:
    """A store of many chats, asked without a filter (a new user's trial): Lena, of another
    chat, tells of her race in words closer to the question than Ines's own turn. Her turn
    says nothing of whether Ines said it; Tomas's chat partner's does."""
    legal = {n: ["legal"] for n in range(3)}
    mine = write_chat(api["erin"], MANY_CHATS_MINE, access=legal)
    write_chat(api["erin"], MANY_CHATS_OTHER, access=legal)

    def unfiltered(question: str) -> dict[str, Any]:
        response = api["erin"].post("/v1/recall", {"query": question, "k": 10})
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        return answer

    asked = "What did Ines realize after her charity race?"
    right = unfiltered(asked)
    assert right["status"] == "answered", (right["relevance"], right["person"])
    assert top_speaker(right) == "Ines"
    assert right["results"][0]["evidence"][0]["quote"] in MANY_CHATS_MINE[1][1]
    assert right["person"]["others_relevance"] < right["relevance"]
    # the person of the same chat still outmatches: Tomas never ran a race
    never = "What did Tomas realize after his charity race?"
    wrong = unfiltered(never)
    assert wrong["status"] == "not_found", (wrong["relevance"], wrong["person"])
    assert wrong["person"]["others_relevance"] > wrong["relevance"]
    # the same answers as within the chat
    assert ask(api["erin"], asked, mine)["status"] == "answered"
    assert ask(api["erin"], never, mine)["status"] == "not_found"


def test_what_a_reader_may_not_see_does_not_move_the_status_of_a_question_about_a_person(
    api: dict[str, Api],
) -> None:
    question = "How does Tom feel while surfing?"
    conversation = f"conv-{uuid.uuid4().hex[:8]}"

    def write(n: int, access: list[str] | None = None) -> None:
        speaker, text = CHAT_CLOSE[n]
        response = api["alice"].post(
            "/v1/observations", turn(conversation, n, speaker, text, access)
        )
        assert response.status_code == 201, response.text

    for n in range(1, len(CHAT_CLOSE)):
        write(n)
    before = ask(api["bob"], question, conversation)
    # Ana's statement arrives late, for finance only (it is turn 0: Tom's turn follows it)
    write(0, ["finance"])
    seen = ask(api["alice"], question, conversation)
    assert seen["status"] == "not_found", (seen["relevance"], seen["person"])
    # sales reads the conversation as if the statement had never been made
    after = ask(api["bob"], question, conversation)
    assert before["status"] == after["status"] == "answered"
    assert (after["relevance"], after["person"]) == (before["relevance"], before["person"])
    assert [r["score"] for r in after["results"]] == [r["score"] for r in before["results"]]


NOTES = [
    ("agent", "Decided to use PostgreSQL 16 for the billing service instead of MySQL."),
    ("agent", "Tried Redis streams for the event queue; dropped it because ordering broke."),
    ("agent", "The current version of the API spec is v2.3, replacing v2.2."),
    ("agent", "Incident INC-405: the nightly export timed out on the ledger database."),
    ("tool:ci", "Build 2291 of the billing API failed: 3 tests in test_invoices.py timed out."),
]


@pytest.fixture(scope="module")
def notes(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], NOTES)


@pytest.mark.parametrize(
    ("question", "unmentioned"),
    [
        ("What was decided about Kafka?", ["Kafka"]),
        ("What was the root cause of INC-406?", ["INC-406"]),
        ("Why did the team drop RabbitMQ for the event queue?", ["RabbitMQ"]),
        ("Is v2.4 of the API spec current?", ["v2.4"]),
        ("Why did build 2300 fail?", ["2300"]),  # answered with build 2291's failure before
        ("Who owns the mobile app?", ["mobile", "app"]),  # a thing no note names
        ("What is the current version of the API runbook?", ["runbook"]),
    ],
)
def test_a_question_naming_a_thing_nothing_mentions_is_not_found(
    api: dict[str, Api], notes: str, question: str, unmentioned: list[str]
) -> None:
    answer = ask(api["bob"], question, notes)
    assert answer["status"] == "not_found", (answer["relevance"], answer["unmentioned"])
    assert answer["unmentioned"] == unmentioned
    assert answer["results"], "the closest results are still returned"


@pytest.mark.parametrize(
    "question",
    [
        "What was decided about PostgreSQL?",
        "What happened in INC-405?",
        "Why were Redis streams dropped?",
        "What is the current version of the API spec?",
        "Why did build 2291 fail?",
        "Which version of the API spec is current?",
    ],
)
def test_a_question_naming_a_thing_memory_mentions_is_answered(
    api: dict[str, Api], notes: str, question: str
) -> None:
    answer = ask(api["bob"], question, notes)
    assert answer["status"] == "answered", (answer["relevance"], answer["unmentioned"])
    assert answer["unmentioned"] == []


def test_a_mention_the_reader_may_not_see_is_no_mention(api: dict[str, Api]) -> None:
    """A hidden note naming Kafka leaves the answer to a reader who may not see it exactly as
    if it had never been written; its readers get the question answered."""
    conversation = write_chat(api["alice"], NOTES)
    question = "What was decided about Kafka?"
    before = ask(api["bob"], question, conversation)
    hidden = ("agent", "Decided to keep Kafka for the event queue after the load test.")
    body = turn(conversation, len(NOTES), *hidden, access=["finance"])
    assert api["alice"].post("/v1/observations", body).status_code == 201
    after = ask(api["bob"], question, conversation)
    assert before["unmentioned"] == after["unmentioned"] == ["Kafka"]
    assert before["status"] == after["status"] == "not_found"
    assert [r["score"] for r in after["results"]] == [r["score"] for r in before["results"]]
    seen = ask(api["alice"], question, conversation)
    assert seen["unmentioned"] == [] and seen["status"] == "answered", seen["relevance"]


def test_a_thing_mentioned_only_outside_the_filters_is_unmentioned(
    api: dict[str, Api], notes: str
) -> None:
    """The check reads what the query's filters let in: Kafka named in another conversation
    does not answer for this one."""
    other = write_chat(api["alice"], [("agent", "Kafka was chosen for the audit log.")])
    inside = ask(api["bob"], "What was decided about Kafka?", notes)
    assert inside["unmentioned"] == ["Kafka"] and inside["status"] == "not_found"
    there = ask(api["bob"], "What was decided about Kafka?", other)
    assert there["unmentioned"] == [] and there["status"] == "answered", there["relevance"]


FAMILY_CHAT = [
    ("Priya", "Guess what, I finally got the job at the aquarium. I start next Monday."),
    ("Tom", "Congrats! I've been stuck fixing my car all week, the gearbox died."),
    ("Priya", "By the way, my sister Anika is moving to Lisbon in March for her PhD."),
    ("Tom", "Lisbon is lovely. I went there two years ago with my wife."),
    ("Priya", "Oh, and we adopted a rescue cat called Biscuit yesterday!"),
    ("Tom", "A cat! I'm allergic, so I'll admire Biscuit from a distance."),
]


@pytest.fixture(scope="module")
def family_chat(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], FAMILY_CHAT)


@pytest.mark.parametrize(
    ("question", "missing"),
    [
        ("What instrument does Tom play?", ["musical_instrument"]),
        ("What is Priya's favourite colour?", ["color"]),
        ("What is the name of Tom's dog?", ["dog"]),
        ("Where does Priya's brother live?", ["brother"]),
    ],
)
def test_a_question_asking_for_a_kind_nothing_names_is_not_found(
    api: dict[str, Api], family_chat: str, question: str, missing: list[str]
) -> None:
    """The best turn is close in words (a cat for a dog, a sister for a brother), but no turn
    of the person asked about names a thing of the kind asked for."""
    answer = ask(api["bob"], question, family_chat)
    assert answer["status"] == "not_found", (answer["relevance"], answer["missing_kinds"])
    assert answer["missing_kinds"] == missing
    assert answer["results"], "the closest results are still returned"


@pytest.mark.parametrize(
    "question",
    [
        "What is the name of Priya's cat?",
        "Where is Priya's sister moving?",
        "Who did Tom go to Lisbon with?",
        "Where did Priya get a job?",
    ],
)
def test_a_question_asking_for_a_kind_a_turn_names_is_answered(
    api: dict[str, Api], family_chat: str, question: str
) -> None:
    answer = ask(api["bob"], question, family_chat)
    assert answer["status"] == "answered", (answer["relevance"], answer["missing_kinds"])
    assert answer["missing_kinds"] == []


def test_a_kind_named_later_answers_the_question(api: dict[str, Api]) -> None:
    """The same question, once the person names an instrument in a new turn, is answered
    straight after the write."""
    conversation = write_chat(api["alice"], FAMILY_CHAT)
    question = "What instrument does Tom play?"
    assert ask(api["bob"], question, conversation)["status"] == "not_found"
    later = ("Tom", "These days I mostly play the cello in the evenings.")
    body = turn(conversation, len(FAMILY_CHAT), *later)
    assert api["alice"].post("/v1/observations", body).status_code == 201
    answer = ask(api["bob"], question, conversation)
    assert answer["status"] == "answered", (answer["relevance"], answer["missing_kinds"])
    assert answer["missing_kinds"] == []


SHOP_CHAT = [
    ("Marcus", "I finally sold the Sony and bought a Canon R6 Mark II last week."),
    ("Elena", "Nice! And the studio in RiNo, what would that cost?"),
    ("Marcus", "About 1,400 dollars a month for the small one."),
    ("Elena", "I got a new bike for the commute."),
    ("Marcus", "How much was the bike?"),
    ("Elena", "Only 300 euros, second hand."),
]


@pytest.fixture(scope="module")
def shop_chat(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], SHOP_CHAT)


def test_a_price_nothing_states_is_not_found(api: dict[str, Api], shop_chat: str) -> None:
    """The purchase is there, close in words; its price is not: the studio's is another's."""
    answer = ask(api["bob"], "How much did the Canon R6 cost?", shop_chat)
    assert answer["status"] == "not_found", (answer["relevance"], answer["missing_kinds"])
    assert answer["missing_kinds"] == ["amount"]
    assert "Canon R6" in answer["results"][0]["evidence"][0]["quote"]


@pytest.mark.parametrize(
    "question", ["How much does the studio in RiNo cost?", "How much did Elena's bike cost?"]
)
def test_a_price_stated_or_answered_in_a_reply_is_answered(
    api: dict[str, Api], shop_chat: str, question: str
) -> None:
    answer = ask(api["bob"], question, shop_chat)
    assert answer["status"] == "answered", (answer["relevance"], answer["missing_kinds"])
    assert answer["missing_kinds"] == []


JOB_CHAT = [
    ("Nadia", "Yes! I got the job at the marine institute, I start in May."),
    ("Omar", "I sold my first bowl at the winter market! Twenty-five euros."),
    ("Nadia", "Amazing. I'm diving twice a week for the survey project."),
]


def test_a_price_another_person_states_does_not_answer_for_the_one_asked_about(
    api: dict[str, Api],
) -> None:
    """Nadia's pay is stated nowhere; Omar's bowl's price is his."""
    conversation = write_chat(api["alice"], JOB_CHAT)
    answer = ask(api["bob"], "How much does Nadia earn at the institute?", conversation)
    assert answer["status"] == "not_found", (answer["relevance"], answer["missing_kinds"])
    assert answer["missing_kinds"] == ["amount"]
    answer = ask(api["bob"], "How much did Omar sell his first bowl for?", conversation)
    assert answer["status"] == "answered", (answer["relevance"], answer["missing_kinds"])


CARS = [
    ("Marcus Webb", "Bought the Skoda for $14,500 in the end, picking it up on Friday."),
    ("Dana Reyes", "Nice! I put a $300 deposit on the Fiat yesterday, collecting it next week."),
]


def test_a_sum_asked_for_by_its_name_must_be_stated_with_it(api: dict[str, Api]) -> None:
    """New users' trials asked for a deposit or an hourly rate never given ("How much deposit
    did Marcus Webb put down on the car?"), and the person's turn stating another sum (the
    car's price) answered it. A sum asked for by its name or its rate is missing when no
    sentence read states an amount with that name or rate."""
    conversation = write_chat(api["alice"], CARS)
    marcus = ask(api["bob"], "How much deposit did Marcus Webb put down on the car?", conversation)
    assert marcus["missing_kinds"] == ["amount"], marcus
    assert marcus["status"] == "not_found"
    dana = ask(api["bob"], "How much deposit did Dana put down on the Fiat?", conversation)
    assert dana["missing_kinds"] == [], dana
    assert dana["status"] == "answered", dana["relevance"]


CATERING = [
    (
        "Dana",
        "Hi! Dana from Keller & Shaw here. We'd love 40 pastries for our open house on "
        "March 14th, delivered to 220 Pine St by 9am.",
    ),
    ("Rosa", "Sure, we can do that. Carlos can take any questions: call him on +1 415 555 0142."),
    ("Dana", "Great, and send the invoice to dana.w@kellershaw.com please."),
]


def test_a_contact_detail_nothing_states_is_not_found(api: dict[str, Api]) -> None:
    """Three blind trials asked for a phone number or an email address never given ("What's
    Dana Whitfield's phone number?"): each was answered by the person's turns about other
    things. A phone number asked for and held by none of the texts read is not_found."""
    conversation = write_chat(api["alice"], CATERING)
    phone = ask(api["bob"], "What's Dana's phone number?", conversation)
    assert phone["missing_kinds"] == ["phone_number"], phone
    assert phone["status"] == "not_found"
    email = ask(api["bob"], "What is Dana's email address?", conversation)
    assert email["status"] == "answered", (email["relevance"], email["missing_kinds"])
    carlos = ask(api["bob"], "What's the phone number to reach Carlos?", conversation)
    assert carlos["missing_kinds"] == [], carlos
    assert carlos["status"] == "answered"


DENTAL = [
    (
        "agent",
        "Appointment booked: patient Tom Alvarez, crown prep tooth #19, Dr. Raman, Room 2. "
        "Confirmation code APT-4471.",
    ),
    ("Tom", "Thanks! My insurer, Delta Dental, approved the crown at 50%."),
    (
        "agent",
        "Lab order for Tom's crown sent to Crestline Dental Lab: order CL-88213, shade A2.",
    ),
]


def test_a_reference_nothing_gives_under_its_name_is_not_found(api: dict[str, Api]) -> None:
    """New users' trials asked for a reference never given ("What's the claim number for
    Tom's crown?"), and the notes about the thing, full of other identifiers, answered it. A
    reference asked for that no text read gives under its name is not_found; one given is
    answered, also when the question is about a speaker and a note about them gives it in a
    sentence after the one naming them (the confirmation code below: the kinds read only the
    sentence naming the person and the next one, so the whole turn is read for a reference)."""
    conversation = write_chat(api["alice"], DENTAL)
    claim = ask(api["bob"], "What's the claim number for Tom's crown?", conversation)
    assert claim["missing_kinds"] == ["reference_number"], claim
    assert claim["status"] == "not_found"
    for question in (
        "What's the lab order number for Tom's crown?",
        "What was the confirmation code for Tom's appointment?",
    ):
        answer = ask(api["bob"], question, conversation)
        assert answer["missing_kinds"] == [], (question, answer)
        assert answer["status"] == "answered", (question, answer["relevance"])


STAG = [
    (
        "Ravi",
        "Edinburgh is locked in: house on Dundas Street, £1,240 total. Connor's running the "
        "whisky tour on Saturday at 2pm.",
    ),
    (
        "booking_portal",
        "Booking confirmed. Ref: CC-448213. Property: Gull's Rest, 4 Porthmeor Row, St Ives. "
        "Arrive Sat 27 Jul, depart Sat 3 Aug.",
    ),
]


def test_the_names_of_a_question_in_lower_case_narrow_what_is_read(api: dict[str, Api]) -> None:
    """A blind trial asked "whats the booking reference for the dundas street house": the
    question, all in lower case, named nothing, so every note was read, and the cottage's
    booking reference answered for the house. Its words written as the notes write them
    name Dundas, and only the notes holding it are read: not_found. The cottage's reference,
    asked for the same way, is answered."""
    conversation = write_chat(api["alice"], STAG)
    house = ask(api["bob"], "whats the booking reference for the dundas street house", conversation)
    assert house["missing_kinds"] == ["reference_number"], house
    assert house["status"] == "not_found"
    cottage = ask(api["bob"], "whats the booking reference for the st ives cottage", conversation)
    assert cottage["missing_kinds"] == [], cottage
    assert cottage["status"] == "answered", cottage["relevance"]


TRIP = [
    ("Ada", "Hi, Ada here, planning our Lisbon trip. I'm on Lagos time, so mornings are best."),
    (
        "agent",
        "Activities booked: (1) Pena Palace day trip, 29 Jul, timed entry 09:30 - 5 tickets, "
        "EUR 148. (2) Oceanario de Lisboa, 26 Jul - 5 tickets, EUR 92. Total EUR 240.",
    ),
    ("Chinedu", "Thanks! I fixed the kids' passports today, all renewed until 2035."),
]


def test_a_time_of_day_or_a_zone_nothing_states_is_not_found(api: dict[str, Api]) -> None:
    """Two blind trials asked for a time of day or a time zone never given ("What time is our
    entry slot at the Oceanario?", "What time zone is Jordan Blake in?"): each was answered
    by the closest note (the bookings, whose one time is the other booking's; Jordan's turns
    about seats). Such a question is not_found when the texts read hold none."""
    conversation = write_chat(api["alice"], TRIP)
    slot = ask(api["bob"], "What time is our entry slot at the Oceanario?", conversation)
    assert slot["missing_kinds"] == ["clock_time"], slot
    assert slot["status"] == "not_found"
    pena = ask(api["bob"], "What time is our entry slot at Pena Palace?", conversation)
    assert pena["missing_kinds"] == [], pena
    assert pena["status"] == "answered", pena["relevance"]
    zone = ask(api["bob"], "What time zone is Chinedu in?", conversation)
    assert zone["missing_kinds"] == ["time_zone"], zone
    assert zone["status"] == "not_found"
    ada = ask(api["bob"], "What time zone is Ada in?", conversation)
    assert ada["missing_kinds"] == [], ada


RUNBOOK = [
    ("Dana", "bumping payments-api from 4 to 6 replicas before the end-of-month billing run"),
    (
        "github",
        "Merged PR #482 'runbooks/disk-full.md: add step to check the archiver before "
        "deleting any WAL' (author: Marcus Webb)",
    ),
    ("Dana", "payments-api back down to 4 replicas, the autoscaler is live now"),
]


def test_a_path_in_a_tools_line_is_no_person_a_question_is_about(api: dict[str, Api]) -> None:
    """A blind trial's "How many replicas did payments-api have before it was scaled up?"
    was not_found: a tool's line with a path and a colon was read as a person's identifier,
    named by its whole tail ("add step ... before deleting any WAL"), and the question's
    "before" made it the person asked about, whose groups said nothing of replicas."""
    conversation = write_chat(api["alice"], RUNBOOK)
    answer = ask(
        api["bob"], "How many replicas did payments-api have before it was scaled up?", conversation
    )
    assert answer["person"] is None, answer["person"]
    assert answer["status"] == "answered", answer["relevance"]


# sixteen turns of two people: enough that the turns about Tom's anniversary rank below the
# top three for a question about Priya's
LONG_CHAT = [
    ("Priya", "Hey Tom! I finally got the job at the aquarium, assistant curator from Monday."),
    ("Tom", "Congrats Priya! I've been stuck fixing my car all week, the gearbox died."),
    ("Priya", "Oh no. Is it the old Volvo? You've had that thing since college."),
    ("Tom", "Yeah, the Volvo. My brother Sam says I should sell it and buy an electric one."),
    ("Priya", "Sam has a point. By the way, my sister Anika is moving to Lisbon in March."),
    ("Tom", "Lisbon is lovely. I went there two years ago with my wife for our anniversary."),
    ("Priya", "Did you like the food? Anika is vegetarian and worried about it."),
    ("Tom", "Plenty of vegetarian places. We ate at a tiny place near the castle every night."),
    ("Priya", "Good to know. I'm also learning Portuguese on an app so I can visit her."),
    ("Tom", "Nice. I tried learning Spanish last year but gave up after a month."),
    ("Priya", "Ha, same with piano for me. Oh, and we adopted a rescue cat called Biscuit!"),
    ("Tom", "A cat! I'm allergic, so I'll admire Biscuit from a distance."),
    ("Priya", "Fair. How is your running going? Still training for the Berlin marathon?"),
    ("Tom", "The marathon is in September. I run about 50 kilometres a week now."),
    ("Priya", "Impressive. My knee still hurts from the hiking trip in Wales."),
    ("Tom", "Take care of that knee. See a physio maybe."),
]


@pytest.fixture(scope="module")
def long_chat(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], LONG_CHAT)


@pytest.mark.parametrize(
    "question",
    [
        "Where did Priya go on her anniversary?",
        "Where did Tom go on his anniversary?",
        "What language is Priya learning?",
        "Which marathon is Priya training for?",
        "What is Tom allergic to?",
    ],
)
def test_the_status_is_the_same_at_every_k(
    api: dict[str, Api], long_chat: str, question: str
) -> None:
    """The status reads the same ranked turns whatever k asks to return: a question is not
    answered at k = 3 and refused at k = 10 (the contrast with Tom's anniversary turn ranked
    fourth), and the results at a smaller k are the first of those at a larger one."""
    answers = {}
    for k in (1, 3, 10, 30):
        body = {"query": question, "k": k, "filters": {"conversation_id": long_chat}}
        response = api["bob"].post("/v1/recall", body)
        assert response.status_code == 200, response.text
        answers[k] = response.json()
    fields = ("status", "relevance", "person", "missing_kinds", "unmentioned")
    verdicts = {k: tuple(str(a[f]) for f in fields) for k, a in answers.items()}
    assert len(set(verdicts.values())) == 1, verdicts
    ids = {k: [r["assertion"]["id"] for r in a["results"]] for k, a in answers.items()}
    assert ids[1] == ids[3][:1] and ids[3] == ids[10][:3] and ids[10] == ids[30][:10]


def test_a_turn_beyond_the_k_returned_still_contrasts(api: dict[str, Api], long_chat: str) -> None:
    """Tom's anniversary turn is no answer for Priya even when only three results are asked
    for (it ranked fourth, and the status read the three alone: answered)."""
    body = {"query": "Where did Priya go on her anniversary?", "k": 3}
    response = api["bob"].post("/v1/recall", {**body, "filters": {"conversation_id": long_chat}})
    answer = response.json()
    assert answer["status"] == "not_found", (answer["relevance"], answer["person"])
    assert answer["person"]["others_relevance"] > answer["relevance"]


KEGS = [
    ("Maggie Dunleavy", "That's the third late Kegline delivery since January. We're paying "
     "$9.50 per keg per month on 140 kegs with them, so I want quotes that beat that."),
    ("email", "NorthCask Keg Leasing can supply stainless kegs at $8.25 per keg per month, "
     "minimum 120 kegs, 18-month term."),
    ("Tomas Ferreira", "I'd go with NorthCask even at the higher rate."),
    ("NorthCask lease agreement", "Keg Lease Agreement NC-2024-0381. Fleet: 130 kegs at "
     "$8.25 per keg per month; term 18 months commencing April 1, 2024."),
]  # fmt: skip


def test_a_documents_speaker_named_is_read_by_its_own_records_without_a_contrast(
    api: dict[str, Api],
) -> None:
    # a blind trial: the lease's document was read as the person asked about, and Maggie's
    # statement of the old supplier's price outmatched it (not_found before)
    kinds = {1: "tool_returned", 3: "document"}
    conversation = write_chat(api["alice"], KEGS, kinds=kinds)
    answer = ask(api["alice"], "what are we paying per keg each month with northcask", conversation)
    assert answer["person"]["name"] == "NorthCask lease agreement"
    assert answer["person"]["others_relevance"] is None  # no contrast between people
    assert answer["status"] == "answered"
    asked = ask(api["alice"], "Which supplier would Tomas go with?", conversation)
    assert asked["person"]["name"] == "Tomas Ferreira"
    assert asked["person"]["others_relevance"] is not None  # a person keeps the contrast


CHAT_REACTION = [
    ("Odile", "How was Porto? Did you find a flat?"),
    ("Bartek", "We adopted a cat in Porto, by the way. A ginger one called Bacalhau."),
    ("Odile", "Bacalhau! That's the best cat name I've ever heard."),
    ("Bartek", "I also started a cheese-making course last Sunday."),
]


@pytest.fixture(scope="module")
def reaction(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], CHAT_REACTION)


def test_a_superlative_reaction_to_anothers_news_is_not_the_reacting_persons_own(
    api: dict[str, Api], reaction: str
) -> None:
    """A new user's trial: Odile's reaction to Bartek's cat answered "What is the name of
    Odile's cat?" (her turn holds "cat" and "name"), and outmatched Bartek's own turn for his
    cat, which was refused."""
    odile = ask(api["bob"], "What is the name of Odile's cat?", reaction)
    assert odile["status"] == "not_found", odile["person"]
    bartek = ask(api["bob"], "What is the name of Bartek's cat?", reaction)
    assert bartek["status"] == "answered", bartek["person"]
    assert top_speaker(bartek) == "Bartek"
