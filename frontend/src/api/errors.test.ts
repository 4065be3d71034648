import { describe, expect, it } from "vitest";
import { ApiError } from "./client";
import { planContext } from "../tools/__fixtures__";
import { describePath, errorsOf, locToPath, mapValidationErrors, messagesFor } from "./errors";

describe("locToPath", () => {
  it("drops body and the tool discriminator", () => {
    expect(locToPath(["body", "dnsperf", "phases", 1, "concurrency", 0], planContext("dnsperf"))).toBe("phases.1.concurrency.0");
  });
  it("drops a union member naming the tool and the phase kind tag", () => {
    expect(locToPath(["body", "function-after[_no_ramp(), DnsperfPlan]", "phases", 0, "baseline", "duration_s"], planContext("dnsperf"))).toBe(
      "phases.0.duration_s",
    );
  });
  it("returns null for another tool's errors", () => {
    expect(locToPath(["body", "function-after[_closed_loop(), WrkPlan]", "tool"], planContext("dnsperf"))).toBeNull();
    expect(locToPath(["body", "wrk", "params"], planContext("dnsperf"))).toBeNull();
  });
  it("drops type tags inside unions", () => {
    expect(locToPath(["body", "dnsperf", "phases", 2, "saturation", "rate", "RateRange", "step"], planContext("dnsperf"))).toBe("phases.2.rate.step");
    expect(locToPath(["body", "dnsperf", "phases", 2, "rate", "list[constrained-float]", 1], planContext("dnsperf"))).toBe("phases.2.rate.1");
  });
  it("drops a monitor's tag after its index", () => {
    expect(locToPath(["body", "iperf3", "monitors", 1, "ping", "host"], planContext("iperf3"))).toBe("monitors.1.host");
  });
  it("keeps plain bodies as they are", () => {
    expect(locToPath(["body", "port"])).toBe("port");
  });
});

describe("mapValidationErrors", () => {
  it("groups by field and keeps only the plan's tool", () => {
    const detail = [
      { loc: ["body", "function-after[_no_ramp(), DnsperfPlan]", "phases", 0, "baseline", "duration_s"], msg: "Input should be greater than 0", type: "greater_than" },
      { loc: ["body", "function-after[_closed_loop(), WrkPlan]", "phases", 0, "baseline", "duration_s"], msg: "Input should be greater than 0", type: "greater_than" },
      { loc: ["body", "function-after[_closed_loop(), WrkPlan]", "tool"], msg: "Input should be 'wrk'", type: "literal_error" },
      { loc: ["body", "dnsperf", "target_id"], msg: "target 77 does not exist", type: "value_error" },
    ];
    expect(mapValidationErrors(detail, planContext("dnsperf"))).toEqual({
      "phases.0.duration_s": ["Input should be greater than 0"],
      target_id: ["target 77 does not exist"],
    });
  });
  it("moves plan-level value errors to the field their message names", () => {
    const detail = [{ loc: ["body", "wrk"], msg: "Value error, phases[1].rate: wrk is closed-loop; leave rate out", type: "value_error" }];
    expect(mapValidationErrors(detail, planContext("wrk"))).toEqual({ "phases.1.rate": ["wrk is closed-loop; leave rate out"] });
  });
  it("shows everything when no error names the tool", () => {
    const detail = [{ loc: ["body", "function-after[_no_ramp(), DnsperfPlan]", "tool"], msg: "Field required", type: "missing" }];
    expect(mapValidationErrors(detail, planContext(""))).toEqual({ tool: ["Field required"] });
  });
  it("turns a string detail into a form-level error", () => {
    expect(mapValidationErrors("target 3 not found")).toEqual({ "": ["target 3 not found"] });
  });
});

describe("errorsOf and messagesFor", () => {
  it("maps a 422 ApiError and collects item messages", () => {
    const err = new ApiError(422, [
      { loc: ["body", "dnsperf", "phases", 1, "concurrency", 0], msg: "Input should be greater than or equal to 1", type: "x" },
      { loc: ["body", "dnsperf", "phases", 1, "concurrency"], msg: "too many", type: "x" },
    ]);
    const errors = errorsOf(err, planContext("dnsperf"));
    expect(messagesFor(errors, "phases.1.concurrency")).toEqual(["#1: Input should be greater than or equal to 1", "too many"]);
    expect(messagesFor(errors, "phases.1.concurrency", { exact: true })).toEqual(["too many"]);
    expect(messagesFor(errors, "phases.0")).toEqual([]);
  });
  it("puts other errors on the form", () => {
    expect(errorsOf(new ApiError(409, "target in use"))).toEqual({ "": ["target in use"] });
    expect(errorsOf(new Error("offline"))).toEqual({ "": ["offline"] });
    expect(errorsOf(null)).toEqual({});
  });
  it("describes paths for the summary", () => {
    expect(describePath("phases.1.concurrency.0")).toBe("phase 2 concurrency #1");
    expect(describePath("")).toBe("plan");
  });
});
