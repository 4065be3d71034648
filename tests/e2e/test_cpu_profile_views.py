"""CPU profiles seen in a browser (tests/e2e/cpu_profiles.mjs): two imported CoreDNS campaigns with real profiles (A
minimal, B with `log`): B's report evidence, its share page and its exported file (opened offline) draw the flame
graph; the compare page draws the differential; an nginx campaign's graph (no frame pointers) is labelled "leaf functions
only" in the report and its exported file."""

from __future__ import annotations

import secrets

from tests.support.browser import require_browser, run_node_script
from tests.support.cpu_profiles import profiled_campaign


def test_flame_graphs_are_drawn_in_the_report_share_page_file_and_comparison(stack, tmp_path):
    require_browser()
    tag = secrets.token_hex(3)
    a = profiled_campaign(stack, f"coredns minimal {tag}", "coredns-minimal-Q10000")
    b = profiled_campaign(stack, f"coredns log {tag}", "coredns-log_file-Q10000")
    share = stack.api.post(f"/api/v1/campaigns/{b['id']}/shares", json={"expires_in_s": 600})
    assert share.status_code == 201, share.text
    compared = stack.api.post("/api/v1/shares", json={"campaign_ids": [a["id"], b["id"]], "expires_in_s": 600})  # the shared comparison
    assert compared.status_code == 201, compared.text
    exported = stack.api.get(f"/api/v1/campaigns/{b['id']}/export.html", timeout=90)
    assert exported.status_code == 200, exported.text
    file = tmp_path / "report.html"
    file.write_bytes(exported.content)
    nginx = profiled_campaign(stack, f"nginx {tag}", "nginx-wrk-c8", process="nginx")  # no frame pointers: leaf functions only
    leaf_file = tmp_path / "nginx.html"
    leaf_file.write_bytes(stack.api.get(f"/api/v1/campaigns/{nginx['id']}/export.html", timeout=90).content)
    run_node_script(stack, "cpu_profiles.mjs", user_prefix="profiles", timeout=240,
                    extra_env={"KB_PROFILE_IDS": f"{a['id']},{b['id']}", "KB_PROFILE_SHARE": share.json()["url"].rsplit("/", 1)[1],
                               "KB_PROFILE_COMPARE_SHARE": compared.json()["url"].rsplit("/", 1)[1],
                               "KB_PROFILE_FILE": str(file), "KB_PROFILE_LEAF": f"{nginx['id']},{leaf_file}"})  # fmt: skip
