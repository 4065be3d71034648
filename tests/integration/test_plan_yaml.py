"""Plans round-trip through YAML with the same fields as the JSON shape."""

from __future__ import annotations

import yaml


def test_yaml_round_trip(stack, dns_target):
    body = {"name": "yaml plan", "tool": "dnsperf", "target_id": dns_target["id"], "params": {"names": ["www.example.lab"]},
            "phases": [{"kind": "saturation", "concurrency": 4, "rate": {"start": 100, "stop": 300, "step": 100}, "duration_s": 1}]}  # fmt: skip
    created = stack.api.post("/api/v1/plans", json=body).json()
    text = stack.api.get(f"/api/v1/plans/{created['id']}.yaml")
    assert text.status_code == 200 and text.headers["content-type"].startswith("application/yaml")
    document = yaml.safe_load(text.text)
    assert "id" not in document and document["phases"][0]["rate"] == {"start": 100.0, "stop": 300.0, "step": 100.0}
    again = stack.api.post("/api/v1/plans/import.yaml", content=text.text.replace("yaml plan", "yaml plan again"),
                           headers={"content-type": "application/yaml"})  # fmt: skip
    assert again.status_code == 201, again.text
    copy = again.json()
    assert copy["name"] == "yaml plan again" and copy["phases"] == created["phases"] and copy["params"] == created["params"]


def test_bad_yaml_names_line_or_field(stack, dns_target):
    broken = stack.api.post("/api/v1/plans/import.yaml", content="name: x\ntool: [dnsperf\n", headers={"content-type": "application/yaml"})
    assert broken.status_code == 422 and "line 3" in broken.json()["detail"][0]["msg"]
    wrong = f"name: x\ntool: dnsperf\ntarget_id: {dns_target['id']}\nphases:\n  - kind: baseline\n    duration_s: 0\n"
    refused = stack.api.post("/api/v1/plans/import.yaml", content=wrong, headers={"content-type": "application/yaml"})
    assert refused.status_code == 422 and refused.json()["detail"][0]["loc"][-1] == "duration_s"
    assert stack.api.post("/api/v1/plans/import.yaml", content="- a list", headers={"content-type": "application/yaml"}).status_code == 422
