"""The deploy files describe what the bot really needs: they load, name real paths and
real settings, keep Redis's data, restart failed processes and check their health."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.app.config import Settings

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
SETTING_NAMES = {name.upper() for name in Settings.model_fields}


def load_compose() -> dict[str, Any]:
    data = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    assert isinstance(data, dict)
    return data


def k8s_documents() -> list[dict[str, Any]]:
    documents = []
    for path in sorted(K8S.glob("*.yaml")):
        documents += [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
    return documents


def k8s_object(kind: str, name: str) -> dict[str, Any]:
    found = [d for d in k8s_documents() if d["kind"] == kind and d["metadata"]["name"] == name]
    assert len(found) == 1, f"expected one {kind} named {name}, found {len(found)}"
    return found[0]


def containers(workload: dict[str, Any]) -> list[dict[str, Any]]:
    spec: list[dict[str, Any]] = workload["spec"]["template"]["spec"]["containers"]
    return spec


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, with continuation lines joined."""
    text = re.sub(r"\\\n", " ", (DEPLOY / "Dockerfile").read_text())
    pairs = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            pairs.append((word.upper(), rest.strip()))
    return pairs


# -- Dockerfile ----------------------------------------------------------------------


def test_every_path_the_dockerfile_copies_exists() -> None:
    copies = [args for word, args in dockerfile_instructions() if word == "COPY"]
    sources = []
    for args in copies:
        words = shlex.split(args)
        if any(w.startswith("--from") for w in words):
            continue  # copied from an earlier stage, not from the repository
        sources += [w for w in words[:-1] if not w.startswith("--")]
    assert sources, "the Dockerfile copies nothing from the repository"
    missing = [s for s in sources if not (ROOT / s).exists()]
    assert missing == []


def test_dockerfile_builds_in_stages_and_runs_as_a_non_root_user() -> None:
    instructions = dockerfile_instructions()
    stages = [args for word, args in instructions if word == "FROM"]
    assert len(stages) >= 2
    assert all("slim" in stage for stage in stages)
    users = [args for word, args in instructions if word == "USER"]
    assert users
    uid = users[-1].split(":")[0]
    # Kubernetes checks runAsNonRoot only against a numeric user.
    assert uid.isdigit() and int(uid) != 0


def test_dockerfile_checks_health_and_stops_on_sigterm() -> None:
    instructions = dict(dockerfile_instructions())
    assert "domino-bot" in instructions["HEALTHCHECK"] and "health" in instructions["HEALTHCHECK"]
    assert instructions["STOPSIGNAL"] == "SIGTERM"


# -- compose -------------------------------------------------------------------------


def test_compose_runs_telegram_discord_and_redis() -> None:
    assert set(load_compose()["services"]) >= {"telegram", "discord", "redis"}


@pytest.mark.parametrize("service", ["telegram", "discord"])
def test_compose_bots_run_their_own_subcommand_on_the_compose_redis(service: str) -> None:
    bot = load_compose()["services"][service]
    assert bot["command"] == [service]
    assert bot["environment"]["REDIS_URL_FILE"] == "/run/secrets/redis_url"
    assert "redis_url" in bot["secrets"]
    assert bot["depends_on"]["redis"]["condition"] == "service_healthy"


@pytest.mark.parametrize("service", ["telegram", "discord"])
def test_compose_bots_read_every_secret_from_a_file_and_none_from_the_environment(
    service: str,
) -> None:
    compose = load_compose()
    bot = compose["services"][service]
    environment = bot["environment"]
    files = {name: path for name, path in environment.items() if name.endswith("_FILE")}
    assert {f"{service.upper()}_TOKEN_FILE", "REDIS_URL_FILE"} <= set(files)
    for name, path in files.items():
        assert name.removesuffix("_FILE") not in environment
        secret = path.removeprefix("/run/secrets/")
        assert secret in bot["secrets"] and secret in compose["secrets"]


def test_compose_redis_asks_for_a_password_from_a_secret_acl_file() -> None:
    compose = load_compose()
    redis = compose["services"]["redis"]
    command = redis["command"]
    acl = command[command.index("--aclfile") + 1]
    assert acl.startswith("/run/secrets/")
    assert acl.removeprefix("/run/secrets/") in redis["secrets"]
    assert "--requirepass" not in command  # the password would show in the process list


def _pinned(image: str) -> bool:
    """A version tag (x.y.z), never a moving one such as latest or 7-alpine."""
    name, _, tag = image.partition("@")[0].rpartition(":")
    return bool(name) and re.match(r"[0-9]+\.[0-9]+\.[0-9]+(-|$)", tag) is not None


def test_pinned_is_refused_for_moving_tags() -> None:
    assert _pinned("redis:7.4.2-alpine") and _pinned("domino-bot:0.1.0")
    assert not any(_pinned(i) for i in ("redis:7-alpine", "redis", "domino-bot:latest", "r:7.4"))


@pytest.mark.parametrize("service", ["telegram", "discord", "redis"])
def test_compose_services_are_locked_down(service: str) -> None:
    spec = load_compose()["services"][service]
    assert spec["read_only"] is True
    assert "/tmp" in spec["tmpfs"]
    assert spec["cap_drop"] == ["ALL"]
    assert "no-new-privileges:true" in spec["security_opt"]
    limits = spec["deploy"]["resources"]["limits"]
    assert limits["cpus"] and limits["memory"]
    assert _pinned(spec["image"])


def test_compose_redis_runs_as_its_own_user_on_a_network_only_the_bots_share() -> None:
    compose = load_compose()
    services = compose["services"]
    assert services["redis"]["user"].split(":")[0] not in ("0", "root")
    assert "ports" not in services["redis"]
    [network] = services["redis"]["networks"]
    assert compose["networks"][network]["internal"] is True
    sharing = {name for name, spec in services.items() if network in spec.get("networks", ())}
    assert sharing == {"redis", "telegram", "discord"}


def test_compose_redis_keeps_an_append_only_file_on_a_volume() -> None:
    compose = load_compose()
    redis = compose["services"]["redis"]
    command = redis["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    volume, _, target = redis["volumes"][0].partition(":")
    assert target == "/data"
    assert volume in compose["volumes"]


def _keeps_every_key(args: list[str]) -> None:
    """Redis's arguments give it a memory limit and keep every key when it is reached."""
    assert args[args.index("--maxmemory-policy") + 1] == "noeviction"
    assert re.fullmatch(r"[1-9][0-9]*(mb|gb)", args[args.index("--maxmemory") + 1])


def test_compose_redis_refuses_writes_when_full_rather_than_drop_keys() -> None:
    _keeps_every_key(load_compose()["services"]["redis"]["command"])


@pytest.mark.parametrize("service", ["telegram", "discord", "redis"])
def test_compose_services_restart_and_check_their_health(service: str) -> None:
    spec = load_compose()["services"][service]
    assert spec["restart"] in ("always", "unless-stopped", "on-failure")
    assert spec["healthcheck"]["test"][0] == "CMD"


def test_compose_environment_names_are_settings() -> None:
    compose = load_compose()
    names = set()
    for service in ("telegram", "discord"):
        names |= set(compose["services"][service].get("environment", {}))
    assert names
    assert names - SETTING_NAMES == set()


# -- Kubernetes ----------------------------------------------------------------------


def test_every_manifest_names_its_api_kind_and_namespace() -> None:
    for document in k8s_documents():
        assert document["apiVersion"] and document["kind"]
        if document["kind"] != "Namespace":
            assert document["metadata"]["namespace"] == "domino-bot"


def test_webhook_workers_are_a_deployment_ready_when_healthz_answers() -> None:
    telegram = k8s_object("Deployment", "telegram")
    (bot,) = containers(telegram)
    assert bot["args"] == ["telegram"]
    probe = bot["readinessProbe"]["httpGet"]
    assert probe["path"] == "/healthz"
    port_names = {p["name"] for p in bot["ports"]}
    assert probe["port"] in port_names | {p["containerPort"] for p in bot["ports"]}


def test_webhook_workers_scale_on_cpu_which_they_request() -> None:
    scaler = k8s_object("HorizontalPodAutoscaler", "telegram")
    target = scaler["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", "telegram")
    assert 1 <= scaler["spec"]["minReplicas"] < scaler["spec"]["maxReplicas"]
    [metric] = scaler["spec"]["metrics"]
    assert metric["resource"]["name"] == "cpu"
    [bot] = containers(k8s_object("Deployment", "telegram"))
    assert bot["resources"]["requests"]["cpu"]


def test_webhook_service_routes_to_the_workers() -> None:
    service = k8s_object("Service", "telegram")
    telegram = k8s_object("Deployment", "telegram")
    labels = telegram["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()


def test_redis_is_a_stateful_set_with_an_append_only_file_on_a_claimed_volume() -> None:
    redis = k8s_object("StatefulSet", "redis")
    (server,) = containers(redis)
    assert server["args"][server["args"].index("--appendonly") + 1] == "yes"
    claims = {c["metadata"]["name"] for c in redis["spec"]["volumeClaimTemplates"]}
    mounts = {m["name"]: m["mountPath"] for m in server["volumeMounts"]}
    assert mounts.get("data") == "/data" and "data" in claims


def test_redis_in_kubernetes_refuses_writes_when_full_rather_than_drop_keys() -> None:
    (server,) = containers(k8s_object("StatefulSet", "redis"))
    _keeps_every_key(server["args"])


def test_the_secret_points_the_bots_at_the_redis_service_as_its_own_user() -> None:
    secret = k8s_object("Secret", "domino-bot")["stringData"]
    k8s_object("Service", "redis")
    assert re.fullmatch(r"redis://domino:[^@]+@redis:6379/0", secret["REDIS_URL"])
    assert "REDIS_URL" not in k8s_object("ConfigMap", "domino-bot")["data"]


def test_redis_in_kubernetes_asks_the_bots_user_for_its_password() -> None:
    (server,) = containers(k8s_object("StatefulSet", "redis"))
    acl_path = Path(server["args"][server["args"].index("--aclfile") + 1])
    mounts = {m["mountPath"]: m["name"] for m in server["volumeMounts"]}
    volumes = {
        v["name"]: v
        for v in k8s_object("StatefulSet", "redis")["spec"]["template"]["spec"]["volumes"]
    }
    secret_name = volumes[mounts[str(acl_path.parent)]]["secret"]["secretName"]
    acl = k8s_object("Secret", secret_name)["stringData"][acl_path.name].splitlines()
    bot_password = k8s_object("Secret", "domino-bot")["stringData"]["REDIS_URL"].split("@")[0]
    assert f"user domino on >{bot_password.split(':')[-1]} ~* &* +@all" in acl
    assert "user default on nopass -@all +ping" in acl  # the probe's PING, nothing else


WORKLOADS = [
    ("Deployment", "telegram"),
    ("Deployment", "discord"),
    ("Deployment", "web"),
    ("StatefulSet", "redis"),
]


@pytest.mark.parametrize(("kind", "name"), WORKLOADS)
def test_every_container_is_locked_down_with_limits_and_a_pinned_image(
    kind: str, name: str
) -> None:
    workload = k8s_object(kind, name)
    pod = workload["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["automountServiceAccountToken"] is False
    for container in containers(workload):
        context = container["securityContext"]
        assert context["readOnlyRootFilesystem"] is True
        assert context["allowPrivilegeEscalation"] is False
        assert context["capabilities"]["drop"] == ["ALL"]
        limits = container["resources"]["limits"]
        assert limits["cpu"] and limits["memory"]
        assert _pinned(container["image"])
        # The one place a process may write besides its volumes: a memory-backed /tmp.
        mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
        volumes = {v["name"]: v for v in pod["volumes"]}
        assert "emptyDir" in volumes[mounts["/tmp"]]


def test_only_the_bots_pods_may_reach_redis() -> None:
    policy = k8s_object("NetworkPolicy", "redis")["spec"]
    redis_labels = k8s_object("StatefulSet", "redis")["spec"]["template"]["metadata"]["labels"]
    assert policy["podSelector"]["matchLabels"].items() <= redis_labels.items()
    assert policy["policyTypes"] == ["Ingress"]
    [rule] = policy["ingress"]
    [source] = rule["from"]
    allowed = source["podSelector"]["matchLabels"]
    assert set(source) == {"podSelector"}  # no namespaceSelector or ipBlock beside it
    for name in ("telegram", "discord", "web"):
        labels = k8s_object("Deployment", name)["spec"]["template"]["metadata"]["labels"]
        assert allowed.items() <= labels.items()
    assert not allowed.items() <= redis_labels.items()
    assert rule["ports"] == [{"protocol": "TCP", "port": 6379}]


def test_configmap_and_secret_names_are_settings() -> None:
    names = set(k8s_object("ConfigMap", "domino-bot")["data"])
    names |= set(k8s_object("Secret", "domino-bot")["stringData"])
    assert names - SETTING_NAMES == set()


def test_configmap_values_are_strings() -> None:
    # Kubernetes refuses a ConfigMap whose values are numbers or booleans.
    data = k8s_object("ConfigMap", "domino-bot")["data"]
    assert all(isinstance(value, str) for value in data.values())


@pytest.mark.parametrize("name", ["telegram", "discord"])
def test_bot_pods_read_the_configmap_and_the_secret_as_files_and_run_as_non_root(
    name: str,
) -> None:
    workload = k8s_object("Deployment", name)
    pod = workload["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    (bot,) = containers(workload)
    sources = {next(iter(s)): next(iter(s.values()))["name"] for s in bot["envFrom"]}
    assert sources == {"configMapRef": "domino-bot"}  # no secret as environment variables
    secret = k8s_object("Secret", "domino-bot")["stringData"]
    mounts = {m["name"]: m for m in bot["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    [(volume, mount)] = [(volumes[n], m) for n, m in mounts.items() if "secret" in volumes[n]]
    assert volume["secret"]["secretName"] == "domino-bot" and mount["readOnly"] is True
    files = {e["name"]: e["value"] for e in bot["env"] if e["name"].endswith("_FILE")}
    assert {"REDIS_URL_FILE", f"{name.upper()}_TOKEN_FILE"} <= set(files)
    for setting, path in files.items():
        folder, _, key = path.rpartition("/")
        assert folder == mount["mountPath"] and key == setting.removesuffix("_FILE")
        assert key in secret


# -- systemd -------------------------------------------------------------------------


def test_systemd_unit_runs_the_bots_and_stops_on_sigterm() -> None:
    unit = (DEPLOY / "domino-bot.service").read_text()
    fields = dict(
        line.split("=", 1) for line in unit.splitlines() if "=" in line and line[0].isalpha()
    )
    assert fields["ExecStart"].split()[-1] == "serve"
    assert fields["KillSignal"] == "SIGTERM"
    assert fields["Restart"] in ("on-failure", "always")
    assert fields["User"] != "root"
