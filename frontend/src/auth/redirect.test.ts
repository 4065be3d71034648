import { describe, expect, it } from "vitest";
import { loginUrl, safeNext } from "./redirect";

describe("safeNext", () => {
  it("keeps same-site paths", () => {
    expect(safeNext("/campaigns/3?tab=points#x")).toBe("/campaigns/3?tab=points#x");
  });
  it("refuses other sites and odd forms", () => {
    for (const bad of ["https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)", "", null, undefined, "/a\nb"]) {
      expect(safeNext(bad)).toBe("/");
    }
  });
  it("builds the login URL", () => {
    expect(loginUrl("/plans?x=1")).toBe("/login?next=%2Fplans%3Fx%3D1");
  });
});
