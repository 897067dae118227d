// Entry of the lifecycle panel's webview (bundled by esbuild to dist/webview.js, IIFE, with the
// toolkit inside: node_modules is not shipped). Styles are applied as constructable stylesheets,
// which the panel's strict CSP (no 'unsafe-inline') allows. The toolkit's badge, tag (a badge) and
// progress ring are not used: their templates carry `style` attributes, which that CSP blocks.
import {
  provideVSCodeDesignSystem,
  vsCodeButton,
  vsCodeDropdown,
  vsCodeOption,
} from '@vscode/webview-ui-toolkit';
import css from './styles.css';
import { PanelApp, type VsCodeApi } from './app.js';

declare function acquireVsCodeApi(): VsCodeApi;

provideVSCodeDesignSystem().register(
  vsCodeButton(),
  vsCodeDropdown(),
  vsCodeOption(),
);

const sheet = new CSSStyleSheet();
sheet.replaceSync(css);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

const root = document.getElementById('app') ?? document.body.appendChild(document.createElement('main'));
new PanelApp(root, acquireVsCodeApi()).start();
