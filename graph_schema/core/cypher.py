"""The Cypher builders every capability's statements are made of: visibility, the bitemporal
filter, stable plans and times sent as strings.

Each capability keeps its statements in its own ``cypher.py`` (``graph_schema/ledger/cypher.py``,
``graph_schema/events/cypher.py``, ...), as named constants and small builders. Values always
travel as ``$parameters``. The only text spliced into a statement is a node variable name from
:data:`_VARIABLES`, checked by :func:`visible`, or a property name from a module's constants.
"""

from __future__ import annotations

_VARIABLES = frozenset(
    {
        "a",
        "d",
        "e",
        "o",
        "p",
        "ev",
        "cause",
        "effect",
        "x",
        "s",
        "q",
        "t",
        "n",
        "y",
        "src",
        "sup",
        "tk",
    }
)
# A caller expression of :func:`task_shown`: the read's ``$caller`` (a principal id), or
# ``null`` where a statement has no caller (the rule is then by groups alone).
_CALLERS = frozenset({"$caller", "null"})
# The property naming who wrote a node into its task: an assertion's or an event's writer, an
# observation's submitter.
_OWNERS = frozenset({"written_by", "submitted_by"})
# The record time a lifecycle builder reads transitions at: a read's ``$known_at``, or a
# write's ``$now``.
_INSTANTS = frozenset({"$known_at", "$now"})

TIER_CHANGE = "TierChange"
PIN_CHANGE = "PinChange"


def visible(var: str) -> str:
    """The visibility predicate over ``$groups``: the node is public or shares a group with
    the caller, and every source requirement in ``access_all`` (each "g1|g2": any of these
    groups) is met too, so a derived fact is visible only to readers of all its sources."""
    if var not in _VARIABLES:
        raise ValueError(f"unknown Cypher variable {var!r}")
    return (
        f"((size({var}.access) = 0 OR any(g IN {var}.access WHERE g IN $groups))"
        f" AND all(req IN coalesce({var}.access_all, [])"
        " WHERE any(g IN split(req, '|') WHERE g IN $groups)))"
    )


def task_shown(var: str, caller: str = "$caller", owner: str = "written_by") -> str:
    """Whether the caller may see the task node ``var`` was written in (docs/lifecycle.md
    "Tasks"): it names none, or its writer's task of that id (the ``Task`` keyed writer +
    "\\x1f" + task id, ``lifecycle.types.task_key``) shows to the caller, as its owner or as
    a reader of its ``access``. A task that does not exist shows to no one. Every read that
    shows a ``task_id``, or filters by one, applies this, so a task id reaches only those who
    may see the task (a new user's trial: a public fact written in a team-only task named it
    to everyone)."""
    if var not in _VARIABLES or var == "tk":
        raise ValueError(f"unknown Cypher variable {var!r}")
    if caller not in _CALLERS:
        raise ValueError(f"unknown caller expression {caller!r}")
    if owner not in _OWNERS:
        raise ValueError(f"unknown owner property {owner!r}")
    return (
        f"({var}.task_id IS NULL OR EXISTS {{ MATCH (tk:Task"
        f" {{key: coalesce({var}.{owner}, '') + '\\u001f' + {var}.task_id}})"
        f" WHERE tk.owner = {caller} OR {visible('tk')} }})"
    )


def shown_task_id(var: str, caller: str = "$caller", owner: str = "written_by") -> str:
    """The ``task_id`` of node ``var`` as the caller may read it: null when it may not see
    the task (:func:`task_shown`)."""
    return f"CASE WHEN {task_shown(var, caller, owner)} THEN {var}.task_id END"


# --- readers: visibility as index terms ---------------------------------------------------------
# A searchable node (an assertion, a passage) carries ``readers``: one full-text term per group
# of its ``access`` (``READERS_PUBLIC`` when it has none), in the recall indexes beside its text.
# A full-text or exact-vector query then asks Lucene only for what the caller's groups can
# read, so its work grows with what the caller may see, not with what it may not
# (docs/security.md "Timing"). ``visible`` is still applied after: the terms bound the work,
# they never decide visibility on their own (``access_all``, a derived fact's further
# requirements, is not in them).
#
# A group name ([A-Za-z0-9_.:-]) becomes one term that every analyzer of the recall indexes
# keeps whole and unchanged: lower-case letters and digits as they are, an upper-case letter
# as "_" and the letter, "_" "." ":" "-" as "_0" "_1" "_2" "_3" (so two groups never share a
# term), between "g" and a final "0" (no stemmer touches a term ending in a digit).
READERS_PUBLIC = "pub0"
# a readers term no node holds: OR-ed into a query term's clause, so that a term the analyzer
# drops (a stop word of its own) leaves a clause that matches nothing, not every readable node
READERS_NONE = "none0"


def _group_term(group: str) -> str:
    return (
        f"'g' + reduce(t = '', c IN split({group}, '') | t + CASE"
        " WHEN c =~ '[a-z0-9]' THEN c WHEN c =~ '[A-Z]' THEN '_' + toLower(c)"
        " WHEN c = '_' THEN '_0' WHEN c = '.' THEN '_1' WHEN c = ':' THEN '_2'"
        " ELSE '_3' END) + '0'"
    )


def readers_of(var: str) -> str:
    """The ``readers`` terms of node ``var`` from its ``access``."""
    if var not in _VARIABLES:
        raise ValueError(f"unknown Cypher variable {var!r}")
    return (
        f"CASE WHEN size(coalesce({var}.access, [])) = 0 THEN '{READERS_PUBLIC}'"
        f" ELSE substring(reduce(s = '', g IN {var}.access | s + ' ' + {_group_term('g')}), 1)"
        " END"
    )


# The Lucene clause of what ``$groups`` may read: public, or any of the caller's groups.
CALLER_READERS = (
    f"'readers:(' + reduce(s = '{READERS_PUBLIC}', g IN $groups | s + ' OR ' + "
    + _group_term("g")
    + ") + ')'"
)


def known_and_valid(var: str) -> str:
    """Bitemporal filter: known at ``$known_at`` and valid at ``$as_of``.

    A closing ``valid_to`` only counts from the record time it was set (``closed_at``).
    """
    if var not in _VARIABLES:
        raise ValueError(f"unknown Cypher variable {var!r}")
    return (
        f"{var}.recorded_at <= $known_at"
        f" AND ({var}.superseded_at IS NULL OR {var}.superseded_at > $known_at)"
        f" AND {var}.valid_from <= $as_of"
        f" AND ({var}.valid_to IS NULL OR {var}.closed_at > $known_at OR {var}.valid_to > $as_of)"
    )


# Neo4j replans a cached statement once the store's statistics have moved far enough since
# it was planned. A store growing from empty during a bulk load moves them every few seconds
# ("Discarded stale query" in debug.log, 15-20 times a load, 16-73 ms each plus the JIT work
# on the new code). The write path's statements find every node by an indexed key, so their
# plan does not depend on the statistics, and they keep it. A test checks that each one plans
# as index seeks on an empty store: the plan it would keep.
STABLE_PLAN = "CYPHER replan=skip\n"


def stable(statement: str) -> str:
    """``statement`` keeping its cached plan when statistics move (see STABLE_PLAN)."""
    return STABLE_PLAN + statement.lstrip("\n")


def turns_beside(
    turn: str,
    var: str,
    *,
    after: bool,
    where: str,
    limit: str = "1",
    returns: str = "",
    until: str = "",
) -> str:
    """The body of a subquery: the turns of ``turn``'s conversation just before it (``after``:
    just after it) in the order (occurred_at, id), nearest first, that pass ``where``; at
    most ``limit``. The turns are read from the index (conversation_id, occurred_at) in its
    order, ties on the time sorted by id alone, so the statement reads the turns up to the
    nearest that passes, not the whole conversation: written as a filter on "earlier, or at
    the same time with a lower id", the planner read every earlier turn of the conversation
    and sorted them, for each turn asked (docs/recall.md, latency). ``returns``: what each row
    returns (``var`` itself by default). ``until``: a time the turns read occurred at or
    before (a bound of the index's range: a turn near it does not read the rest of the
    conversation to find none)."""
    for name in (turn, var):
        if name not in _VARIABLES:
            raise ValueError(f"unknown Cypher variable {name!r}")
    side, order = (">", "") if after else ("<", " DESC")
    keys = ", ".join(f"{var}.{k}{order}" for k in ("conversation_id", "occurred_at", "id"))
    bound = f" AND {var}.occurred_at <= {until}" if until else ""
    return f"""
  MATCH ({var}:Observation)
  WHERE {var}.conversation_id = {turn}.conversation_id
    AND {var}.occurred_at {side}= {turn}.occurred_at{bound}
  WITH {var} ORDER BY {keys}
  WITH {var} WHERE ({var}.occurred_at {side} {turn}.occurred_at OR {var}.id {side} {turn}.id)
    AND {where}
  RETURN {returns or var} LIMIT {limit}"""


def set_times(var: str, source: str, keys: tuple[str, ...]) -> str:
    """``var.k = datetime(source.k)`` for each key (``datetime(null)`` is null: unset)."""
    if var not in _VARIABLES:
        raise ValueError(f"unknown Cypher variable {var!r}")
    return ", ".join(f"{var}.{k} = datetime({source}.{k})" for k in keys)


def _checked(var: str, at: str) -> None:
    if var not in _VARIABLES:
        raise ValueError(f"unknown Cypher variable {var!r}")
    if at not in _INSTANTS:
        raise ValueError(f"unknown instant parameter {at!r}")


def effective_tier(var: str, at: str = "$known_at") -> str:
    """The tier of assertion ``var`` as known at ``at``: the ``to_tier`` of its latest
    ``TierChange`` recorded at or before ``at``, else the tier it was written with.

    Tiers are never edited on the assertion: a change is a new node pointing at it
    (``(:TierChange)-[:CHANGES]->(:Assertion)``), so a read as known before a sleep sees the
    tier as it was then. An assertion has a handful of changes at most, so this is one
    expansion of its few CHANGES relationships (none for most assertions)."""
    _checked(var, at)
    return (
        f"coalesce(COLLECT {{ MATCH (tc:{TIER_CHANGE})-[:CHANGES]->({var})"
        f" WHERE tc.at <= {at} RETURN tc.to_tier ORDER BY tc.at DESC, tc.id DESC LIMIT 1 }}[0],"
        f" {var}.tier)"
    )


def latest_tier_change(var: str, at: str = "$known_at") -> str:
    """The latest ``TierChange`` of ``var`` at or before ``at`` as a map (null if none)."""
    _checked(var, at)
    return (
        f"COLLECT {{ MATCH (tc:{TIER_CHANGE})-[:CHANGES]->({var}) WHERE tc.at <= {at}"
        " RETURN tc {.to_tier, .clock_at, .at} ORDER BY tc.at DESC, tc.id DESC LIMIT 1 }[0]"
    )


def pinned(var: str, at: str = "$known_at") -> str:
    """Whether assertion ``var`` is pinned as known at ``at`` (its latest ``PinChange``)."""
    _checked(var, at)
    return (
        f"coalesce(COLLECT {{ MATCH (pc:{PIN_CHANGE})-[:CHANGES]->({var})"
        f" WHERE pc.at <= {at} RETURN pc.pinned ORDER BY pc.at DESC, pc.id DESC LIMIT 1 }}[0],"
        " false)"
    )
