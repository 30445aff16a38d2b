"""Reference numbers nothing states: a question asking for the number of a booking, an
invoice, a claim, a tracking or an account (a reference), read against the texts that could
answer it (docs/recall.md, *Kinds nothing names*, reference numbers). Pure.

"What's the claim number for Tom's crown?" asks for a reference; a text that answers it
gives one under its name ("Claim DX-20417", "insurer's ref: 88-1932", "INV-30418"). An
agent's notes are full of identifiers that number something else (an appointment's "APT-4471"
in a note about Tom's crown), so a reference counts only when the word of the kind asked
labels it: the label (or one of its short forms) just before an identifier, with at most a
few words of its own between ("invoice #AF-2291", "booking ref is K7QZ2M", "Contract
PW-2024-117"), or the short form as the identifier's prefix ("INV-30418", "PO-5531"). A
ticket, a case, a booking, an order or a job is often named by its code alone ("HD-1130
closed", "BK-10452 moved"): for these, any code of capitals and digits counts; a flight by
its airline's code and number ("AT 412", "BA283"). A record that names the thing and gives
its reference by the plain word shortly after ("EastGrid connection application received.
Reference: GCA-557203.") gives the thing's.

When none of the texts read gives one, nothing there answers the question, however close
their words are. The answer lists the kind ``reference_number`` in ``missing_kinds``, as it
lists a kind of thing nothing names. The texts read are the whole turns of every group
read, and only those that hold every name the question gives, when any does ("What's the
Comcast account number?" is not answered by another company's account), the name of the
person a question is about aside. A whole text, not its sentences: a record gives the
thing's name and its number in different sentences ("Bought the A7 IV from Kessler Camera
... Receipt K-20931."). English questions only; a text in Chinese gives a reference by
单号, 编号 or 号码 before it ("单号SF1409237765").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graph_schema.recall.named import holding, named_terms
from graph_schema.recall.query import names_in_query

KIND = "reference_number"
# the kinds of reference a question asks for, each with the words that label one in a text
_LABELS: dict[str, str] = {
    "invoice": r"invoices?|inv",
    "ticket": r"tickets?|tkt|incidents?|inc|case",
    "case": r"cases?|tickets?|claims?",
    "claim": r"claims?",
    "order": r"orders?|po|purchase\s+order|so",
    "po": r"po|purchase\s+order|orders?",
    "tracking": r"tracking|track|waybill|consignment|awb",
    "confirmation": r"confirmation|conf|confirmed|booking|ref|reference",
    "booking": r"bookings?|booked|ref|reference|confirmation|pnr|conf",
    "reference": r"refs?|references?|confirmation|booking|pnr|case|claim|ticket|invoice|order|"
    r"application|permit",
    "account": r"accounts?|acct|a/c|customer",
    "policy": r"polic(?:y|ies)",
    "contract": r"contracts?|agreement|lease",
    "serial": r"serials?|s/n|sn",
    "vin": r"vin",
    "lot": r"lots?|batch",
    "batch": r"batch|lots?",
    "flight": r"flights?",
    "pnr": r"pnr|booking",
    "licence": r"licen[cs]es?",
    "license": r"licen[cs]es?",
    "plate": r"plates?|reg|registration",
    "registration": r"registration|reg",
    "quote": r"quotes?|quotation|estimate",
    "receipt": r"receipts?",
    "job": r"jobs?|work\s+order|wo",
    "work order": r"work\s+order|wo|jobs?",
    "sku": r"sku",
    "permit": r"permits?",
    "application": r"applications?",
    "membership": r"membership|member",
    "member": r"membership|member",
    "customer": r"customer|account",
    "patient": r"patient",
}
# the kinds named by their code alone in many notes ("HD-1130 closed", "BK-10452 moved")
_CODE_ALONE = frozenset({"ticket", "case", "reference", "booking", "order", "job", "work order"})
_LABEL_WORDS = "|".join(sorted((re.escape(k) for k in _LABELS), key=len, reverse=True))
# "What's the claim number for ...", "the tracking no.", "booking reference code", "VIN",
# "serial numbers"; else "what's the refund reference" (not "who gave Diego a reference")
_ASKS = re.compile(
    rf"\b(?P<label>{_LABEL_WORDS})\s+(?:numbers?|no\.?|#|ids?|codes?|references?|refs?)(?!\w)"
    r"|\b(?P<alone>vin|serial|pnr|sku)s?\b",
    re.I,
)
_ASKS_REFERENCE = re.compile(
    r"\b(?:the|which|what|whats|what['\u2019]s)\s+(?:[\w-]+\s+){0,2}(?:reference|ref)\b", re.I
)
# an identifier: 3 or more letters, digits, dashes, slashes or dots with a digit among them
# ("K-20931", "#AF-2291", "7FARW2H84ME012883"), or six capitals and digits (a PNR, "K7QZ2M")
_ID = r"#?\s?(?:(?=[\w./-]*\d)[A-Za-z0-9][\w./-]{2,}|(?-i:[A-Z0-9]{6})\b)"
# the words a label may have before its identifier: "invoice number is", "booking ref:"
_BETWEEN = r"(?:[\s:#.,]*(?:number|no\.?|num|id|code|ref|reference|is|was|of|ending|in)\b){0,3}"
_CODE = re.compile(r"\b[A-Z]{2,5}-?\d{3,}[\w-]*\b|#\d{3,}")
# a flight is named by its airline's code and number, spaced or not: "AT 412", "BA283", "U2 8041"
_FLIGHT = re.compile(r"\b(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])\s?\d{1,4}[A-Z]?\b")
# no identifier: a date, a time, a sum ("2024-03-06", "11:00", "$2,398", "6/14/2024")
_NOT_IDS = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?\b|\b\d{1,2}[:.]\d{2}\b"
    r"|[$\u20ac\u00a3\u00a5]\s?[\d,.]+|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"
)


def asked(query: str) -> str | None:
    """The kind of reference ``query`` asks for ("claim", "invoice", "reference"...), or
    ``None``."""
    found = _ASKS.search(query)
    if found is None:
        return "reference" if _ASKS_REFERENCE.search(query) else None
    label = re.sub(r"\s+", " ", (found["label"] or found["alone"]).lower())
    return "reference" if label == "ref" else label


# a number labelled in Chinese, whatever it numbers: 单号 / 编号 / 号码 / 订单号 ... before it
_CHINESE = rf"[\u4e00-\u9fff]?(?:\u5355\u53f7|\u7f16\u53f7|\u53f7\u7801|\u53f7)[:\uff1a\s]*{_ID}"


def _forms(label: str) -> str:
    """The words that label a reference of the kind ``label`` in a text, as a pattern."""
    return _LABELS.get(label, re.escape(label))


def _labelled(label: str) -> re.Pattern[str]:
    forms = _forms(label)
    return re.compile(
        rf"\b(?:{forms}){_BETWEEN}[\s:#.,]*{_ID}|\b(?:{forms})[-#]?\d[\w/-]*|{_CHINESE}", re.I
    )


# a reference given by its plain word, whatever it numbers: "Reference: GCA-557203"; it is
# the reference of a kind named at most this many characters before it (a record's sentence)
RECORD_REACH = 100
_PLAIN = re.compile(rf"\b(?:ref|reference){_BETWEEN}[\s:#.,]*{_ID}", re.I)


def states(label: str, text: str) -> bool:
    """Whether ``text`` gives a reference of the kind ``label`` (module docstring)."""
    text = _NOT_IDS.sub(" ", text)
    if _labelled(label).search(text) is not None or _record_of(label, text):
        return True
    if label == "flight":
        return _FLIGHT.search(text) is not None
    return label in _CODE_ALONE and _CODE.search(text) is not None


def _record_of(label: str, text: str) -> bool:
    """Whether ``text`` gives a reference by its plain word shortly after a word of the kind
    ``label`` (within RECORD_REACH characters before it): a record's "EastGrid connection
    application received. Reference: GCA-557203." gives the application's."""
    kind = re.compile(rf"\b(?:{_forms(label)})\b", re.I)
    return any(
        kind.search(text, max(m.start() - RECORD_REACH, 0), m.start()) is not None
        for m in _PLAIN.finditer(text)
    )


def other_names(query: str, person: str | None) -> list[str]:
    """The names and identifiers ``query`` gives (:func:`~graph_schema.recall.named.
    named_terms`) but those naming ``person`` as a question names a speaker
    (:func:`~graph_schema.recall.query.names_in_query`: a key of their name, or its short
    form, "Dan" of Daniel Ashworth)."""
    terms = named_terms(query)
    if person is None:
        return terms
    return [t for t in terms if not names_in_query(t, {person}, people=True)]


def missing(query: str, texts: Iterable[str], *, person: str | None = None) -> list[str]:
    """``[KIND]`` when ``query`` asks for a reference that none of ``texts`` gives, else
    ``[]``. Recall passes the whole text of every group read; only those that hold every
    name the question gives are read, when any does, leaving out the name of ``person``, the
    one speaker the question is about: a record of their business need not name them ("what's
    the reference number for the TDS dispute with Dan" is answered by "TDS Dispute Service -
    Case DR-55810-24 opened")."""
    label = asked(query)
    if label is None:
        return []
    terms = [t for t in other_names(query, person) if t.lower() != label]
    read = holding(terms, list(texts))
    return [] if any(states(label, t) for t in read) else [KIND]
