// Where Pod Lab's read-only documents (describe, live YAML, logs) open (no upstream counterpart):
// in the editor group that already holds one of them, so they gather in one group beside the
// manifest instead of each opening a new group further right. Kept free of `vscode` for its tests;
// documents.ts feeds it vscode.window.tabGroups.

export interface GroupView {
  /** The group's ViewColumn (1-based). */
  viewColumn: number;
  /** Its tabs: the URI scheme of each text tab (undefined for a webview, a diff, …), and which one is shown. */
  tabs: { scheme?: string; active: boolean }[];
}

/**
 * The group to open one of our documents in: a group showing one of them; else one that holds one
 * behind another tab (the user looked at something else there, or the tab is pinned further along);
 * else undefined (the caller opens it beside the active group). Among equals, the first (leftmost).
 */
export function outputGroup(groups: readonly GroupView[], ours: readonly string[]): number | undefined {
  const has = (g: GroupView, active: boolean) => g.tabs.some((t) => t.scheme !== undefined && ours.includes(t.scheme) && (!active || t.active));
  return (groups.find((g) => has(g, true)) ?? groups.find((g) => has(g, false)))?.viewColumn;
}
