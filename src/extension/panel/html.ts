// The lifecycle panel's HTML shell. Pure (no `vscode`), so the webview tests load exactly what the
// extension serves, under the same Content-Security-Policy.
//
// CSP: nothing by default; scripts only with the per-load nonce; styles, fonts and images only from
// the webview resource origin. The webview's own CSS and the toolkit's styles are applied as
// constructable stylesheets (adoptedStyleSheets) by the bundled script, so no 'unsafe-inline' is
// needed. The one <style> element the toolkit creates (FAST's :focus-visible feature test) takes
// its nonce from <meta property="csp-nonce">, so styles also allow that nonce. No inline event
// handlers anywhere.
import { randomBytes } from 'node:crypto';

export function makeNonce(): string {
  return randomBytes(18).toString('base64').replace(/[+/=]/g, (c) => (c === '+' ? '-' : c === '/' ? '_' : ''));
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export interface PanelHtmlOptions {
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  /** webview.asWebviewUri(dist/webview.js) as a string */
  scriptUri: string;
  /** Shown until the script renders (e.g. "default/web"). */
  title: string;
}

export function panelHtml(o: PanelHtmlOptions): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(contentSecurityPolicy(o.cspSource, o.nonce))}">
<meta property="csp-nonce" content="${escapeAttr(o.nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeAttr(o.title)}</title>
</head>
<body>
<main id="app" aria-live="polite" data-pod="${escapeAttr(o.title)}"><p class="loading">Loading ${escapeAttr(o.title)}…</p></main>
<script nonce="${escapeAttr(o.nonce)}" src="${escapeAttr(o.scriptUri)}"></script>
</body>
</html>`;
}
