// Agent credentials (admins): one secret bound to one remote agent's name, shown once, revocable.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { components } from "./schema";
import { api, unwrap } from "./client";

export type AgentCredential = components["schemas"]["CredentialOut"];
export type AgentCredentialIssued = components["schemas"]["CredentialIssued"];

const credentialKeys = { all: ["agent-credentials"] as const };

/** Every agent credential (never a secret). */
export function useAgentCredentials(enabled: boolean) {
  return useQuery({
    queryKey: credentialKeys.all,
    enabled,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/agent-credentials", { signal })) as AgentCredential[],
  });
}

export type AgentCredentialRole = components["schemas"]["CredentialCreate"]["role"];

/** Make a credential for one agent name, a load agent's or an observer's; the answer carries its secret, this once. */
export function useCreateAgentCredential() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ agent, role }: { agent: string; role: AgentCredentialRole }) =>
      unwrap(await api.POST("/api/v1/agent-credentials", { body: { agent, role } })) as AgentCredentialIssued,
    onSuccess: () => qc.invalidateQueries({ queryKey: credentialKeys.all }),
  });
}

/** Revoke a credential: its agent is refused from its next request on. */
export function useRevokeAgentCredential() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (credential_id: number) =>
      unwrap(await api.DELETE("/api/v1/agent-credentials/{credential_id}", { params: { path: { credential_id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: credentialKeys.all }),
  });
}
