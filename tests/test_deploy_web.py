"""The web table's deployment: compose's HTTPS proxy in front of the bot's web port, and
Kubernetes' web workers with their Service, autoscaler and Ingress."""

from __future__ import annotations

from typing import Any

from tests.test_deploy import DEPLOY, _pinned, containers, k8s_object, load_compose


def test_compose_proxy_passes_the_web_table_to_the_port_the_bot_serves_it_on() -> None:
    compose = load_compose()
    proxy = compose["services"]["proxy"]
    telegram = compose["services"]["telegram"]["environment"]
    assert telegram["WEB_LISTEN"] == "0.0.0.0"
    assert "web_secret" in compose["services"]["telegram"]["secrets"]
    caddyfile = next(v for v in proxy["volumes"] if v.endswith(":/etc/caddy/Caddyfile:ro"))
    text = (DEPLOY / caddyfile.split(":")[0]).read_text()
    assert f"reverse_proxy telegram:{telegram['WEB_PORT']}" in text
    assert "{$WEB_PUBLIC_URL}" in text and "WEB_PUBLIC_URL" in proxy["environment"]
    assert "443:443" in proxy["ports"] and "redis" not in proxy.get("networks", ())
    assert proxy["profiles"] == ["web"]  # started only when asked for
    assert _pinned(proxy["image"]) and proxy["cap_drop"] == ["ALL"] and proxy["read_only"]


def _env(container: dict[str, Any]) -> dict[str, str]:
    return {e["name"]: e["value"] for e in container["env"]}


def test_web_workers_listen_where_their_service_sends_and_are_ready_on_healthz() -> None:
    web = k8s_object("Deployment", "web")
    (bot,) = containers(web)
    env = _env(bot)
    assert bot["args"] == ["telegram"]  # a move on a page reaches the group's table too
    assert env["WEB_LISTEN"] == "0.0.0.0" and env["WEB_PUBLIC_URL"].startswith("https://")
    [port] = [p for p in bot["ports"] if p["containerPort"] == int(env["WEB_PORT"])]
    assert bot["readinessProbe"]["httpGet"] == {"path": "/healthz", "port": port["name"]}
    service = k8s_object("Service", "web")
    assert (
        service["spec"]["selector"].items() <= web["spec"]["template"]["metadata"]["labels"].items()
    )
    assert [p["targetPort"] for p in service["spec"]["ports"]] == [port["name"]]


def test_web_workers_read_their_secrets_from_the_mounted_secret() -> None:
    (bot,) = containers(k8s_object("Deployment", "web"))
    secret = k8s_object("Secret", "domino-bot")["stringData"]
    [mount] = [m for m in bot["volumeMounts"] if m["name"] == "secrets"]
    files = {k: v for k, v in _env(bot).items() if k.endswith("_FILE")}
    assert {"REDIS_URL_FILE", "TELEGRAM_TOKEN_FILE", "WEB_SECRET_FILE"} <= set(files)
    for setting, path in files.items():
        assert path == f"{mount['mountPath']}/{setting.removesuffix('_FILE')}"
        assert setting.removesuffix("_FILE") in secret
    assert len(secret["WEB_SECRET"]) >= 32


def test_web_workers_scale_on_cpu() -> None:
    scaler = k8s_object("HorizontalPodAutoscaler", "web")
    target = scaler["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", "web")
    assert 1 <= scaler["spec"]["minReplicas"] < scaler["spec"]["maxReplicas"]
    assert [m["resource"]["name"] for m in scaler["spec"]["metrics"]] == ["cpu"]


def test_the_ingress_sends_the_web_table_to_the_web_workers_and_the_webhook_to_telegram() -> None:
    spec = k8s_object("Ingress", "domino-bot")["spec"]
    routes = {
        (rule["host"], path["path"]): path["backend"]["service"]["name"]
        for rule in spec["rules"]
        for path in rule["http"]["paths"]
    }
    (web,) = containers(k8s_object("Deployment", "web"))
    table_host = _env(web)["WEB_PUBLIC_URL"].removeprefix("https://").rstrip("/")
    webhook = _env(web)["TELEGRAM_WEBHOOK_URL"].removeprefix("https://")
    webhook_host, _, webhook_path = webhook.partition("/")
    assert routes == {(table_host, "/"): "web", (webhook_host, f"/{webhook_path}"): "telegram"}
    [tls] = spec["tls"]
    assert set(tls["hosts"]) == {table_host, webhook_host}  # HTTPS for both, as Telegram needs
