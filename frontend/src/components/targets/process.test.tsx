// Issue 46 item 2: a target names its server's process (its command name), whose CPU the process monitor reads from /proc
// (this host for a loopback or lab target, the observer on the server's host for a remote one).
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../api/client";
import type { Target } from "../../api/types";
import TargetForm from "./TargetForm";

describe("TargetForm server process", () => {
  it("sends the command name trimmed, and none when left empty", () => {
    const onSubmit = vi.fn();
    render(<TargetForm onSubmit={onSubmit} />);
    fireEvent.submit(screen.getByRole("form"));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ process: null }));
    fireEvent.change(screen.getByLabelText("Server process"), { target: { value: " coredns " } });
    fireEvent.submit(screen.getByRole("form"));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ process: "coredns" }));
  });

  it("shows a target's process, says where it is read, and a 422 beside it", () => {
    const target = { id: 1, name: "dns", kind: "dns", host: "192.0.2.10", port: 53, tags: [], notes: "", metrics_url: null, created_at: "",
      exporters: [], process: "unbound" } as unknown as Target; // prettier-ignore
    const err = new ApiError(422, [{ loc: ["body", "process"], msg: "String should match pattern", type: "string_pattern_mismatch" }]);
    render(<TargetForm target={target} onSubmit={() => {}} error={err} />);
    const field = screen.getByLabelText("Server process") as HTMLInputElement;
    expect(field.value).toBe("unbound");
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("String should match pattern")).toBeTruthy();
    expect(screen.getByText(/by the observer on the server's host for a remote one/)).toBeTruthy();
  });
});
