// The target policy: where load may go, and caps per role. Everyone reads it; admins edit it.
import { useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../api/client";
import { useMe } from "../api/auth";
import PageHead from "../components/common/PageHead";
import { ErrorState, Loading } from "../components/common/States";

const URL = "/api/v1/policy/targets";

interface Policy {
  networks: string[];
  hosts: string[];
  role_caps: Record<string, { max_rate?: number | null; max_concurrency?: number | null; max_duration_s?: number | null }>;
  updated_by?: string | null;
  updated_at?: string | null;
}

async function call(init?: RequestInit): Promise<Policy> {
  const response = await fetch(URL, { credentials: "same-origin", headers: { "Content-Type": "application/json" }, ...init });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, (body as { detail?: unknown }).detail);
  return body as Policy;
}

const lines = (text: string) => text.split("\n").map((l) => l.trim()).filter(Boolean);

export default function PolicyPage() {
  const client = useQueryClient();
  const { data: me } = useMe();
  const policy = useQuery({ queryKey: ["policy"], queryFn: () => call() });
  const [networks, setNetworks] = useState("");
  const [hosts, setHosts] = useState("");
  const [caps, setCaps] = useState("{}");
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!policy.data) return;
    setNetworks(policy.data.networks.join("\n"));
    setHosts(policy.data.hosts.join("\n"));
    setCaps(JSON.stringify(policy.data.role_caps, null, 2));
  }, [policy.data]);
  const save = useMutation({
    mutationFn: (next: Omit<Policy, "updated_by" | "updated_at">) => call({ method: "PUT", body: JSON.stringify(next) }),
    onSuccess: (data) => client.setQueryData(["policy"], data),
  });
  const admin = (me as { role?: string } | undefined)?.role === "admin";

  function submit(event: React.FormEvent) {
    event.preventDefault();
    setProblem(null);
    try {
      save.mutate({ networks: lines(networks), hosts: lines(hosts), role_caps: JSON.parse(caps) as Policy["role_caps"] });
    } catch {
      setProblem("role caps must be JSON, e.g. {\"operator\": {\"max_rate\": 50000}}");
    }
  }

  return (
    <div className="page">
      <PageHead title="Target policy" />
      <p>Load only goes to these networks and host names; the API checks each target and ping monitor, and the agent checks again before each tool starts.</p>
      {policy.isPending && <Loading what="Loading the policy" />}
      {policy.isError && <ErrorState error={policy.error} retry={() => policy.refetch()} what="the target policy" />}
      <form onSubmit={submit}>
        <label>
          Networks (CIDR, one a line)
          <textarea rows={6} value={networks} onChange={(e) => setNetworks(e.target.value)} readOnly={!admin} />
        </label>
        <label>
          Host names (one a line, <code>*.suffix</code> allowed)
          <textarea rows={4} value={hosts} onChange={(e) => setHosts(e.target.value)} readOnly={!admin} />
        </label>
        <label>
          Caps per role (JSON)
          <textarea rows={6} value={caps} onChange={(e) => setCaps(e.target.value)} readOnly={!admin} />
        </label>
        {admin && <button type="submit" disabled={save.isPending}>Save policy</button>}
        {(problem || save.error) && <p role="alert">{problem ?? String(save.error?.message)}</p>}
        {policy.data?.updated_by && <p className="muted">Last changed by {policy.data.updated_by}</p>}
      </form>
    </div>
  );
}
