// The status bar item: Docker connection state and the number of lab pods; a click retries a
// failed connection (or connects, or shows the view when connected).
import * as vscode from 'vscode';
import type { Lab, ConnectionState } from './lab.js';

export function statusText(s: ConnectionState): { text: string; tooltip: string; command: string; error: boolean } {
  switch (s.kind) {
    case 'idle':
      return { text: '$(vm-outline) Pod Lab', tooltip: 'Pod Lab: not connected to Docker yet (connects on first use). Click to connect.', command: 'podlab.reconnect', error: false };
    case 'connecting':
      return { text: '$(loading~spin) Pod Lab', tooltip: 'Pod Lab: connecting to Docker…', command: 'podlab.showOutput', error: false };
    case 'connected':
      return {
        text: `$(vm-running) Pod Lab: ${s.pods} pod${s.pods === 1 ? '' : 's'}`,
        tooltip: `Pod Lab: connected to Docker · ${s.pods} lab pod(s). Click to show the Pod Lab view.`,
        command: 'workbench.view.extension.podlab',
        error: false,
      };
    case 'lost':
      return {
        text: '$(debug-disconnect) Pod Lab: lab server lost',
        tooltip: `Pod Lab: the lab server stopped answering (${s.message}); retrying.\nClick to start it again.`,
        command: 'podlab.reconnect',
        error: true,
      };
    case 'failed':
      return { text: '$(debug-disconnect) Pod Lab: Docker unavailable', tooltip: `Pod Lab cannot reach Docker: ${s.message}\nClick to retry.`, command: 'podlab.reconnect', error: true };
  }
}

export function registerStatusBar(lab: Lab): void {
  const item = vscode.window.createStatusBarItem('podlab.status', vscode.StatusBarAlignment.Left, 10);
  item.name = 'Pod Lab';
  const render = (s: ConnectionState) => {
    const t = statusText(s);
    item.text = t.text;
    item.tooltip = t.tooltip;
    item.command = t.command;
    item.backgroundColor = t.error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    item.accessibilityInformation = { label: t.text.replace(/\$\([^)]*\)\s*/g, '') };
    void vscode.commands.executeCommand('setContext', 'podlab.connected', s.kind === 'connected');
  };
  render(lab.connection);
  item.show();
  lab.push(item, lab.onDidChangeState(render));
}
