"""Sentence splitting for English and Chinese, with character offsets into the original text.

Rules (deterministic, no model):

- Line breaks (and NUL, which no stored text may contain) always end a sentence.
- Chinese terminators ``。！？；`` (and ``！？；`` half-width look-alikes ``!?``, ellipses ``…``)
  end a sentence at once, together with any closing quotes or brackets after them.
- An English ``.`` ends a sentence only when followed by whitespace, the end of the text or
  a CJK character, and not after a known abbreviation (``Dr.``, ``e.g.``, ``etc.`` before
  a lower-case word...) or a single capital initial (``J. Smith``). Decimals, versions and
  URLs (``3.14``, ``v2.0``, ``example.com``) are never split because no space follows.
- ``!`` and ``?`` (and runs like ``?!`` or ``...``) end a sentence when followed by
  whitespace, the end of the text or a CJK character.
- Surrounding whitespace is trimmed from each sentence; blank pieces are dropped.
- A sentence longer than ``max_chars`` is cut into pieces at the last space or comma before
  the limit (or hard at the limit), so every piece fits the gate's quote size.

Every returned :class:`Sentence` satisfies ``text[s.start:s.end] == s.text``, and together
the sentences cover every character of the text that is not whitespace or NUL.
"""

from __future__ import annotations

from typing import NamedTuple


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


MAX_SENTENCE_CHARS = 2_000

HARD_BREAKS = frozenset("\n\r\x00\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
CJK_TERMINATORS = frozenset("。！？；｡")
LATIN_TERMINATORS = frozenset(".!?…")
CLOSERS = frozenset("\"'”’)]}»」』）】〕〉》")
SOFT_CUTS = frozenset(" \t,，、;:")

# Never a sentence end: titles and Latin abbreviations that are followed by more text.
NEVER_ENDS = _words(
    "mr mrs ms dr prof st mt sr jr rev hon gen col lt sgt capt gov sen rep e.g i.e eg ie "
    "cf vs viz approx fig figs vol pp dept est ca ref"
)
# A sentence end only when the next word starts with a capital letter.
SOFT_ENDS = _words(
    "etc inc ltd co corp llc jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed "
    "thu fri sat sun no nos a.m p.m am pm u.s u.k u.s.a e.u ph.d al"
)
OPENERS = "\"'“‘(（[「『【"


class Sentence(NamedTuple):
    start: int
    end: int
    text: str


def is_cjk(ch: str) -> bool:
    code = ord(ch)
    return (
        0x3040 <= code <= 0x30FF  # kana
        or 0x3400 <= code <= 0x4DBF  # CJK extension A
        or 0x4E00 <= code <= 0x9FFF  # CJK unified ideographs
        or 0xF900 <= code <= 0xFAFF  # compatibility ideographs
        or 0xAC00 <= code <= 0xD7AF  # Hangul
        or 0x20000 <= code <= 0x2FA1F  # extensions B-F, compatibility supplement
        or 0x3000 <= code <= 0x303F  # CJK punctuation
        or 0xFF00 <= code <= 0xFFEF  # full-width forms
    )


def _skip_closers(text: str, j: int) -> int:
    while j < len(text) and text[j] in CLOSERS:
        j += 1
    return j


def _previous_word(text: str, start: int, dot: int) -> str:
    k = dot
    while k > start and not text[k - 1].isspace():
        k -= 1
    return text[k:dot].lstrip(OPENERS)


def _next_visible(text: str, j: int) -> str:
    while j < len(text) and text[j].isspace() and text[j] not in HARD_BREAKS:
        j += 1
    return text[j] if j < len(text) else ""


def _followed_by_break(text: str, j: int) -> bool:
    return j >= len(text) or text[j].isspace() or text[j] in HARD_BREAKS or is_cjk(text[j])


def _period_ends(text: str, start: int, dot: int, after: int) -> bool:
    """Whether a single ``.`` at ``dot`` ends the sentence begun at ``start``."""
    if not _followed_by_break(text, after):
        return False
    word = _previous_word(text, start, dot).lower()
    if not word:
        return True
    if word in NEVER_ENDS:
        return False
    if len(word) == 1 and word != "i" and text[dot - 1].isupper() and text[dot - 1].isascii():
        return False
    if word in SOFT_ENDS:
        return _next_visible(text, after).isupper()
    return True


def _run_end(text: str, i: int) -> int:
    j = i
    while j < len(text) and text[j] in LATIN_TERMINATORS:
        j += 1
    return j


def _boundaries(text: str) -> list[tuple[int, int]]:
    """Raw (start, end) pieces; ends exclude hard breaks, include terminators and closers."""
    pieces: list[tuple[int, int]] = []
    start = i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in HARD_BREAKS:
            pieces.append((start, i))
            start = i = i + 1
        elif ch in CJK_TERMINATORS:
            j = _skip_closers(text, _cjk_run_end(text, i))
            pieces.append((start, j))
            start = i = j
        elif ch in LATIN_TERMINATORS:
            run = _run_end(text, i)
            j = _skip_closers(text, run)
            single_dot = run - i == 1 and ch == "."
            ends = _period_ends(text, start, i, j) if single_dot else _followed_by_break(text, j)
            if ends:
                pieces.append((start, j))
                start = j
            i = j
        else:
            i += 1
    pieces.append((start, n))
    return pieces


def _cjk_run_end(text: str, i: int) -> int:
    j = i
    while j < len(text) and (text[j] in CJK_TERMINATORS or text[j] in LATIN_TERMINATORS):
        j += 1
    return j


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _cut_point(text: str, start: int, limit: int) -> int:
    """Where to cut a long piece: after the last soft cut in its second half, else at limit."""
    for k in range(limit - 1, start + (limit - start) // 2, -1):
        if text[k] in SOFT_CUTS:
            return k + 1
    return limit


def _fit(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start, end = _trim(text, start, end)
    while end - start > max_chars:
        cut = _cut_point(text, start, start + max_chars)
        piece = _trim(text, start, cut)
        if piece[0] < piece[1]:
            spans.append(piece)
        start, end = _trim(text, cut, end)
    if start < end:
        spans.append((start, end))
    return spans


def split_sentences(text: str, *, max_chars: int = MAX_SENTENCE_CHARS) -> list[Sentence]:
    """Split ``text`` into trimmed, non-blank sentences with offsets into ``text``."""
    if max_chars < 1:
        raise ValueError("max_chars must be positive")
    sentences: list[Sentence] = []
    for start, end in _boundaries(text):
        for s, e in _fit(text, start, end, max_chars):
            sentences.append(Sentence(s, e, text[s:e]))
    return sentences
