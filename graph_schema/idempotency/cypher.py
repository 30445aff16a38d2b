"""Every Cypher statement of idempotency keys for ``POST /v1/assertions`` and ``/v1/events``
(observations keep theirs on the Observation node: graph_schema/observations/cypher.py).

An ``IdempotentRequest`` node is bookkeeping, unconnected to the record: the scope
(``principal id + "\\x1f" + route + "\\x1f" + key``, unique, migration 10; before the route
was part of it, ``principal id + "\\x1f" + key``), the SHA-256 of the request and the
answer stored by the transaction that wrote the request.
"""

from __future__ import annotations

from graph_schema.core.cypher import stable

# A request stored before scopes named their route ($unrouted: principal + key) is found on
# its own route only; the key's scope now ($scope) names the route.
FIND_REQUEST = stable("""
UNWIND [$scope, $unrouted] AS scope
MATCH (r:IdempotentRequest {scope: scope})
WHERE scope = $scope OR r.route = $route
RETURN r.request_sha256 AS request_sha256, r.response AS response
ORDER BY scope = $scope DESC
LIMIT 1
""")


# The uniqueness constraint on scope makes MERGE lock: a racing twin waits for the winner to
# commit, then matches its node (created is false) and rolls its own transaction back.
CLAIM_REQUEST = stable("""
MERGE (r:IdempotentRequest {scope: $scope})
ON CREATE SET r.request_sha256 = $request_sha256, r.route = $route, r.principal = $principal,
              r.recorded_at = datetime($now), r.claimed_by = $claim
RETURN r.claimed_by = $claim AS created, r.request_sha256 AS request_sha256,
       r.response AS response
""")


# The answer is part of the writing transaction (what a replay returns), set once.
SET_RESPONSE = stable("""
MATCH (r:IdempotentRequest {scope: $scope})
WHERE r.response IS NULL
SET r.response = $response
RETURN count(r) AS set
""")
