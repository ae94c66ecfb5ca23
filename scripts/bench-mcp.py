"""The `mcp` row of scripts/bench: what a tool call of `kubectl-myops mcp` costs an agent.

An agent without the server runs kubectl once per command; with it, it calls a tool in one
session, and the server runs this binary's own command as a child per call (src/mcp/run.rs).
So the row compares, run by run interleaved: a `kubectl get` process, a `kubectl-myops get`
process and a `get` tool call; a `kubectl patch` process, a `kubectl-myops patch` process and
a `patch` tool call previewed then confirmed (two calls: a read, the dry run and a change-log
read, then a read, the change and a change-log read). Wall times are medians in ms; the
server's peak RSS is read from /proc at the end (its children are counted per call in the
rows above: each is a `kubectl-myops` process).

Usage (by scripts/bench, with the Python of target/testbin/mcp-venv):
    bench-mcp.py WORK KUBECTL MYOPS RUNS NAMESPACE
WORK holds the bench's HOMEs and plugin-nopush.yaml; NAMESPACE holds cm-00001 and cm-00004.
"""

import asyncio
import os
import statistics
import subprocess
import sys
import time

from mcp import Client
from mcp.client.stdio import StdioServerParameters

work, kubectl, myops, runs, ns = sys.argv[1:6]
runs = int(runs)
path = os.environ.get("PATH", "/usr/bin:/bin")
kenv = {"PATH": path, "HOME": f"{work}/kubectl-home", "KUBECONFIG": os.environ["KUBECONFIG"]}
menv = {"PATH": path, "HOME": f"{work}/home", "MYOPS_HOME": f"{work}/myops-mcp",
        "MYOPS_CONFIG": f"{work}/plugin-nopush.yaml", "KUBECONFIG": os.environ["KUBECONFIG"]}


def process(cmd, env):
    """One process's wall time in ms (it must succeed)."""
    t = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - t) * 1000


async def call(c, tool, args):
    """One tool call's answer and wall time in ms (it must not be an error)."""
    t = time.perf_counter()
    r = await c.call_tool(tool, args)
    ms = (time.perf_counter() - t) * 1000
    if r.is_error:
        sys.exit(f"bench-mcp: the {tool} call failed: {r.structured_content}")
    return r, ms


def server_peak_rss_mib():
    """VmHWM of the `MYOPS mcp` process, in MiB (None when it is not found)."""
    want = f"{myops}\0mcp\0".encode()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if f.read() != want:
                    continue
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            continue
    return None


async def main():
    get = {"type": "configmaps", "name": "cm-00001", "namespace": ns}
    kget = ["get", "configmap", "cm-00001", "-n", ns, "-o", "json"]
    rows = {"get": ([], [], []), "patch": ([], [], [])}
    params = StdioServerParameters(command=myops, args=["mcp"], env=menv)
    async with Client(params) as c:
        await call(c, "get", get)
        process([kubectl, *kget], kenv)
        for run in range(runs):
            k, m, a = rows["get"]
            k.append(process([kubectl, *kget], kenv))
            m.append(process([myops, *kget], menv))
            a.append((await call(c, "get", get))[1])
            k, m, a = rows["patch"]
            kpatch = ["patch", "configmap", "cm-00004", "-n", ns, "--type", "merge"]
            k.append(process([kubectl, *kpatch, "-p", f'{{"data":{{"bench":"k{run}"}}}}'], kenv))
            m.append(process([myops, *kpatch, "-p", f'{{"data":{{"bench":"m{run}"}}}}'], menv))
            patch = {"type": "configmaps", "name": "cm-00004", "namespace": ns,
                     "patch": {"data": {"bench": f"a{run}"}}}
            preview, first = await call(c, "patch", patch)
            _, second = await call(c, "patch", dict(patch, confirm=preview.structured_content["confirm"]))
            a.append(first + second)
        rss = server_peak_rss_mib()
    print()
    print(f"MCP: a tool call in one `kubectl-myops mcp` session (official Python SDK client) against a "
          f"process per command; {runs} interleaved runs, medians")
    print()
    print("| command | kubectl wall ms | myops process wall ms | MCP call wall ms | MCP × kubectl | MCP × myops |")
    print("|---|---:|---:|---:|---:|---:|")
    labels = {"get": "get configmap NAME -o json; `get` tool",
              "patch": "patch configmap NAME; `patch` tool, preview + confirm"}
    for name, (k, m, a) in rows.items():
        k, m, a = statistics.median(k), statistics.median(m), statistics.median(a)
        print(f"| {labels[name]} | {k:.0f} | {m:.0f} | {a:.0f} | {a/k:.2f} | {a/m:.2f} |")
    if rss is not None:
        print(f"The server's peak RSS after {2 * runs + 1} calls: {rss:.1f} MiB")


asyncio.run(main())
