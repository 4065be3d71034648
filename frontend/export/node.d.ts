// The little of Node and jsdom the export renderer uses (the frontend has no @types/node or @types/jsdom).
declare const process: {
  argv: string[];
  exitCode: number | undefined;
  stdin: AsyncIterable<Uint8Array | string>;
  stdout: { write(chunk: string): boolean };
  stderr: { write(chunk: string): boolean };
};

declare module "jsdom" {
  export class JSDOM {
    constructor(html: string, options?: { url?: string; pretendToBeVisual?: boolean });
    window: Window & typeof globalThis;
    serialize(): string;
  }
}
