// A tiny DOM builder for the panel: elements are created with attributes and children, event
// listeners are attached with addEventListener (the CSP allows no inline handlers), and nothing
// ever sets a `style` attribute (only CSSOM properties, which the CSP permits).

export type Child = Node | string | number | null | undefined | false | Child[];
export type Attrs = Record<string, string | number | boolean | null | undefined>;

function append(parent: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(parent, c);
    else if (typeof c === 'string' || typeof c === 'number') parent.appendChild(document.createTextNode(String(c)));
    else parent.appendChild(c);
  }
}

function setAttrs(el: Element, attrs: Attrs | undefined): void {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'style') throw new Error('style attributes are blocked by the CSP; use classes');
    el.setAttribute(k, v === true ? '' : String(v));
  }
}

/** An HTML element (including the toolkit's custom elements such as vscode-button). */
export function h(tag: string, attrs?: Attrs, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function s(tag: string, attrs?: Attrs, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function on<E extends Event = Event>(el: EventTarget, type: string, fn: (e: E) => void): void {
  el.addEventListener(type, fn as EventListener);
}

export function replaceChildren(el: Element, ...children: Child[]): void {
  while (el.firstChild) el.removeChild(el.firstChild);
  append(el, children);
}
