import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../api/client";
import type { PrometheusAllowList, PrometheusServer } from "../../api/types";
import AllowListForm from "./AllowListForm";
import ServerForm from "./ServerForm";

const SECRET = "s3cret-token-never-shown";
const server = {
  id: 3, name: "team", url: "https://prometheus.example.com", auth: "basic", username: "kneeboard", scrape_interval_s: 15,
  remote_write: false, created_by: "admin", created_at: "2026-11-27T04:00:00Z", updated_at: "2026-11-27T04:00:00Z",
} as PrometheusServer;

const change = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.submit(screen.getByRole("form"));

describe("ServerForm", () => {
  it("registers a Prometheus with a bearer token given once, and never renders it back", () => {
    const onSubmit = vi.fn();
    const { container, rerender } = render(<ServerForm onSubmit={onSubmit} />);
    expect(screen.getByLabelText("Credential").textContent).toContain("not set");
    change("Name", "team");
    change("URL", " https://prometheus.example.com ");
    change("Auth", "bearer");
    change("Bearer token", SECRET);
    fireEvent.click(screen.getByLabelText(/Receives remote write/));
    expect((screen.getByLabelText("Bearer token") as HTMLInputElement).type).toBe("password");
    submit();
    expect(onSubmit).toHaveBeenLastCalledWith({
      name: "team", url: "https://prometheus.example.com", scrape_interval_s: 15, remote_write: true, bearer_token: SECRET,
    });
    // the API's answer: the form now edits the registered server, which says only "set"
    rerender(<ServerForm server={{ ...server, auth: "bearer", username: null, remote_write: true }} onSubmit={onSubmit} />);
    expect(screen.getByLabelText("Credential").textContent).toMatch(/Credential: set \(bearer/);
    expect(container.innerHTML).not.toContain(SECRET);
    expect((screen.getByLabelText("Bearer token") as HTMLInputElement).value).toBe("");
  });

  it("keeps the stored credential when none is typed, and asks for it again when the user or kind changes", () => {
    const onSubmit = vi.fn();
    render(<ServerForm server={server} onSubmit={onSubmit} />);
    expect((screen.getByLabelText("Name") as HTMLInputElement).readOnly).toBe(true);
    expect((screen.getByLabelText("User") as HTMLInputElement).value).toBe("kneeboard");
    expect((screen.getByLabelText("Password") as HTMLInputElement).value).toBe("");
    change("Scrape interval (s)", "1");
    submit();
    expect(onSubmit).toHaveBeenLastCalledWith({ url: server.url, scrape_interval_s: 1, remote_write: false, remove_credential: false });
    change("User", "other");
    submit();
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(screen.getByText("give it once: it is stored and never shown again")).toBeTruthy();
    expect(screen.getByLabelText("Password").getAttribute("aria-invalid")).toBe("true");
    change("Password", "pw");
    submit();
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ basic: { username: "other", password: "pw" }, remove_credential: false }));
    change("Auth", "none");
    submit();
    expect(onSubmit).toHaveBeenLastCalledWith({ url: server.url, scrape_interval_s: 1, remote_write: false, remove_credential: true });
  });

  it("shows the API's 422 beside the fields it names", () => {
    const error = new ApiError(422, [
      { loc: ["body", "url"], msg: "10.9.9.9 is not on the Prometheus allow-list", type: "value_error" },
      { loc: ["body", "basic", "password"], msg: "String should match pattern", type: "string_pattern_mismatch" },
      { loc: ["body", "scrape_interval_s"], msg: "Input should be greater than or equal to 0.1", type: "greater_than_equal" },
    ]);
    render(<ServerForm server={server} onSubmit={() => {}} error={error} />);
    expect(screen.getByLabelText("URL").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("10.9.9.9 is not on the Prometheus allow-list")).toBeTruthy();
    expect(screen.getByLabelText("Password").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByLabelText("Scrape interval (s)").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByLabelText("Name").getAttribute("aria-invalid")).toBeNull();
  });
});

describe("AllowListForm", () => {
  const value = { networks: ["10.0.0.0/24"], hosts: ["prometheus.example.com"], updated_by: "admin" } as PrometheusAllowList;

  it("sends one entry a line and shows a 422 on the line it names", () => {
    const onSubmit = vi.fn();
    const error = new ApiError(422, [{ loc: ["body", "networks", 1], msg: "not a network: 10.0.0.300/24", type: "value_error" }]);
    render(<AllowListForm value={value} editable onSubmit={onSubmit} error={error} />);
    change("Networks (CIDR, one a line)", "10.0.0.0/24\n 10.0.0.300/24 \n\n");
    submit();
    expect(onSubmit).toHaveBeenLastCalledWith({ networks: ["10.0.0.0/24", "10.0.0.300/24"], hosts: ["prometheus.example.com"] });
    expect(screen.getByText("#2: not a network: 10.0.0.300/24")).toBeTruthy();
    expect(screen.getByLabelText("Networks (CIDR, one a line)").getAttribute("aria-invalid")).toBe("true");
  });

  it("is read-only for everyone else", () => {
    render(<AllowListForm value={value} editable={false} onSubmit={() => {}} />);
    expect((screen.getByLabelText("Host names (one a line, *.suffix allowed)") as HTMLTextAreaElement).readOnly).toBe(true);
    expect(screen.queryByText("Save allow-list")).toBeNull();
  });
});
