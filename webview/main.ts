// Entry of the lifecycle panel's webview (bundled by esbuild to dist/webview.js, IIFE, with the
// toolkit inside: node_modules is not shipped). Styles are applied as constructable stylesheets,
// which the panel's strict CSP (no 'unsafe-inline') allows.
import {
  provideVSCodeDesignSystem,
  vsCodeBadge,
  vsCodeButton,
  vsCodeDivider,
  vsCodeDropdown,
  vsCodeOption,
  vsCodeProgressRing,
  vsCodeTag,
} from '@vscode/webview-ui-toolkit';
import css from './styles.css';
import { PanelApp, type VsCodeApi } from './app.js';

declare function acquireVsCodeApi(): VsCodeApi;

provideVSCodeDesignSystem().register(
  vsCodeBadge(),
  vsCodeButton(),
  vsCodeDivider(),
  vsCodeDropdown(),
  vsCodeOption(),
  vsCodeProgressRing(),
  vsCodeTag(),
);

const sheet = new CSSStyleSheet();
sheet.replaceSync(css);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

const root = document.getElementById('app') ?? document.body.appendChild(document.createElement('main'));
new PanelApp(root, acquireVsCodeApi()).start();
