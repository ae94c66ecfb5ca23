"""Drives `kubectl myops mcp` with the official MCP Python SDK, as an agent's client does.

Usage: driver.py SCRIPT_JSON -- SERVER_COMMAND...

SCRIPT_JSON is {"mode": "auto"|"legacy", "elicit": null|"decline"|"accept:NAME",
"during_question": [ARGV...] (a command run while the person is asked, before the answer),
"client_name": NAME (the clientInfo the client sends), "steps": [...]}.
Each step is one of:
  {"list": true}                                  the tool names listed
  {"call": TOOL, "args": {...}}                   a tool call; its result
      "confirm_from": I      set args.confirm to the token step I answered
      "pad": [KEY, BYTES]    set args[KEY] to a string of BYTES "x"s (a huge argument)
      "abandon_after": S     send the call, and S seconds later end this process at once
      "manual": true         one round only (revision 2026-07-28): an InputRequiredResult is
                             the step's result ({"inputRequired": {...}}), not answered
      "state_from": I        with "manual": send the requestState step I was given ("state":
                             S sends S) and "answer" (an ElicitResult) as the reply to it
  {"flood": TOOL, "args": {...}, "n": N}          N calls at once; counts of each outcome
  {"sleep": S}
  {"asked": true}                                 how many times a person was asked so far
The driver prints one JSON line: the list of step results. The Rust tests assert on it
(tests/it/mcp.rs); this file holds no expectations.
"""

import asyncio
import json
import os
import sys

from mcp import Client
from mcp.client.stdio import StdioServerParameters


def result_of(r):
    return {
        "isError": bool(r.is_error),
        "structured": r.structured_content,
        "text": r.content[0].text if r.content and hasattr(r.content[0], "text") else None,
    }


async def run(script, server):
    elicit = script.get("elicit")
    asked = []

    async def on_elicit(context, params):
        import mcp_types as types

        asked.append(params.message)
        if script.get("during_question"):
            import subprocess

            subprocess.run(script["during_question"], check=True, capture_output=True)
        if elicit and elicit.startswith("accept:"):
            return types.ElicitResult(action="accept", content={"context": elicit[len("accept:"):]})
        return types.ElicitResult(action="decline")

    params = StdioServerParameters(command=server[0], args=server[1:], env=dict(os.environ))
    kwargs = {"mode": script.get("mode", "auto")}
    if "client_name" in script:
        import mcp_types as types

        kwargs["client_info"] = types.Implementation(name=script["client_name"], version="1")
    if elicit:
        kwargs["elicitation_callback"] = on_elicit
    out = []
    async with Client(params, **kwargs) as c:
        for step in script["steps"]:
            try:
                if step.get("asked"):
                    out.append({"asked": len(asked)})
                    continue
                out.append(await one(c, step, out))
            except Exception as e:  # the step's failure is its result
                out.append({"exception": type(e).__name__, "message": str(e)[:500]})
    return out


async def one(c, step, out):
    if step.get("list"):
        tools = await c.list_tools()
        return {"tools": sorted(t.name for t in tools.tools), "schemas": {t.name: t.input_schema for t in tools.tools}}
    if "sleep" in step:
        await asyncio.sleep(step["sleep"])
        return {}
    if "flood" in step:
        calls = [c.call_tool(step["flood"], dict(step["args"])) for _ in range(step["n"])]
        results = await asyncio.gather(*calls, return_exceptions=True)
        counts = {}
        for r in results:
            if isinstance(r, Exception):
                key = "exception"
            elif r.is_error:
                key = (r.structured_content or {}).get("error", {}).get("kind", "error")
            else:
                key = "ok"
            counts[key] = counts.get(key, 0) + 1
        return {"counts": counts}
    args = dict(step.get("args", {}))
    if "confirm_from" in step:
        args["confirm"] = (out[step["confirm_from"]].get("structured") or {}).get("confirm")
    if "pad" in step:
        key, n = step["pad"]
        args[key] = "x" * n
    if "abandon_after" in step:
        task = asyncio.ensure_future(c.call_tool(step["call"], args))
        await asyncio.sleep(step["abandon_after"])
        print(json.dumps(out + [{"abandoned": True}]), flush=True)
        os._exit(0)
    if step.get("manual"):
        return await manual(c, step, args, out)
    return result_of(await c.call_tool(step["call"], args))


async def manual(c, step, args, out):
    import mcp_types as types

    kwargs = {"allow_input_required": True}
    if "state_from" in step:
        kwargs["request_state"] = out[step["state_from"]]["inputRequired"]["requestState"]
    if "state" in step:
        kwargs["request_state"] = step["state"]
    if "answer" in step:
        kwargs["input_responses"] = {"confirm": types.ElicitResult.model_validate(step["answer"])}
    r = await c.session.call_tool(step["call"], args, **kwargs)
    if isinstance(r, types.InputRequiredResult):
        questions = {k: v.params.message for k, v in (r.input_requests or {}).items()}
        return {"inputRequired": {"requestState": r.request_state, "questions": questions}}
    return result_of(r)


def main():
    sep = sys.argv.index("--")
    script = json.loads(sys.argv[1])
    server = sys.argv[sep + 1:]
    print(json.dumps(asyncio.run(run(script, server))), flush=True)


if __name__ == "__main__":
    main()
