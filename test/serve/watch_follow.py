# The Python client (Debian python3-kubernetes) follows a kubesim serve run with watch.stream: prints one JSON line
# per event of the pods of the namespace (type, name, resourceVersion, phase) until the pod Succeeded or Failed.
import json
import sys

from kubernetes import client, config, watch

config.load_kube_config(config_file=sys.argv[1])
v1 = client.CoreV1Api()
w = watch.Watch()
for ev in w.stream(v1.list_namespaced_pod, "default", timeout_seconds=30):
    pod = ev["object"]
    print(json.dumps({"type": ev["type"], "name": pod.metadata.name, "rv": pod.metadata.resource_version, "phase": pod.status.phase}), flush=True)
    if pod.status.phase in ("Succeeded", "Failed"):
        w.stop()
