"""The example agent (examples/memory_agent.py) uses the memory tools through tractatus-mcp,
against the real server, driven by PydanticAI's FunctionModel (no language model runs)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from tractatus_client import Tractatus

from tests.conftest import KEYS

pytestmark = pytest.mark.integration

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "memory_agent.py"
# tractatus-mcp starts only when told who reads its writes (docs/mcp.md "Who reads what it writes")
MEMORY = {"TRACTATUS_MCP_ACCESS": "public"}


def _example() -> Any:
    spec = importlib.util.spec_from_file_location("memory_agent", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _last_parts(messages: list[ModelMessage]) -> list[Any]:
    last = messages[-1]
    return list(last.parts) if isinstance(last, ModelRequest) else []


def scripted(subject: str, stale: str) -> FunctionModel:
    """Reads the fact, tries a write with a stale precondition, then answers from both."""

    def step(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        names = {tool.name for tool in info.function_tools}
        assert {"get_fact", "assert_fact", "why"} <= names
        parts = _last_parts(messages)
        returned = [p for p in parts if isinstance(p, ToolReturnPart)]
        retried = [p for p in parts if isinstance(p, RetryPromptPart)]
        if not returned and not retried:
            return ModelResponse(
                parts=[ToolCallPart("get_fact", {"subject": subject, "predicate": "tech_stack"})]
            )
        if returned and returned[0].tool_name == "get_fact":
            answer = returned[0].content
            answer = json.loads(answer) if isinstance(answer, str) else answer
            step.read = answer  # type: ignore[attr-defined]
            write = {"subject": subject, "predicate": "tech_stack", "object": "Svelte"}
            write |= {"evidence": "maybe Svelte", "expected_current": stale, "confidence": 0.5}
            return ModelResponse(parts=[ToolCallPart("assert_fact", write)])
        fact = step.read["facts"][0]  # type: ignore[attr-defined]
        # a failed tool comes back as the tool's answer (outcome "retried") or a retry prompt
        refusal = str((returned or retried)[0].content)
        text = f"{fact['object']} as of {step.read['as_of']}; the write said: {refusal}"  # type: ignore[attr-defined]
        return ModelResponse(parts=[TextPart(text)])

    return FunctionModel(step)


def test_the_example_agent_reads_and_is_told_of_a_stale_write(base_url: str, subject: str) -> None:
    write = {"source_kind": "user_stated", "asserted_by": subject, "confidence": 0.9}
    with Tractatus(base_url, KEYS["alice"], timeout=120) as memory:  # a cold model
        vue = memory.assert_fact(subject, "tech_stack", "Vue", evidence="Vue", **write)
        memory.assert_fact(
            subject, "tech_stack", "React", evidence="React", expected_current=vue.assertion.id,
            **write,
        )  # fmt: skip
    agent = _example().build_agent(
        scripted(subject, stale=vue.assertion.id),
        env={**MEMORY, "TRACTATUS_URL": base_url, "TRACTATUS_API_KEY": KEYS["alice"]},
    )
    output = agent.run_sync("Which frontend stack does this project use?").output
    assert output.startswith("React as of ")
    assert "precondition_failed" in output and "React" in output.split("the write said:")[1]
    with Tractatus(base_url, KEYS["alice"]) as memory:
        assert [f.object for f in memory.facts(subject, "tech_stack").facts] == ["React"]


def test_the_memory_tools_wait_for_a_server_that_starts_slowly(base_url: str) -> None:
    """A cold tractatus-mcp on a busy machine answers later than the MCP client's default 5 s
    (a clean-clone CI run failed on it): the example waits up to its START_TIMEOUT."""
    example = _example()
    slow = ["sh", "-c", 'sleep 6 && exec "$0"', *example.server_command()]

    def list_tools(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(
            parts=[TextPart(" ".join(sorted(t.name for t in info.function_tools)))]
        )

    env = {**MEMORY, "TRACTATUS_URL": base_url, "TRACTATUS_API_KEY": KEYS["alice"]}
    agent = example.build_agent(FunctionModel(list_tools), env=env, command=slow)
    assert {"get_fact", "recall", "assert_fact"} <= set(agent.run_sync("tools?").output.split())
