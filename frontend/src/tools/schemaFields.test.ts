import { describe, expect, it } from "vitest";
import { defaultParams, fieldsOf, paramsFromApi, paramsToApi } from "./schemaFields";
import { TOOLS, tool } from "./__fixtures__";

const fields = (name: string) => fieldsOf(tool(name).params_schema);
const byName = (name: string, field: string) => fields(name).find((f) => f.name === field)!;

describe("schema-to-field mapper on the real GET /tools payload", () => {
  it("maps every tool's schema to fields, labelled by the schema's titles", () => {
    for (const t of TOOLS) {
      const fs = fieldsOf(t.params_schema);
      expect(fs.map((f) => f.name)).toEqual(Object.keys((t.params_schema as { properties: object }).properties));
      for (const f of fs) expect(f.label).toBeTruthy();
    }
  });
  it("enum → select with the schema's choices", () => {
    const qtype = byName("dnsperf", "qtype");
    expect(qtype).toMatchObject({ kind: "select", label: "Record type", default: "A" });
    expect(qtype.options).toContain("AAAA");
    expect(byName("iperf3", "protocol").options).toEqual(["tcp", "udp"]);
  });
  it("boolean → checkbox", () => {
    expect(byName("iperf3", "reverse")).toMatchObject({ kind: "checkbox", default: false });
  });
  it("integer/number → numeric with the schema's bounds, nullable from anyOf", () => {
    expect(byName("iperf3", "length")).toMatchObject({ kind: "number", integer: true, min: 16, max: 1048576, nullable: true });
    expect(byName("wrk", "threads")).toMatchObject({ kind: "number", min: 1, max: 64, nullable: true, default: null });
    const timeout = byName("dnsperf", "timeout_s");
    expect(timeout).toMatchObject({ kind: "number", min: 0.1, max: 60, nullable: false });
    expect(timeout.integer).toBeUndefined();
    expect(timeout.hint).toContain("0.1 … 60");
    expect(timeout.hint).toContain("unanswered");
  });
  it("string array → list, string → text; required from the schema", () => {
    expect(byName("dnsperf", "names")).toMatchObject({ kind: "list", label: "Query names" });
    expect(byName("wrk", "path")).toMatchObject({ kind: "text", maxLength: 2000, required: false });
    expect(byName("ping", "host")).toMatchObject({ kind: "text", required: true });
  });
  it("starts from the schema's defaults", () => {
    expect(defaultParams(fields("wrk"))).toEqual({ path: "/", threads: "", timeout_s: "2", scheme: "http" });
    expect(defaultParams(fields("iperf3"))).toEqual({ protocol: "tcp", reverse: false, length: "" });
    expect(defaultParams(fields("devsim")).profile).toBe("singlelight");
  });
  it("round-trips API params, typed by the schema", () => {
    const dns = fields("dnsperf");
    const form = paramsFromApi(dns, { names: ["a.lab", "b.lab"], qtype: "AAAA", timeout_s: 2.5, latency_capture: false, max_outstanding: 50 });
    expect(form).toEqual({ names: "a.lab\nb.lab", qtype: "AAAA", timeout_s: "2.5", latency_capture: false, max_outstanding: "50",
                           mode: "udp", port: "", doh_path: "", doh_method: "", ca_pem: "", tls_skip_verify: false });
    expect(paramsToApi(dns, form)).toEqual({ names: ["a.lab", "b.lab"], qtype: "AAAA", timeout_s: 2.5, latency_capture: false, max_outstanding: 50, mode: "udp",
                                             tls_skip_verify: false });
    const doh = paramsFromApi(dns, { mode: "doh", port: 8443, doh_method: "POST" });
    expect(paramsToApi(dns, doh)).toEqual({ qtype: "A", timeout_s: 5, max_outstanding: 1000, latency_capture: true,
                                            mode: "doh", port: 8443, doh_method: "POST", tls_skip_verify: false });
  });
  it("leaves empty optional values to the tool's default, keeps what does not parse for the API to name", () => {
    const wrk = fields("wrk");
    expect(paramsToApi(wrk, defaultParams(wrk))).toEqual({ path: "/", timeout_s: 2, scheme: "http" });
    expect(paramsToApi(wrk, { ...defaultParams(wrk), threads: "two" })).toMatchObject({ threads: "two" });
    expect(paramsToApi(fields("iperf3"), { protocol: "udp", reverse: true, length: "1400" })).toEqual({ protocol: "udp", reverse: true, length: 1400 });
    // a required field left empty goes out, so the API's 422 names it
    expect(paramsToApi(fields("ping"), { host: " " })).toEqual({ host: "" });
    expect(paramsToApi(fields("dnsperf"), { names: "\n " })).toEqual({});
  });
  it("a long string (a PEM bundle) → a text area whose line breaks reach the API", () => {
    const schema = { properties: { ca_pem: { anyOf: [{ type: "string", maxLength: 65536 }, { type: "null" }], default: null, title: "CA certificates (PEM)" } } };
    const [pem] = fieldsOf(schema);
    expect(pem).toMatchObject({ kind: "multiline", nullable: true });
    const text = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    expect(paramsToApi([pem], { ca_pem: text })).toEqual({ ca_pem: text.trim() });
    expect(paramsToApi([pem], { ca_pem: "" })).toEqual({});
  });
  it("has no fields without a schema", () => {
    expect(fieldsOf(undefined)).toEqual([]);
    expect(paramsToApi([], { x: "1" })).toEqual({});
  });
});
