// Types of guard.mjs, for the Vitest test that imports it (frontend/src/e2eGuard.test.ts).
export interface Rule { status?: number | number[]; url?: string | RegExp; method?: string }
export type GuardEvent =
  | { kind: "console"; type: string; text: string; url?: string }
  | { kind: "pageerror"; text: string; url?: string }
  | { kind: "requestfailed"; url: string; method: string; failure: string }
  | { kind: "response"; url: string; method: string; status: number };
export function isExpected(rules: Rule[], answer: { url: string; status: number; method?: string }): boolean;
export function isApi(url: string): boolean;
export function problemOf(event: GuardEvent, rules?: Rule[]): string | null;
export interface Guard { expect(rule: Rule): Guard; problems(): string[]; reset(): void; assertClean(where?: string): void }
export function attachGuard(page: { on(event: string, fn: (arg: any) => void): unknown; url(): string }): Guard;
