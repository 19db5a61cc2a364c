"""The Kubernetes manifests (deploy/k8s/): valid for a pinned Kubernetes version, consistent
with the settings, and the multi-node rehearsal (bench/cluster.py) runs with their settings."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from bench.cluster_env import (
    ADDRESSES,
    NODE_OWN,
    SECRETS,
    TIME_SCALE,
    configmap_data,
    deployment_env,
    node_env,
    rehearsal_env,
)

ROOT = Path(__file__).resolve().parents[1]
MANIFESTS = sorted((ROOT / "deploy" / "k8s").glob("*.yaml"))
# The oldest Kubernetes the manifests promise to work on (docs/operations.md).
KUBERNETES_VERSION = "1.30.0"


def _resources():
    for path in MANIFESTS:
        for document in yaml.safe_load_all(path.read_text()):
            if document:
                yield path.name, document


def _by_kind_and_name(kind: str, name: str) -> dict:
    return next(d for _, d in _resources() if d["kind"] == kind and d["metadata"]["name"] == name)


@pytest.mark.parametrize(("path", "resource"), list(_resources()), ids=lambda x: str(x)[:40])
def test_every_manifest_is_valid_for_the_pinned_kubernetes(path, resource):
    kubernetes_validate.validate(resource, KUBERNETES_VERSION, strict=True)


def test_the_rehearsal_runs_with_the_configmap_settings():
    data = configmap_data()
    env = rehearsal_env(
        {"DATABASE_URL": "postgres://rehearsal", "BROKER_URL": "amqp://rehearsal"},
        {"SECRET_KEY": "rehearsal", "METRICS_TOKEN": "rehearsal"},
    )

    changed = {k for k in env if env[k] != data.get(k)}
    assert changed <= ADDRESSES | SECRETS | set(TIME_SCALE)
    assert set(TIME_SCALE) <= set(data), "a shortened timing the ConfigMap does not set"
    assert {k: v for k, v in env.items() if k not in changed} == {
        k: v for k, v in data.items() if k not in changed
    }


def test_the_rehearsal_refuses_to_change_anything_but_addresses_and_secrets():
    with pytest.raises(ValueError, match="DEBUG"):
        rehearsal_env({"DEBUG": "1"}, {})


def test_every_configmap_key_is_a_documented_setting():
    documented = (ROOT / "docs" / "operations.md").read_text()

    undocumented = [k for k in configmap_data() if not re.search(rf"`{k}`", documented)]

    assert undocumented == []


def test_the_worker_may_finish_its_task_before_it_is_killed():
    worker = _by_kind_and_name("Deployment", "worker")["spec"]["template"]["spec"]

    assert worker["terminationGracePeriodSeconds"] > int(configmap_data()["CELERY_TASK_TIME_LIMIT"])


def test_beat_is_one_pod_never_two():
    beat = _by_kind_and_name("Deployment", "beat")["spec"]

    assert (beat["replicas"], beat["strategy"]["type"]) == (1, "Recreate")


def test_the_web_probes_are_the_health_endpoints():
    container = _by_kind_and_name("Deployment", "web")["spec"]["template"]["spec"]["containers"][0]

    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    hosts = {h["value"] for h in container["readinessProbe"]["httpGet"]["httpHeaders"]}
    assert configmap_data()["ALLOWED_HOSTS"].split(",")[0] in hosts


def test_the_configmap_sets_django_up_for_pgbouncer_in_transaction_pooling():
    env = {
        "PATH": os.environ["PATH"],
        **rehearsal_env(
            {"DATABASE_URL": "postgres://u@pgbouncer:6432/lp"}, {"SECRET_KEY": "x" * 50}
        ),
    }
    script = (
        "import django, json; django.setup(); from django.conf import settings; "
        "db = settings.DATABASES['default']; print(json.dumps([db['CONN_MAX_AGE'], "
        "db['DISABLE_SERVER_SIDE_CURSORS'], db['OPTIONS']['server_side_binding']]))"
    )

    result = subprocess.run(
        [sys.executable, "-c", script],
        env={**env, "DJANGO_SETTINGS_MODULE": "learning_platform.settings"},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )

    assert json.loads(result.stdout.splitlines()[-1]) == [0, True, False]


def _container(name: str) -> dict:
    return _by_kind_and_name("Deployment", name)["spec"]["template"]["spec"]["containers"][0]


def _own_volume_at(name: str, path: str) -> str:
    """The emptyDir volume Deployment `name` mounts at `path` (and at nothing else)."""
    spec = _by_kind_and_name("Deployment", name)["spec"]["template"]["spec"]
    [mount] = [m for m in spec["containers"][0]["volumeMounts"] if m["mountPath"] == path]
    [volume] = [v for v in spec["volumes"] if v["name"] == mount["name"]]
    assert volume == {"name": mount["name"], "emptyDir": {}}
    assert [m["mountPath"] for m in spec["containers"][0]["volumeMounts"]].count(path) == 1
    return mount["name"]


def _scrape_annotations(name: str) -> dict:
    annotations = _by_kind_and_name("Deployment", name)["spec"]["template"]["metadata"]
    return annotations["annotations"]


def test_the_secret_holds_the_metrics_token():
    secret = _by_kind_and_name("Secret", "learning-platform")["stringData"]

    assert set(secret) >= SECRETS == {"SECRET_KEY", "METRICS_TOKEN"}


def test_every_process_logs_json():
    assert configmap_data()["LOG_FORMAT"] == "json"


def test_the_web_pods_serve_metrics_from_their_own_multiprocess_directory():
    env = deployment_env("web")
    ports = {p["name"]: p["containerPort"] for p in _container("web")["ports"]}

    assert _own_volume_at("web", env["PROMETHEUS_MULTIPROC_DIR"]) == "metrics"
    assert _scrape_annotations("web") == {
        "prometheus.io/scrape": "true",
        "prometheus.io/port": str(ports["http"]),
        "prometheus.io/path": "/metrics",
    }


def test_the_worker_pods_serve_metrics_on_their_port():
    env = deployment_env("worker")
    ports = {p["name"]: p["containerPort"] for p in _container("worker")["ports"]}

    assert _own_volume_at("worker", env["PROMETHEUS_MULTIPROC_DIR"]) == "metrics"
    assert (env["WORKER_METRICS_ADDR"], int(env["WORKER_METRICS_PORT"])) == (
        "0.0.0.0",  # noqa: S104 - the pod's address; only the scraper reaches the port
        ports["metrics"],
    )
    assert _scrape_annotations("worker") == {
        "prometheus.io/scrape": "true",
        "prometheus.io/port": str(ports["metrics"]),
        "prometheus.io/path": "/metrics",
    }


@pytest.mark.parametrize("component", ["web", "worker"])
def test_the_rehearsal_nodes_run_with_their_deployments_env(component):
    own = {"PROMETHEUS_MULTIPROC_DIR": "/tmp/rehearsal/node"}  # noqa: S108

    env = node_env(component, own)

    assert {k for k in env if env[k] != deployment_env(component).get(k)} <= NODE_OWN
    assert set(env) == set(deployment_env(component))
    with pytest.raises(ValueError, match="WORKER_METRICS_ADDR"):
        node_env(component, {"WORKER_METRICS_ADDR": "127.0.0.1"})


def test_every_deployment_setting_is_documented():
    documented = (ROOT / "docs" / "operations.md").read_text()
    names = {n for c in ("web", "worker", "beat") for n in deployment_env(c)}

    assert sorted(n for n in names if not re.search(rf"`{n}`", documented)) == []
