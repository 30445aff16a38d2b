"""Where a validation problem is, said in the request's own terms. Pure.

Pydantic names the member of a union it tried in an error's location
(``evidence.function-after[_quote_in_source(), EvidenceWrite]``, ``object.str``) and reports
one error per member: the caller sent ``evidence``, and the member it did not choose says
nothing useful ("Input should be a valid list" for a list whose first span is blank). The
error shape (``where``, ``message``) names fields and list positions only, and the first
problem reported is the most specific one: the one that reached deepest into what was sent.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import Any

# a union member's tag: ``function-after[...]``, ``list[...]``, ``str``, ``int``...
_MEMBER = re.compile(r"^[\w-]+\[.*\]$|^(?:str|int|float|bool|dict|list|none)$", re.S)


def where(loc: Sequence[int | str], default: str = "body") -> str:
    """``loc`` as dotted field names and ``[index]`` positions, union members left out."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not _MEMBER.match(part):
            out += f".{part}" if out else part
    return out or default


# "... or instance of EvidenceWrite": the name of a class, which the caller never sent
_INSTANCE = re.compile(r" or instance of \w+")


def first(errors: Sequence[Any]) -> Any:
    """The most specific of pydantic's ``errors()``: the deepest location; of equals, one that
    is no mismatch of type (a union member the caller did not choose: for nine spans, "at most
    8 items", not "a valid dictionary"), else the earliest (pydantic lists a union's members
    in order)."""
    deepest = max(len(e["loc"]) for e in errors)
    tied = [e for e in errors if len(e["loc"]) == deepest]
    return next((e for e in tied if not str(e["type"]).endswith("_type")), tied[0])


def message(error: Any) -> str:
    """An error's message in the request's terms: no "Value error, " prefix, no class name,
    "after validation" left out (a new user's trial read "Input should be a valid dictionary
    or instance of EvidenceWrite")."""
    if error["type"] == "int_parsing_size":  # "exceeded maximum size" named no size
        return f"an integer here has at most {sys.get_int_max_str_digits()} digits"
    text = str(error["msg"]).removeprefix("Value error, ")
    text = _INSTANCE.sub("", text).replace("a valid dictionary", "a JSON object")
    # "... or object to extract fields from": a Python object, which JSON cannot send
    text = text.replace(" or object to extract fields from", "")
    return text.replace(" after validation", "")
