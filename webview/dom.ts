// A tiny DOM builder for the panel: elements are created with attributes and children, event
// listeners are attached with addEventListener (the CSP allows no inline handlers), and nothing
// ever sets a `style` attribute (only CSSOM properties, which the CSP permits).
//
// A section is rebuilt as a detached tree and morphed into the live one (morphdom): only the
// nodes that differ change, so the element with keyboard focus, a text selection, an open
// <details> and the toolkit's components survive an update, and the browser re-lays out and
// repaints only what changed. Listeners attached with `on` follow the morph: a kept element gets
// the new tree's listeners (theirs close over the new data), so handlers read their element from
// the event (`currentTarget`), never from the variable that built it.
//
// A subtree built from a few values (a timeline lane, a container's row) can be memoised: while
// the live tree holds its element built from the same values, the new tree gets a placeholder the
// morph leaves alone, so the subtree is neither built nor compared again (see memo).
import morphdom from 'morphdom';

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

/** The attributes the panel gave each component (a custom element): the others are the component's own. */
const given = new WeakMap<Element, Set<string>>();

function setAttrs(el: Element, attrs: Attrs | undefined): void {
  const component = el.localName.includes('-');
  const names = component ? new Set<string>() : undefined;
  if (names) given.set(el, names);
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'style') throw new Error('style attributes are blocked by the CSP; use classes');
    el.setAttribute(k, v === true ? '' : String(v));
    names?.add(k);
  }
}

/**
 * A kept component keeps the attributes it set on itself (a dropdown's role, tabindex and ARIA
 * state, an option's generated id): they are copied into the new tree so the morph leaves them.
 */
function keepOwnAttributes(from: Element, to: Element): void {
  const ours = given.get(from);
  if (!ours) return;
  for (const a of Array.from(from.attributes)) if (!ours.has(a.name) && !to.hasAttribute(a.name)) to.setAttribute(a.name, a.value);
  given.set(from, given.get(to) ?? new Set());
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

const listeners = new WeakMap<EventTarget, [string, EventListener][]>();

export function on<E extends Event = Event>(el: EventTarget, type: string, fn: (e: E) => void): void {
  el.addEventListener(type, fn as EventListener);
  const list = listeners.get(el);
  if (list) list.push([type, fn as EventListener]);
  else listeners.set(el, [[type, fn as EventListener]]);
}

/** A kept element takes the listeners of the element that replaces it in the new tree. */
function moveListeners(from: Element, to: Element): void {
  for (const [type, fn] of listeners.get(from) ?? []) from.removeEventListener(type, fn);
  const next = listeners.get(to);
  if (next) {
    for (const [type, fn] of next) from.addEventListener(type, fn);
    listeners.set(from, next);
  } else listeners.delete(from);
}

/** Keys that match list items across updates (an event, an attempt) instead of their positions (not ids: components generate theirs). */
function keyOf(node: Node): string | undefined {
  return node instanceof Element ? (node.getAttribute('data-key') ?? undefined) : undefined;
}

/** What each memoised element was built from (see memo); it follows the element the morph keeps. */
const builtFrom = new WeakMap<Element, string>();
/** Placeholders for memoised elements the live tree already has as they would be built. */
const unchanged = new WeakSet<Element>();

/**
 * The element for `key` (a `data-key` unique in the tree that `live` holds), built from `sig`: the
 * values `build` reads, serialised. When `live` has that element built from the same `sig`, the
 * result is an empty placeholder the morph skips (the live one stays as it is, its listeners too),
 * else what `build` makes, keyed and signed.
 */
export function memo<E extends Element>(live: ParentNode | null | undefined, key: string, sig: string, build: () => E): E {
  const shown = live?.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (shown && builtFrom.get(shown) === sig) {
    const same = document.createElementNS(shown.namespaceURI, shown.localName);
    same.setAttribute('data-key', key);
    unchanged.add(same);
    return same as E;
  }
  const el = build();
  el.setAttribute('data-key', key);
  builtFrom.set(el, sig);
  return el;
}

/**
 * Makes `el`'s children those of `next` (a detached element of the same kind), changing only the
 * nodes that differ. `next` is consumed.
 */
export function morphInto(el: Element, next: Element): void {
  morphdom(el, next, {
    childrenOnly: true,
    getNodeKey: keyOf,
    onBeforeElUpdated(from, to) {
      if (unchanged.has(to)) return false;
      const sig = builtFrom.get(to);
      if (sig === undefined) builtFrom.delete(from);
      else builtFrom.set(from, sig);
      moveListeners(from, to);
      keepOwnAttributes(from, to);
      return true;
    },
  });
}

/** An element of `el`'s kind (and namespace) with these children, detached: for morphInto. */
export function detachedLike(el: Element, ...children: Child[]): Element {
  const next = document.createElementNS(el.namespaceURI, el.localName);
  append(next, children);
  return next;
}

/** Replaces `el`'s children with these, changing only the nodes that differ (see morphInto). */
export function morphChildren(el: Element, ...children: Child[]): void {
  morphInto(el, detachedLike(el, ...children));
}

export function replaceChildren(el: Element, ...children: Child[]): void {
  while (el.firstChild) el.removeChild(el.firstChild);
  append(el, children);
}
