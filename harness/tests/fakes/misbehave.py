#!/usr/bin/env python3
"""A deliberately misbehaving implementation of the physics-cts stdio protocol.

It answers like a well-behaved (empty) implementation, except where told otherwise:
- by a flag for the whole process: --crash-at-start, --no-handshake, --wrong-protocol,
  --changing-handshake (a different version at every start), --batch (declare and answer
  `batch`; without it a `batch` request gets a `failed` error), --batch-only (as --batch, and
  configure, step, observe and apply outside a batch get a `failed` error);
- by the stem of the file a `load` names, for that case:
    ok*            behave
    crash-step     abort (SIGABRT) when asked to step
    early-exit     exit with status 0 when asked to step
    hang           never answer the load
    hang-child     start a grandchild in the process group, print its pid on stderr, hang
    slow           answer the load after 0.3 s
    garbage        answer the load with a line that is not JSON
    huge           answer the load with a 100 MB line
    wrong-seq      answer the load with another seq
    missing-field  answer observe without the required fields
    flood          answer the load, then flood stdout with lines
    stderr-flood   write 50 MB on stderr, then answer the load
    refuse         answer the load with a not_supported error
    fail           answer the load with a failed error
    bad-request    answer the load with a bad_request error (its claim, scored as ERROR)
    batch-fail     in a batch, answer a failed error for the third request (not running it
                   nor the ones after)
    batch-short    answer a batch with one result too few
    batch-wrong-type  answer a batch with an observe result missing its required fields
Standard library only.
"""
import json
import os
import subprocess
import sys
import time

FLAGS = set(sys.argv[1:])
out = sys.stdout


def send(obj):
    out.write(json.dumps(obj) + "\n")
    out.flush()


def ok(seq, value=None):
    send({"seq": seq, "ok": value})


BATCH = "--batch" in FLAGS or "--batch-only" in FLAGS
SCENARIO_OPS = ("configure", "step", "observe", "apply")
STATE = {"time": 0.5, "nodes": [{"node": 0, "translation": [1, 2, "Infinity"],
                                 "rotation": [0, 0, 0, 1], "linear_velocity": [0, 0, 0],
                                 "angular_velocity": [0, 0, 0]}],
         "contacts": [], "trigger_events": []}


def scenario_result(case, req):
    """The result of configure, step, observe or apply (misbehaving as the case says)."""
    op = req["op"]
    if op == "step":
        if case == "crash-step":
            sys.stderr.write("fake: about to abort in step\n")
            sys.stderr.flush()
            os.abort()
        if case == "early-exit":
            sys.exit(0)
    if op == "observe":
        return {"time": 0.0} if case == "missing-field" else STATE
    return None


def batch(seq, case, requests):
    if not BATCH:
        send({"seq": seq, "error": {"error": "failed", "message": "batch is not declared"}})
        return
    results = []
    for i, sub in enumerate(requests):
        if sub.get("op") not in SCENARIO_OPS:
            send({"seq": seq, "error": {"error": "bad_request", "message": "not in a batch"}})
            return
        if case == "batch-fail" and i == 2:
            message = "request %d of %d failed" % (i, len(requests))
            send({"seq": seq, "error": {"error": "failed", "message": message}})
            return
        results.append(scenario_result(case, sub))
    if case == "batch-short":
        results.pop()
    if case == "batch-wrong-type":
        results = [{"time": 0.0} if r is STATE else r for r in results]
    ok(seq, results)


def main():
    if "--crash-at-start" in FLAGS:
        sys.stderr.write("fake: crashing at start\n")
        sys.stderr.flush()
        os._exit(3)
    case = ""
    for line in sys.stdin:
        req = json.loads(line)
        seq, op = req["seq"], req["op"]
        if op == "handshake":
            if "--no-handshake" in FLAGS:
                continue
            version = "1.0"
            if "--changing-handshake" in FLAGS:
                version = str(time.time())
            ok(seq, {
                "name": "misbehave", "version": version, "engine": "none",
                "protocol_version": 99 if "--wrong-protocol" in FLAGS else 2,
                "capabilities": {"profiles": ["khr-2024-draft"], "features": ["*"],
                                 "checks": ["dynamics"], **({"batch": True} if BATCH else {})},
            })
        elif op == "load":
            case = os.path.splitext(os.path.basename(req["path"]))[0]
            if case == "hang":
                time.sleep(3600)
            elif case == "hang-child":
                child = subprocess.Popen(["sleep", "3600"])
                sys.stderr.write("child pid %d\n" % child.pid)
                sys.stderr.flush()
                time.sleep(3600)
            elif case == "slow":
                time.sleep(0.3)
            elif case == "garbage":
                out.write("this is not JSON\n")
                out.flush()
                continue
            elif case == "huge":
                chunk = "x" * (1 << 20)
                for _ in range(100):
                    out.write(chunk)
                out.write("\n")
                out.flush()
                continue
            elif case == "wrong-seq":
                ok(seq + 1000, {"outcome": "loaded", "notes": []})
                continue
            elif case == "stderr-flood":
                chunk = "e" * (1 << 20) + "\n"
                for _ in range(50):
                    sys.stderr.write(chunk)
                sys.stderr.flush()
            elif case == "refuse":
                send({"seq": seq, "error": {"error": "not_supported", "message": "no"}})
                continue
            elif case == "fail":
                send({"seq": seq, "error": {"error": "failed", "message": "broke"}})
                continue
            elif case == "bad-request":
                send({"seq": seq, "error": {"error": "bad_request", "message": "not my fault"}})
                continue
            ok(seq, {"outcome": "loaded", "notes": []})
            if case == "flood":
                try:
                    while True:
                        out.write('{"seq": 0, "ok": null}\n')
                except BrokenPipeError:
                    os._exit(0)
        elif op in SCENARIO_OPS:
            if "--batch-only" in FLAGS:
                send({"seq": seq, "error": {"error": "failed", "message": op + " outside a batch"}})
                continue
            ok(seq, scenario_result(case, req))
        elif op == "batch":
            batch(seq, case, req["requests"])
        else:
            ok(seq)


if __name__ == "__main__":
    main()
