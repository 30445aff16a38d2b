"""An example agent that keeps its memory in Tractatus through ``tractatus-mcp`` (PydanticAI).

The agent gets the memory tools from the MCP server, started over stdio with the
environment's ``TRACTATUS_URL``, ``TRACTATUS_API_KEY`` and ``TRACTATUS_MCP_ACCESS`` (who reads
what it writes: groups of the key, or ``public``). Run it with a real model::

    pip install "./client[mcp]" "pydantic-ai-slim[mcp,openai]"
    export TRACTATUS_URL=http://127.0.0.1:8000 TRACTATUS_API_KEY=tr_live_...
    export TRACTATUS_MCP_ACCESS=team-a
    python examples/memory_agent.py openai:gpt-4o "Which frontend does user:alice use?"

Its test (tests/integration/test_example_agent.py) runs it on PydanticAI's ``FunctionModel``
against the real server: no language model is needed.
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any

from fastmcp.client.transports import StdioTransport
from pydantic_ai import Agent
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.models import Model

INSTRUCTIONS = """\
You are an assistant with a long-term memory (the memory tools). Before answering a question
about a person, a project or an order, read the memory (get_fact, or recall for open
questions) and answer from what it says, naming the time it is true as of. If the memory
answers not_found, say you do not know; out_of_scope means the memory does not track that.
When you learn a new fact, write it with assert_fact and the expected_current you read."""

# Seconds the toolset waits for tractatus-mcp to start and answer its first request. The MCP
# client's own default (5 s) is shorter than a cold start on a busy machine: the server is a
# new Python process that imports the client and the MCP SDK before it can answer.
START_TIMEOUT = 60.0


def server_command() -> list[str]:
    """The installed ``tractatus-mcp`` (on the PATH, else beside this Python)."""
    installed = shutil.which("tractatus-mcp")
    return [installed or os.path.join(os.path.dirname(sys.executable), "tractatus-mcp")]


def memory_tools(
    env: dict[str, str] | None = None, command: list[str] | None = None
) -> MCPToolset[Any]:
    """The memory tools: ``tractatus-mcp`` over stdio, configured by the environment.

    ``command``: how to start the server (default: the installed ``tractatus-mcp``), which is
    waited for up to ``START_TIMEOUT`` seconds.
    """
    command = command or server_command()
    variables = {k: v for k, v in os.environ.items() if k.startswith("TRACTATUS_")}
    transport = StdioTransport(
        command=command[0], args=command[1:], env={**variables, **(env or {})}
    )
    return MCPToolset(transport, tool_error_behavior="retry", init_timeout=START_TIMEOUT)


def build_agent(
    model: Model | str, env: dict[str, str] | None = None, command: list[str] | None = None
) -> Agent[None, str]:
    return Agent(model, instructions=INSTRUCTIONS, toolsets=[memory_tools(env, command)])


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: memory_agent.py MODEL QUESTION", file=sys.stderr)
        return 2
    model, question = argv
    result = build_agent(model).run_sync(question)
    print(result.output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
