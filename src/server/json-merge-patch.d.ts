// Types for the npm package json-merge-patch (RFC 7386), which ships none. Only what patch.ts uses.
declare module 'json-merge-patch' {
  /** Applies a merge patch to `target`, which it MUTATES (pass a copy); returns the result. */
  export function apply(target: unknown, patch: unknown): unknown;
}
