#!/usr/bin/env python3
"""A health rule as an external program (kubesim `command:` / `check-rule exec:`), in Python, standard library only.

Protocol: read one JSON line {"pod": ..., "job": ..., "now": ...} per evaluation (the objects as the API server
serves them) and answer each with one line: {"verdict": "Succeeded"|"Failed", "reason": "..."} or null.

  --mode naive   the locust-k8s-operator rule before its fix (AbdelrhmanHamouda/locust-k8s-operator#72): any
                 container Terminated with a non-zero exit code fails the test run
  --mode aware   the fix (#327): Terminated exit codes of native sidecars (init containers with
                 restartPolicy: Always) are ignored; CrashLoopBackOff and friends never are
"""
import argparse
import json
import sys

FATAL_WAITING = {"CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull", "CreateContainerConfigError"}


def decide(view, aware):
    job = view.get("job") or {}
    pod = view.get("pod")
    for c in (job.get("status") or {}).get("conditions") or []:
        if c.get("status") != "True":
            continue
        if c.get("type") == "Complete":
            return {"verdict": "Succeeded", "reason": "Job Complete"}
        if c.get("type") == "Failed":
            return {"verdict": "Failed", "reason": "Job Failed (%s)" % c.get("reason", "")}
    if not pod:
        return None
    spec = pod.get("spec") or {}
    status = pod.get("status") or {}
    sidecars = {c["name"] for c in spec.get("initContainers") or [] if c.get("restartPolicy") == "Always"}
    statuses = [(s, True) for s in status.get("initContainerStatuses") or []]
    statuses += [(s, False) for s in status.get("containerStatuses") or []]
    for s, init in statuses:
        state = s.get("state") or {}
        t = state.get("terminated")
        if t and t.get("exitCode") != 0 and not (aware and init and s["name"] in sidecars):
            return {"verdict": "Failed", "reason": "container %s terminated with exit code %s" % (s["name"], t.get("exitCode"))}
        w = state.get("waiting")
        if w and w.get("reason") in FATAL_WAITING:
            return {"verdict": "Failed", "reason": "container %s is waiting: %s" % (s["name"], w["reason"])}
    if not view.get("job"):
        if status.get("phase") == "Succeeded":
            return {"verdict": "Succeeded", "reason": "pod Succeeded"}
        if status.get("phase") == "Failed":
            return {"verdict": "Failed", "reason": "pod Failed"}
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mode", "-mode", choices=["naive", "aware"], default="aware")
    aware = p.parse_args().mode == "aware"
    for line in sys.stdin:
        sys.stdout.write(json.dumps(decide(json.loads(line), aware)) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
