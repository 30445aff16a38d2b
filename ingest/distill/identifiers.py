"""Stable identifiers for what facts are about: the speaker, the people and pets the speaker
names by a possessive, and things.

* The speaker is the observation's ``speaker``, exactly (``user:alice``, ``Alex``).
* A relative, friend or pet reached by a possessive ("my dad", 我妈妈, "our dog") is
  ``<speaker>/<role>``: the role in English, whatever the language of the text, so that "my
  dad" and 我爸 are the same person. A role one person can hold only once at a time
  (father, mother, husband, wife, partner, spouse) and a group (parents, children, friends)
  never take a name; any other role takes the name when the text gives one:
  ``user:alice/sister:Anna``, ``user:alice/dog:Max``. Plural roles stay plural
  (``user:alice/turtles``), so "my turtles" is not one of them.
* A thing (a service, a document, a migration) is its noun phrase as written, without a
  leading article, demonstrative or possessive: ``billing service``, ``API spec``, 需求文档.

Entity nodes are keyed on these (docs/entities.md); identifiers never change once written,
and two spellings of one person are joined by explicit ``same_as`` assertions there, never
here. The role tables live in :mod:`graph_schema.entities.roles`, where an entity's kind is
read from them too.
"""

from __future__ import annotations

from graph_schema.entities.roles import FRIENDS, PETS, RELATIVES, SINGLE

__all__ = ["FRIENDS", "PETS", "RELATIVES", "SINGLE", "named", "relation", "relative_id"]


def relation(word: str) -> tuple[str, str] | None:
    """The predicate and role of a relation word: ``("has_relative", "father")`` for "dad",
    ``("has_pet", "dog")`` for "puppy"; None for any other word."""
    key = word.lower()
    for predicate, table in (
        ("has_relative", RELATIVES),
        ("has_friend", FRIENDS),
        ("has_pet", PETS),
    ):
        if key in table:
            return predicate, table[key]
    return None


def named(role: str) -> bool:
    """Whether a role takes the name the text gives (a sister may be one of several)."""
    return role not in SINGLE and not role.endswith("s") and role not in ("fish", "children")


def relative_id(speaker: str, role: str, name: str | None = None) -> str:
    """``<speaker>/<role>`` or ``<speaker>/<role>:<Name>`` (see the module docstring)."""
    if name and named(role):
        return f"{speaker}/{role}:{name.strip()}"
    return f"{speaker}/{role}"
