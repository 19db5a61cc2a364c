"""The multi-node rehearsal's settings (bench/cluster.py): the Kubernetes ConfigMap's `data`
(deploy/k8s/configmap.yaml), with only addresses, secrets and a shorter time scale changed,
and for each node the `env` its Deployment adds (deploy/k8s/web.yaml, worker.yaml), with
only its paths (and, without namespaces, its ports) its own.

The ConfigMap is the one source of the production settings; a test
(repo_checks/test_deploy.py) checks that the rehearsal changes nothing
else.
"""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
K8S = ROOT / "deploy" / "k8s"
CONFIGMAP = K8S / "configmap.yaml"

# Where things are: the rehearsal's own database, Redis, broker and mail server.
ADDRESSES = frozenset(
    {"DATABASE_URL", "REDIS_URL", "CACHE_URL", "BROKER_URL", "EMAIL_URL", "ENV_FILE"}
)
# The Secret's values: made up per run.
SECRETS = frozenset({"SECRET_KEY", "METRICS_TOKEN"})
# A Deployment's settings a node has its own of: a directory, and a port where nodes share
# one address (--no-netns).
NODE_OWN = frozenset({"PROMETHEUS_MULTIPROC_DIR", "WORKER_METRICS_PORT"})
# Timings scaled down so that a lost message, a dead worker's submission and a digest come
# back within a run of minutes, not of the production's five; their ratios are kept (task time
# limit plus retry backoff under the visibility timeout, checked by learning_platform.E001).
TIME_SCALE = {
    "CELERY_VISIBILITY_TIMEOUT": "30",
    "CELERY_TASK_TIME_LIMIT": "20",
    "CELERY_TASK_SOFT_TIME_LIMIT": "15",
    "CELERY_RETRY_BACKOFF_MAX": "5",
    "OUTBOX_REDELIVER_AFTER": "30",
    "SUBMISSION_REQUEUE_AFTER": "10",
    "COMMUNITY_DIGEST_WINDOW_SECONDS": "5",
}


def configmap_data(path: Path = CONFIGMAP) -> dict[str, str]:
    """The ConfigMap's `data`, every value a string (as Kubernetes requires)."""
    document = yaml.safe_load(path.read_text())
    data = document["data"]
    if not all(isinstance(v, str) for v in data.values()):
        raise ValueError(f"{path}: every ConfigMap value must be a string")
    return dict(data)


def rehearsal_env(addresses: dict[str, str], secrets: dict[str, str]) -> dict[str, str]:
    """The environment of every node of the rehearsal, without the process's own."""
    unknown = (set(addresses) - ADDRESSES) | (set(secrets) - SECRETS)
    if unknown:
        raise ValueError(f"not an address or a secret: {sorted(unknown)}")
    return {**configmap_data(), **TIME_SCALE, **addresses, **secrets}


def deployment_env(component: str) -> dict[str, str]:
    """The literal `env` of the Deployment `component`'s container (those read from the pod,
    `valueFrom`, left out)."""
    for document in yaml.safe_load_all((K8S / f"{component}.yaml").read_text()):
        if document and document["kind"] == "Deployment":
            [container] = document["spec"]["template"]["spec"]["containers"]
            return {e["name"]: e["value"] for e in container.get("env", []) if "value" in e}
    raise ValueError(f"no Deployment in {component}.yaml")


def node_env(component: str, own: dict[str, str]) -> dict[str, str]:
    """What a node of `component` adds to `rehearsal_env`: its Deployment's `env`, with the
    node's own paths and ports."""
    unknown = set(own) - NODE_OWN
    if unknown:
        raise ValueError(f"not a node's own path or port: {sorted(unknown)}")
    return {**deployment_env(component), **own}
