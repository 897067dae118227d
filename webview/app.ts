// The lifecycle panel inside the webview: applies snapshots and patches from the host, renders the
// sections whose data changed, acknowledges each update once painted, keeps its state with
// setState so it survives hide/show, and talks to the host only through src/shared/protocol.ts.
import { argsText, commandText } from './command-text.js';
import {
  PROTOCOL_VERSION,
  applyPatch,
  attemptFromKey,
  attemptKey,
  isHostToWebview,
  patchedSections,
  type AttemptRef,
  type ContainerView,
  type HostToWebview,
  type NoticeView,
  type PanelModel,
  type PodChoice,
  type ProbeView,
  type PanelSection,
  type StateView,
  type RenderedUpdate,
  type ReplyBodies,
  type RequestBody,
  type WebviewState,
  type WebviewToHost,
} from '../src/shared/protocol.js';
import { detachedLike, h, memo, morphChildren, morphInto, on, replaceChildren, type Child } from './dom.js';
import {
  LOG_LINE_CAP,
  age,
  appendLogLines,
  clockTime,
  countdown,
  droppedText,
  filterLogLines,
  matchSegments,
  logCountText,
  streamEndText,
  type LogBuffer,
  eventAge,
  preciseDuration,
  restarts,
  secondsLeft,
  shortId,
  stateText,
  statusClass,
  streakText,
  defaultLogsContainer,
} from './format.js';
import { renderTimeline } from './timeline.js';

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

type UiSection = 'header' | 'step' | 'notices' | 'timeline' | 'initDebug' | 'containers' | 'conditions' | 'events' | 'logs';

/** Which UI sections depend on which model sections. */
const DEPENDS: Record<UiSection, PanelSection[]> = {
  header: ['header'],
  step: ['debug', 'containers'],
  notices: ['notices'],
  timeline: ['timeline'],
  initDebug: ['containers'],
  containers: ['containers'],
  conditions: ['conditions'],
  events: ['events'],
  // The header too: a deleted pod's logs say so.
  logs: ['containers', 'header'],
};
const UI_SECTIONS = Object.keys(DEPENDS) as UiSection[];
/** A frame at 60 Hz: an update within this long of the last render waits for the next frame. */
const FRAME_MS = 1000 / 60;
/** How long after an update its state is saved (a burst of updates saves once). */
const SAVE_DELAY_MS = 250;

interface LogEntry {
  loading: boolean;
  lines?: string[];
  error?: string;
}

/** The logs pane's choice: which container, the attempt choices offered and the chosen one. */
interface LogsSelection {
  names: string[];
  name: string;
  c: ContainerView;
  options: [string, string][];
  selKey: string;
  ref: AttemptRef;
  timestamps: boolean;
}

/** The followed log of the shown container's current instance (one stream at a time). */
interface FollowState {
  /** Tells this stream's reply from a superseded one's. */
  token: number;
  container: string;
  timestamps: boolean;
  /** The instance followed (container id, '' while none runs yet) and the container's stamp when last looked at. */
  containerID: string;
  stamp: string;
  /** The host's stream id, once its reply arrived. */
  stream?: number;
  buf: LogBuffer;
  status: 'opening' | 'live' | 'ended' | 'error';
  error?: string;
}

type RequestKind = RequestBody['kind'];

function isState(v: unknown): v is WebviewState {
  return typeof v === 'object' && v !== null && (v as WebviewState).version === PROTOCOL_VERSION;
}

export class PanelApp {
  private model: PanelModel | undefined;
  private seq = 0;
  /** The panel's width as the last layout had it (see the ResizeObserver in the constructor). */
  private rootWidth: number | undefined;
  private receivedAt = Date.now();
  private saveTimer?: ReturnType<typeof setTimeout>;
  private ui: WebviewState['ui'] = {};
  /** The pod switcher's list (host message `pods`). */
  private pods: { current: { namespace: string; name: string }; pods: PodChoice[] } | undefined;
  private readonly sections = new Map<UiSection, HTMLElement>();
  private readonly logs = new Map<string, LogEntry>();
  private readonly pending = new Map<number, { resolve: (b: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private readonly notices = new Map<string, string>();
  /** Logs pane: the followed stream, the filter (not saved), the pane's signature and its view element. */
  private follow: FollowState | undefined;
  private followToken = 0;
  private logFilter = '';
  private logsSig = '';
  private logView: HTMLElement | undefined;
  /** What the log element shows now (the buffer's lines array and the filter), so unchanged data is not redrawn. */
  private logRendered: { pre: HTMLElement; lines: string[]; filter: string; live: boolean } | undefined;
  private logSource: { kind: 'follow' } | { kind: 'once'; key: string } | undefined;
  /** A snapshot or patch arrived since this webview loaded (the host is listening: streams may open). */
  private connected = false;
  /** Sections to render at the next frame, and the updates waiting for it (renderAtFrame). */
  private readonly dirty = new Set<UiSection>();
  private unrendered: { seq: number; arrived: number; handlingMs: number }[] = [];
  private frameQueued = false;
  /** When the last render ended (performance.now()). */
  private renderedAt = -Infinity;

  constructor(
    private readonly root: HTMLElement,
    private readonly api: VsCodeApi,
  ) {}

  start(): void {
    replaceChildren(this.root);
    for (const id of UI_SECTIONS) {
      const el = h('section', { id: `section-${id}`, class: `section section-${id}`, 'data-testid': id });
      this.sections.set(id, el);
      this.root.appendChild(el);
    }
    const saved = this.api.getState();
    if (isState(saved)) {
      this.ui = { ...saved.ui };
      if (saved.model) {
        this.model = saved.model;
        this.seq = saved.seq;
        this.receivedAt = saved.receivedAt ?? Date.now();
        this.render(UI_SECTIONS);
        this.root.dataset.restored = 'true';
      }
    }
    on<MessageEvent>(window, 'message', (e) => this.onMessage(e.data));
    // The panel's width, read where layout is already done (reading it while rendering would force one).
    new ResizeObserver(() => {
      const width = this.root.clientWidth;
      if (width === this.rootWidth) return;
      this.rootWidth = width;
      this.redrawTimeline();
    }).observe(this.root);
    setInterval(() => this.tick(), 1000);
    this.post({ type: 'ready', haveSeq: this.model ? this.seq : undefined });
  }

  /** The display clock: the host's time of the model plus what elapsed here since it arrived. */
  clock(): number {
    return (this.model?.now ?? Date.now()) + (Date.now() - this.receivedAt);
  }

  private post(m: WebviewToHost): void {
    this.api.postMessage(m);
  }

  private request<K extends RequestKind>(body: Extract<RequestBody, { kind: K }>): Promise<ReplyBodies[K]> {
    const id = this.nextId++;
    return new Promise<ReplyBodies[K]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (b: unknown) => void, reject });
      this.post({ type: 'request', id, body });
    });
  }

  private onMessage(data: unknown): void {
    const arrived = performance.now();
    if (!isHostToWebview(data)) return;
    const m: HostToWebview = data;
    switch (m.type) {
      case 'snapshot':
        if (this.model && (this.model.header.namespace !== m.model.header.namespace || this.model.header.name !== m.model.header.name)) {
          // Another pod: what was chosen for the previous one (logs, folded attempts) does not apply.
          this.logs.clear();
          this.stopFollow();
          this.logsSig = '';
          this.ui = {
            timelineZoom: this.ui.timelineZoom,
            open: this.ui.open?.filter((k) => k.startsWith('section:') || k.startsWith('!section:')),
            logsTimestamps: this.ui.logsTimestamps,
            logsWrap: this.ui.logsWrap,
          };
        }
        this.connected = true;
        this.model = m.model;
        this.seq = m.seq;
        this.receivedAt = Date.now();
        this.renderAtFrame(UI_SECTIONS, m.seq, arrived);
        break;
      case 'patch': {
        if (!this.model || m.baseSeq !== this.seq) {
          this.post({ type: 'resync', haveSeq: this.model ? this.seq : undefined });
          return;
        }
        this.connected = true;
        this.model = applyPatch(this.model, m.changes);
        this.seq = m.seq;
        this.receivedAt = Date.now();
        const changed = new Set(patchedSections(m.changes));
        this.renderAtFrame(
          UI_SECTIONS.filter((u) => DEPENDS[u].some((s) => changed.has(s))),
          m.seq,
          arrived,
        );
        break;
      }
      case 'pods':
        this.pods = { current: m.current, pods: m.pods };
        this.render(['header']);
        break;
      case 'logChunk':
        this.onLogChunk(m);
        break;
      case 'reply': {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.ok) p.resolve(m.body);
        else p.reject(new Error(m.error));
        break;
      }
    }
  }

  /**
   * Renders an update's sections. An update that finds the panel idle (no render in the last frame)
   * is rendered at the end of the task that brought it: its DOM work is done while the next frame
   * is still on its way, instead of at that frame. Updates that follow within a frame (a burst: a
   * container's start, its events and the pod's conditions, milliseconds apart) are rendered at the
   * next frame, together: one render and one layout instead of one each. Each update is
   * acknowledged once the frame that shows it is painted. Without frames (the panel hidden or
   * throttled) a waiting render happens after 50 ms all the same.
   */
  private renderAtFrame(which: readonly UiSection[], seq: number, arrived: number): void {
    for (const id of which) this.dirty.add(id);
    this.unrendered.push({ seq, arrived, handlingMs: performance.now() - arrived });
    if (this.frameQueued) return;
    this.frameQueued = true;
    let fallback: ReturnType<typeof setTimeout> | undefined;
    const flush = (inFrame: boolean) => {
      if (!this.frameQueued) return;
      this.frameQueued = false;
      // this burst's own fallback must not flush the next burst early
      clearTimeout(fallback);
      const started = performance.now();
      const sections = UI_SECTIONS.filter((id) => this.dirty.has(id));
      this.dirty.clear();
      this.render(sections);
      const updates = this.unrendered;
      this.unrendered = [];
      this.root.dataset.seq = String(this.seq);
      this.saveSoon();
      this.renderedAt = performance.now();
      this.acknowledge(updates, this.renderedAt - started, inFrame);
    };
    if (performance.now() - this.renderedAt >= FRAME_MS) {
      queueMicrotask(() => flush(false));
      return;
    }
    requestAnimationFrame(() => flush(true));
    fallback = setTimeout(() => flush(false), 50);
  }

  /**
   * Tells the host the updates are shown: after their frame is painted (or 50 ms without one). A task
   * queued from a frame callback runs once that frame is painted; rendered outside a frame, the
   * updates wait for the next one.
   */
  private acknowledge(updates: readonly { seq: number; arrived: number; handlingMs: number }[], renderMs: number, inFrame: boolean): void {
    let acked = false;
    const ack = (painted: boolean) => {
      if (acked) return;
      acked = true;
      const t = performance.now();
      const round = (ms: number) => Math.round(ms * 10) / 10;
      const times = updates.map((u): RenderedUpdate => ({ seq: u.seq, webviewMs: round(t - u.arrived), renderMs: round(u.handlingMs + renderMs) }));
      const last = times.pop();
      if (!last) return;
      this.post({ type: 'rendered', ...last, ...(times.length ? { earlier: times } : {}), ...(painted ? { paintedAt: performance.timeOrigin + t } : {}) });
    };
    if (inFrame) setTimeout(() => ack(true), 0);
    else requestAnimationFrame(() => setTimeout(() => ack(true), 0));
    setTimeout(() => ack(false), 50);
  }

  /**
   * Saves the state 250 ms after an update, once for a burst of them. setState sends the whole
   * model through the workbench, on the thread that relays the next update to this webview; a
   * reloaded webview asks for what it missed (ready with haveSeq), so a state a few updates old
   * loses nothing.
   */
  private saveSoon(): void {
    if (this.saveTimer !== undefined) return;
    this.saveTimer = setTimeout(() => this.save(), SAVE_DELAY_MS);
  }

  private save(): void {
    if (this.saveTimer !== undefined) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    const st: WebviewState = {
      version: PROTOCOL_VERSION,
      seq: this.seq,
      model: this.model,
      receivedAt: this.receivedAt,
      ui: this.ui,
    };
    this.api.setState(st);
  }

  /** Once a second: ages, countdowns and the live end of the timeline. */
  private tick(): void {
    if (!this.model) return;
    this.updateClocks();
    if (!this.model.header.gone) this.redrawTimeline();
  }

  /** The texts that move with the clock (ages, countdowns) under `root`: only those that changed are set. */
  private updateClocks(root: ParentNode = this.root): void {
    const now = this.clock();
    const set = (el: HTMLElement, text: string) => {
      if (el.textContent !== text) el.textContent = text;
    };
    root.querySelectorAll<HTMLElement>('[data-fmt]').forEach((el) => {
      const d = el.dataset;
      const num = (k: string) => (d[k] !== undefined && d[k] !== '' ? Number(d[k]) : undefined);
      switch (d.fmt) {
        case 'age':
          set(el, age(num('since'), num('until') ?? now));
          break;
        case 'event-age':
          set(el, eventAge(num('first'), num('last'), num('count') ?? 1, now));
          break;
        case 'restarts':
          set(el, restarts(num('count') ?? 0, num('last'), now));
          break;
        case 'countdown': {
          const until = num('until') ?? now;
          set(el, countdown(until, now));
          const left = String(secondsLeft(until, now));
          if (el.dataset.secondsLeft !== left) el.dataset.secondsLeft = left;
          break;
        }
      }
    });
  }

  /**
   * Renders sections: each is built as a detached tree and morphed into the live one, so what did
   * not change stays as it is (focus, a selection, an open <details>) and costs no layout or paint.
   */
  private render(which: UiSection[]): void {
    const model = this.model;
    if (!model) return;
    for (const id of which) {
      const el = this.sections.get(id)!;
      if (id === 'logs') {
        // Kept in place when only its data changed (the filter keeps focus, the log its scroll).
        if (this.renderLogs(el, model)) continue;
        labelCells(el);
        this.foldHeading(id, el);
        this.applyFold(id);
        continue;
      }
      const next = detachedLike(el, this.sectionContent(id, model));
      labelCells(next);
      this.foldHeading(id, next);
      this.updateClocks(next);
      morphInto(el, next);
      this.applyFold(id);
      if (id === 'header') this.selectShownPod(el);
    }
    this.updateClocks();
  }

  /**
   * The dropdown keeps the index it had selected when its options change (a pod added before the
   * shown one, or the shown one gone): it is set to the pod shown.
   */
  private selectShownPod(header: Element): void {
    const sel = header.querySelector('[data-testid=pod-switcher]') as (Element & { value?: string }) | null;
    const list = this.pods;
    if (!sel || !list) return;
    const current = `${list.current.namespace}/${list.current.name}`;
    // after the dropdown took its new options in (slotchange comes after the morph)
    setTimeout(() => {
      const d = sel as Element & { value?: string; selectedIndex?: number; options?: { value: string }[] };
      const index = d.options?.findIndex((o) => o.value === current) ?? -1;
      if (index >= 0 && d.selectedIndex !== index) d.selectedIndex = index;
    }, 0);
  }

  private sectionContent(id: Exclude<UiSection, 'logs'>, model: PanelModel): Child {
    // a pod never seen has no conditions, containers, events or timeline to show
    if (model.header.missing && id !== 'header') return null;
    switch (id) {
      case 'header':
        return this.header(model);
      case 'step':
        return this.stepBanner(model);
      case 'notices':
        return this.noticeBoxes(model);
      case 'timeline':
        return this.timeline(model);
      case 'initDebug':
        return this.initDebug(model);
      case 'containers':
        return this.containers(model);
      case 'conditions':
        return this.conditions(model);
      case 'events':
        return this.events(model);
    }
  }

  /** A section whose heading folds it (remembered with the panel's state); open by default. */
  private foldHeading(id: UiSection, root: Element): void {
    const heading = root.querySelector<HTMLElement>(':scope > h2');
    if (!heading) return;
    const key = `section:${id}`;
    heading.classList.add('fold');
    heading.setAttribute('role', 'button');
    heading.setAttribute('tabindex', '0');
    heading.setAttribute('title', 'Fold or unfold this section');
    heading.setAttribute('aria-expanded', String(this.isOpen(key, true)));
    const toggle = () => {
      this.setOpen(key, !this.isOpen(key, true));
      this.applyFold(id);
      if (id === 'timeline') this.redrawTimeline();
    };
    on(heading, 'click', toggle);
    on<KeyboardEvent>(heading, 'keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        toggle();
      }
    });
  }

  private applyFold(id: UiSection): void {
    const el = this.sections.get(id)!;
    const open = this.isOpen(`section:${id}`, true);
    el.classList.toggle('collapsed', !open);
    el.querySelector(':scope > h2')?.setAttribute('aria-expanded', String(open));
  }

  // -------------------------------------------------------------------------------------------
  // Sections

  /** The pod switcher: one panel for all of the lab's pods (shown when there is more than one). */
  private podSwitcher(): Child {
    const list = this.pods;
    if (!list || list.pods.length < 2) return null;
    const key = (p: { namespace: string; name: string }) => `${p.namespace}/${p.name}`;
    const current = key(list.current);
    // The pod shown stays in the list when it left the lab (deleted, or never created), so the
    // switcher shows it rather than the first other pod (which choosing could then not switch to).
    const pods = list.pods.some((p) => key(p) === current) ? list.pods : [...list.pods, { ...list.current, status: this.model?.header.cluster ? 'not found' : 'not in the lab' }].sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
    const sel = h(
      'vscode-dropdown',
      { 'data-testid': 'pod-switcher', 'aria-label': 'Pod' },
      pods.map((p) => {
        const label = `${p.namespace === 'default' ? '' : `${p.namespace}/`}${p.name} · ${p.status}`;
        // Keyed by its text: an option whose STATUS changed is a new one to the dropdown, which
        // then draws the shown pod's new text (it does not watch an option's text change).
        return h('vscode-option', { value: key(p), selected: key(p) === current, 'data-key': `${key(p)} ${label}` }, label);
      }),
    );
    on(sel, 'change', (e) => {
      const [namespace, name] = (e.currentTarget as unknown as { value: string }).value.split('/') as [string, string];
      if (`${namespace}/${name}` !== current) void this.request<'switchPod'>({ kind: 'switchPod', namespace, name }).catch(() => undefined);
    });
    return h('div', { class: 'pod-switcher' }, h('span', { class: 'muted' }, `Pod (${list.pods.length}): `), sel);
  }

  private header(m: PanelModel): Child {
    const hd = m.header;
    const field = (label: string, value: Child, testid: string) =>
      h('div', { class: 'field' }, h('dt', {}, label), h('dd', { 'data-testid': testid }, value));
    if (hd.missing) {
      // No such pod: kubectl's NotFound, and how it comes to exist (nothing else, which would be made up).
      return [
        this.podSwitcher(),
        h('div', { class: 'title-row' }, h('h1', {}, hd.name, ' ', h('span', { class: 'namespace' }, hd.namespace))),
        h(
          'p',
          { class: 'banner banner-info', role: 'status', 'data-testid': 'missing' },
          h('code', {}, `pods "${hd.name}" not found`),
          hd.cluster
            ? `: there is no such pod in namespace ${hd.namespace} of this cluster (it was never created, or it was deleted before this panel opened). This panel follows it if it is created.`
            : ': there is no such pod in the lab (it was never created, or it was deleted before this panel opened). Run Pod on its manifest creates it, and this panel follows it from then on.',
        ),
      ];
    }
    return [
      this.podSwitcher(),
      h(
        'div',
        { class: 'title-row' },
        h('h1', {}, hd.name, ' ', h('span', { class: 'namespace' }, hd.namespace)),
        // a deleted pod has no STATUS any more: its badge says so, the last one in its title
        hd.gone
          ? h('span', { class: 'status status-warn', 'data-testid': 'status', title: `Deleted. Its last kubectl STATUS: ${hd.status}` }, 'Deleted')
          : h('span', { class: `status status-${statusClass(hd.status)}`, 'data-testid': 'status', title: 'kubectl get pod: STATUS column' }, hd.status),
      ),
      hd.gone ? h('p', { class: 'banner banner-info', 'data-testid': 'gone' }, 'This pod has been deleted. The panel shows its last known state.') : null,
      hd.connectionLost !== undefined
        ? h('p', { class: 'banner banner-warn', role: 'status', 'data-testid': 'connection-lost' }, `The connection to the ${hd.connectionTo ?? 'cluster'} is lost (${hd.connectionLost}); retrying. The panel shows the pod as last seen.`)
        : null,
      hd.deletingAt !== undefined && !hd.gone
        ? h('p', { class: 'banner banner-warn' }, 'Deletion requested ', h('span', { 'data-fmt': 'age', 'data-since': hd.deletingAt }), ' ago: containers are being stopped.')
        : null,
      hd.reason ? h('p', { class: 'banner banner-warn' }, `${hd.reason}: ${hd.message ?? ''}`) : null,
      h(
        'dl',
        { class: 'facts' },
        field('Phase', hd.phase, 'phase'),
        field('Ready', hd.ready, 'ready'),
        field('Restarts', h('span', { 'data-fmt': 'restarts', 'data-count': hd.restarts, 'data-last': hd.lastRestartAt }), 'restarts'),
        // (a deleted pod's age stops at its deletion)
        field('Age', h('span', { 'data-fmt': 'age', 'data-since': hd.createdAt, 'data-until': hd.gone ? hd.goneAt : undefined }), 'age'),
        field('Node', hd.node || '<none>', 'node'),
        field('Pod IP', hd.podIP || '<none>', 'pod-ip'),
        field('Restart policy', hd.restartPolicy, 'restart-policy'),
        field('QoS', hd.qosClass || '—', 'qos'),
      ),
    ];
  }

  private stepBanner(m: PanelModel): Child {
    const waiting = m.debug.stepWaitingFor;
    if (!waiting) return null;
    const btn = h('vscode-button', { appearance: 'primary', 'data-testid': 'continue' }, 'Continue');
    on(btn, 'click', () => this.act('continueStep', { kind: 'continueStep' }));
    return h(
      'div',
      { class: 'banner banner-lab', role: 'status' },
      h('span', { class: 'tag tag-lab' }, 'lab feature'),
      h('p', {}, 'Step mode: the kubelet is waiting before it starts init container ', h('code', {}, waiting), '.'),
      h('p', { class: 'note' }, 'Step mode is a Pod Lab feature for learning. The real kubelet has no such mode: it starts each init container as soon as the previous one exits 0.'),
      btn,
      this.notice('continueStep'),
    );
  }

  /** What keeps the pod from starting (a missing ConfigMap or Secret, a failed mount), in a box each. */
  private noticeBoxes(m: PanelModel): Child {
    return (m.notices ?? []).map((n) => noticeBox(n));
  }

  /**
   * The timeline's drawing at the display clock (redrawn every second while the pod lives). The rows
   * that would be drawn as they are shown stay as they are.
   */
  private timelineSvg(m: PanelModel): SVGElement {
    const width = Math.max(360, (this.rootWidth ?? (this.root.clientWidth || 900)) - 8);
    const live = !m.header.gone;
    const clock = this.clock();
    const zoom = this.ui.timelineZoom ?? 'all';
    const dataEnd = Math.max(m.timeline.end, live ? clock : m.timeline.end);
    // The last minute's window moves in 5 s steps while the pod lives (the live axis grows in steps too).
    const windowEnd = live ? m.timeline.start + Math.ceil((dataEnd - m.timeline.start) / 5000) * 5000 : dataEnd;
    const range =
      zoom === 'first5s'
        ? { from: m.timeline.start, to: m.timeline.start + 5000 }
        : zoom === 'last60s'
          ? { from: Math.max(m.timeline.start, windowEnd - 60_000), to: windowEnd }
          : undefined;
    const shown = this.sections.get('timeline')?.querySelector('.timeline-wrap');
    return renderTimeline(m.timeline, clock, live, { width, labelWidth: 150, laneHeight: 26 }, range, (key, sig, build) => memo(shown, key, sig, build));
  }

  /** Redraws only the timeline's SVG (the clock moved, or the panel was resized); its buttons stay. */
  private redrawTimeline(): void {
    const wrap = this.sections.get('timeline')?.querySelector('.timeline-wrap');
    if (!this.model || !wrap) return this.render(['timeline']);
    morphChildren(wrap, this.timelineSvg(this.model));
  }

  /** The legend; `[probes, hooks, ready]`: whether the drawing has probe strips, hook runs, the Ready row. */
  private timelineLegend([probes, hooks, ready]: boolean[]): HTMLElement {
    return h(
      'p',
      { class: 'legend' },
      legend('running', 'running'),
      legend('succeeded', 'exited 0'),
      legend('failed', 'exited ≠ 0'),
      legend('backoff', 'crash-loop back-off'),
      legend('stepwait', 'step-mode wait (lab)'),
      legend('normal', 'Normal event'),
      legend('warning', 'Warning event'),
      probes ? [legend('probe-pass', 'probe passed'), legend('probe-fail', 'probe failed'), legend('verdict', 'verdict changed')] : null,
      hooks ? [legend('hook', 'hook ran'), legend('hook-fail', 'hook failed')] : null,
      ready ? [legend('ready-true', 'Ready True'), legend('ready-false', 'Ready False')] : null,
    );
  }

  private timeline(m: PanelModel): Child {
    const zoom = this.ui.timelineZoom ?? 'all';
    const zoomButton = (z: NonNullable<typeof this.ui.timelineZoom>, label: string) => {
      const b = h('vscode-button', { appearance: z === zoom ? 'primary' : 'secondary', 'data-zoom': z, 'aria-pressed': String(z === zoom) }, label);
      on(b, 'click', () => {
        this.ui.timelineZoom = z;
        this.save();
        this.render(['timeline']);
      });
      return b;
    };
    const shown = this.sections.get('timeline');
    const lanes = m.timeline.lanes;
    const legendFor = [lanes.some((l) => l.probes?.length), lanes.some((l) => l.marks?.some((k) => k.kind.startsWith('hook'))), !!m.timeline.ready?.length];
    return [
      memo(shown, 'timeline-head', zoom, () =>
        h('div', { class: 'timeline-head' }, h('h2', {}, 'Timeline'), zoomButton('all', 'Whole run'), zoomButton('first5s', 'First 5 s'), zoomButton('last60s', 'Last 60 s')),
      ),
      memo(shown, 'timeline-legend', JSON.stringify(legendFor), () => this.timelineLegend(legendFor)),
      h('div', { class: 'timeline-wrap' }, this.timelineSvg(m)),
    ];
  }

  private initDebug(m: PanelModel): Child {
    const failed = m.containers.filter((c) => c.failed);
    if (failed.length === 0) return null;
    return failed.map((c) => this.failedInitCard(c, m.debug.available));
  }

  /** `lab`: the engine is Pod Lab's (debug info available); on a real cluster the lab-only actions are not offered. */
  private failedInitCard(c: ContainerView, lab: boolean): Child {
    const st = c.state.kind === 'terminated' ? c.state : c.lastState.kind === 'terminated' ? c.lastState : undefined;
    const restartBtn = h('vscode-button', { appearance: 'secondary', 'data-testid': `restart-now-${c.name}` }, 'Restart now');
    on(restartBtn, 'click', () => this.act('restartNow', { kind: 'restartNow', container: c.name }));
    const shellBtn = h('vscode-button', { appearance: 'secondary', 'data-testid': `open-shell-${c.name}` }, 'Open Shell');
    on(shellBtn, 'click', () => this.act('openShell', { kind: 'openShell', container: c.name }));
    const attempts = c.attempts.slice().reverse();
    for (const a of attempts) if (a.state === 'exited' && !a.removed) this.ensureLogs(c.name, { which: 'id', containerId: a.containerId });
    return h(
      'article',
      { class: 'card card-failed', 'data-testid': `failed-init-${c.name}` },
      h(
        'h2',
        {},
        'Init container ',
        h('code', {}, c.name),
        ' failed',
        st ? h('span', { class: 'exit', 'data-testid': 'failed-exit-code' }, ` exit code ${st.exitCode}${st.reason ? ` (${st.reason})` : ''}`) : null,
      ),
      h(
        'p',
        { class: 'explain' },
        'Init containers run one at a time and must exit 0 before the next starts. With restartPolicy ',
        h('code', {}, 'Always'),
        ' or ',
        h('code', {}, 'OnFailure'),
        ' the kubelet restarts this one with a growing back-off (10s, 20s, 40s … 300s); the app containers wait.',
      ),
      c.backoff
        ? h(
            'p',
            { class: 'backoff', 'data-testid': `backoff-${c.name}` },
            h('span', { 'data-fmt': 'countdown', 'data-until': c.backoff.until }),
            h('span', { class: 'muted' }, ` (back-off ${Math.round(c.backoff.delayMs / 1000)}s, at ${clockTime(c.backoff.until)})`),
          )
        : null,
      h(
        'div',
        { class: 'actions' },
        lab ? restartBtn : null,
        lab ? h('span', { class: 'lab-note' }, h('span', { class: 'tag tag-lab' }, 'lab feature'), ' skips the back-off; the real kubelet cannot be told to.') : null,
        lab ? shellBtn : null,
        lab ? h('span', { class: 'muted' }, 'a shell in a copy of the failed container\'s filesystem (like kubectl debug --copy-to)') : null,
        lab ? null : h('span', { class: 'muted', 'data-testid': 'cluster-note' }, 'A real cluster: the back-off runs its course (no Restart now), and a copy of the exited container is a lab feature (kubectl debug --copy-to makes one on a cluster).'),
      ),
      this.notice('restartNow'),
      this.notice('openShell'),
      h('h3', {}, 'Command'),
      h('pre', { class: 'code', 'data-testid': 'command' }, commandText(c.command)),
      h('h3', {}, 'Args'),
      h('pre', { class: 'code', 'data-testid': 'args' }, argsText(c.command, c.args)),
      h('h3', {}, 'Environment'),
      envTable(c),
      h('h3', {}, 'Attempts'),
      h(
        'div',
        { class: 'attempts', 'data-testid': 'attempts' },
        attempts.length === 0 ? h('p', { class: 'muted' }, 'No attempts recorded by the engine.') : null,
        attempts.map((a, i) => {
          const key = `attempt:${a.containerId}`;
          const dur = a.startedAt !== undefined && a.finishedAt !== undefined ? preciseDuration(a.finishedAt - a.startedAt) : '';
          const details = h(
            'details',
            { class: 'attempt', 'data-key': key, 'data-attempt': a.attempt, 'data-exit-code': a.exitCode, 'data-removed': a.removed, open: this.isOpen(key, i === 0) },
            h(
              'summary',
              {},
              h('strong', {}, `#${a.attempt}`),
              ' ',
              h('code', { title: a.containerId }, shortId(a.containerId)),
              ' ',
              a.state === 'exited'
                ? h('span', { class: a.exitCode === 0 ? 'ok' : 'error' }, `exit code ${a.exitCode} ${a.reason ?? ''}`)
                : h('span', {}, a.state),
              h('span', { class: 'muted' }, ` started ${clockTime(a.startedAt ?? a.createdAt)}`, a.finishedAt !== undefined ? `, finished ${clockTime(a.finishedAt)}` : '', dur ? ` (${dur})` : ''),
            ),
            a.removed
              ? h('p', { class: 'muted removed' }, 'This instance has been removed (the runtime keeps only the current and the previous one), so its logs are gone.')
              : this.logBlock(c.name, { which: 'id', containerId: a.containerId }),
          );
          const initiallyOpen = (details as HTMLDetailsElement).open;
          // Only the user's toggles are remembered (the initial `open` fires a toggle event too).
          on(details, 'toggle', (e) => {
            const open = (e.currentTarget as HTMLDetailsElement).open;
            if (open !== initiallyOpen) this.setOpen(key, open);
          });
          return details;
        }),
      ),
    );
  }

  /** The containers table; a row (or its details) drawn from the values shown stays as it is. */
  private containers(m: PanelModel): Child {
    const shown = this.sections.get('containers');
    const groups: [string, ContainerView[]][] = [
      ['Init containers', m.containers.filter((c) => c.kind === 'init')],
      ['Sidecar containers', m.containers.filter((c) => c.kind === 'sidecar')],
      ['Containers', m.containers.filter((c) => c.kind === 'app')],
    ];
    return [
      h('h2', {}, 'Containers'),
      h(
        'table',
        { class: 'grid containers', 'data-testid': 'containers-table' },
        h(
          'thead',
          {},
          h('tr', {}, ['Name', 'Image', 'State', 'Reason', 'Exit code', 'Restarts', 'Started', 'Ready', 'Last state', ''].map((t) => h('th', {}, t))),
        ),
        groups
          .filter(([, list]) => list.length > 0)
          .map(([title, list]) =>
            h(
              'tbody',
              {},
              h('tr', { class: 'group' }, h('th', { colspan: 10 }, title)),
              list.flatMap((c) => [
                memo(shown, `container:${c.name}`, JSON.stringify(rowValues(c)), () => this.containerRow(c)),
                memo(shown, `details-row:${c.name}`, JSON.stringify([c.name, c.env, c.envFrom, c.probes, c.hooks, this.isOpen(`container:${c.name}`, false)]), () => this.containerDetails(c)),
              ]),
            ),
          ),
      ),
      this.probes(m),
    ];
  }

  /**
   * Under each container's row, folded: its environment (values as the container sees them and
   * their sources), its probes and its lifecycle hooks — where a learner looks for them.
   */
  private containerDetails(c: ContainerView): HTMLElement {
    const key = `container:${c.name}`;
    const details = h(
      'details',
      { class: 'container-details', 'data-testid': `container-details-${c.name}`, open: this.isOpen(key, false) },
      h('summary', {}, `Environment, probes and hooks of ${c.name}`),
      h('h4', {}, 'Environment'),
      envTable(c),
      h('h4', {}, 'Probes'),
      c.probes.length
        ? h('ul', { class: 'plain', 'data-testid': 'container-probes' }, c.probes.map((p) => h('li', {}, `${p.type}: `, h('code', {}, p.config), p.verdict ? h('span', { class: p.verdict === 'Failure' ? 'error' : 'ok' }, ` ${p.verdict}`) : null)))
        : h('p', { class: 'muted' }, '<none>'),
      h('h4', {}, 'Lifecycle hooks'),
      c.hooks.length
        ? h(
            'ul',
            { class: 'plain', 'data-testid': 'container-hooks' },
            c.hooks.map((k) =>
              h(
                'li',
                {},
                `${k.hook}: `,
                h('code', {}, k.handler),
                k.last
                  ? h(
                      'span',
                      { class: k.last.error ? 'error' : 'muted' },
                      ` — ran at ${clockTime(k.last.at)}${k.last.durationMs !== undefined ? ` (${preciseDuration(k.last.durationMs)})` : ', running'}${k.last.error ? `: ${k.last.error}` : ''}`,
                    )
                  : h('span', { class: 'muted' }, ' — not run yet'),
              ),
            ),
          )
        : h('p', { class: 'muted' }, '<none>'),
    );
    const initiallyOpen = (details as HTMLDetailsElement).open;
    on(details, 'toggle', (e) => {
      const open = (e.currentTarget as HTMLDetailsElement).open;
      if (open !== initiallyOpen) this.setOpen(key, open);
    });
    return h('tr', { class: 'details-row', 'data-key': `details-row:${c.name}`, 'data-details-for': c.name }, h('td', { colspan: 10 }, details));
  }

  /** Each container's probes: kubectl describe's line, the verdict and the flag it sets, and the latest run. */
  private probes(m: PanelModel): Child {
    const rows = m.containers.flatMap((c) => (c.probes ?? []).map((p) => ({ c, p })));
    if (rows.length === 0) return null;
    return [
      h('h3', {}, 'Probes'),
      h(
        'table',
        { class: 'grid probes', 'data-testid': 'probes' },
        h('thead', {}, h('tr', {}, ['Container', 'Probe', 'Configuration', 'Verdict', 'Last run'].map((t) => h('th', {}, t)))),
        h(
          'tbody',
          {},
          rows.map(({ c, p }) =>
            h(
              'tr',
              { 'data-container': c.name, 'data-probe': p.type },
              h('td', {}, h('code', {}, c.name)),
              h('td', {}, p.type),
              h('td', { 'data-col': 'config' }, h('code', {}, p.config)),
              h(
                'td',
                { 'data-col': 'verdict' },
                h('span', { class: p.verdict === 'Failure' ? 'error' : p.verdict === 'Success' ? 'ok' : 'muted', 'data-testid': 'verdict' }, p.verdict ?? 'no verdict yet'),
                p.flag ? h('div', { class: 'probe-flag', 'data-testid': 'flag' }, `${p.flag.name}: ${p.flag.value}`) : null,
              ),
              h('td', { 'data-col': 'last' }, probeLastRun(p)),
            ),
          ),
        ),
      ),
    ];
  }

  /** A container's row, built from rowValues(c) only. */
  private containerRow(c: ContainerView): HTMLElement {
    const reason = c.state.kind === 'waiting' || c.state.kind === 'terminated' ? c.state.reason : '';
    const exit = c.state.kind === 'terminated' ? String(c.state.exitCode) : '';
    const last = c.lastState.kind === 'terminated' ? `${c.lastState.reason} (exit ${c.lastState.exitCode})` : c.lastState.kind === 'none' ? '' : stateText(c.lastState);
    const logsBtn = h('vscode-button', { appearance: 'icon', title: `Logs of ${c.name}`, 'aria-label': `Logs of ${c.name}` }, '≡');
    on(logsBtn, 'click', () => {
      this.ui.logsContainer = c.name;
      this.ui.logsAttempt = 'current';
      this.save();
      this.render(['logs']);
      this.sections.get('logs')?.scrollIntoView({ block: 'nearest' });
    });
    const shellBtn = h('vscode-button', { appearance: 'icon', title: `Open Shell in ${c.name}`, 'aria-label': `Open Shell in ${c.name}` }, '>_');
    on(shellBtn, 'click', () => this.act('openShell', { kind: 'openShell', container: c.name }));
    return h(
      'tr',
      { 'data-key': `container:${c.name}`, 'data-container': c.name, 'data-kind': c.kind, class: c.failed ? 'failed' : '' },
      h('td', {}, h('code', {}, c.name), ' ', c.kind !== 'app' ? h('span', { class: `tag tag-${c.kind}` }, c.kind) : null),
      h('td', { class: 'image' }, c.image),
      h('td', { 'data-col': 'state', class: `state-${c.state.kind}` }, stateText(c.state)),
      h('td', { 'data-col': 'reason', class: /BackOff|Err|Error/.test(reason) ? 'error' : '', title: c.state.kind === 'waiting' ? c.state.message : null }, reason),
      h('td', { 'data-col': 'exit-code', class: exit && exit !== '0' ? 'error' : '' }, exit),
      h('td', { 'data-col': 'restarts' }, String(c.restartCount)),
      h('td', { 'data-col': 'started' }, c.started === undefined ? '—' : String(c.started)),
      h('td', { 'data-col': 'ready' }, String(c.ready)),
      h('td', { 'data-col': 'last-state', class: 'muted' }, last),
      h('td', { class: 'row-actions' }, logsBtn, shellBtn),
    );
  }

  private conditions(m: PanelModel): Child {
    return [
      h('h2', {}, 'Conditions'),
      h(
        'table',
        { class: 'grid conditions', 'data-testid': 'conditions-table' },
        h('thead', {}, h('tr', {}, ['Type', 'Status', 'Reason', 'Message', 'Last transition'].map((t) => h('th', {}, t)))),
        h(
          'tbody',
          {},
          m.conditions.map((c) =>
            h(
              'tr',
              { 'data-condition': c.type },
              h('td', {}, c.type),
              h('td', { 'data-col': 'status', class: c.status === 'True' ? 'ok' : c.status === 'False' ? 'error' : 'muted' }, c.status || '—'),
              h('td', { 'data-col': 'reason' }, c.reason),
              h('td', { 'data-col': 'message' }, c.message),
              h('td', { 'data-col': 'transition' }, c.lastTransitionAt !== undefined ? [clockTime(c.lastTransitionAt).slice(0, 8), ' (', h('span', { 'data-fmt': 'age', 'data-since': c.lastTransitionAt }), ' ago)'] : ''),
            ),
          ),
        ),
      ),
    ];
  }

  private events(m: PanelModel): Child {
    return [
      h('h2', {}, 'Events ', h('span', { class: 'count-badge' }, String(m.events.length))),
      m.events.length === 0
        ? h('p', { class: 'muted' }, '<none>')
        : h(
            'table',
            { class: 'grid events', 'data-testid': 'events-table' },
            h('thead', {}, h('tr', {}, ['Type', 'Reason', 'Age', 'From', 'Message'].map((t) => h('th', {}, t)))),
            h(
              'tbody',
              {},
              m.events.map((e) =>
                h(
                  'tr',
                  { 'data-key': `event:${e.key}`, 'data-reason': e.reason, 'data-type': e.type, title: e.fieldPath },
                  h('td', { class: e.type === 'Warning' ? 'warning' : '' }, e.type),
                  h('td', {}, e.reason),
                  h('td', { 'data-fmt': 'event-age', 'data-first': e.firstAt, 'data-last': e.lastAt, 'data-count': e.count }),
                  h('td', {}, e.source),
                  h('td', { class: 'message' }, e.message),
                ),
              ),
            ),
          ),
    ];
  }

  /** What the logs pane shows: the container, the attempt choices and the chosen one. */
  private logsSelection(m: PanelModel): LogsSelection | undefined {
    if (m.containers.length === 0) return undefined;
    const names = m.containers.map((c) => c.name);
    const name = this.ui.logsContainer && names.includes(this.ui.logsContainer) ? this.ui.logsContainer : (defaultLogsContainer(m.containers) ?? names[0]!);
    const c = m.containers.find((x) => x.name === name)!;
    const attemptKeyNow = this.ui.logsAttempt ?? 'current';
    const options: [string, string][] = [
      ['current', 'current (follow)'],
      ['previous', 'previous (--previous)'],
      ...c.attempts
        .filter((a) => !a.removed)
        .reverse()
        .map((a): [string, string] => [a.containerId, `#${a.attempt} ${shortId(a.containerId)}${a.state === 'exited' ? ` exit ${a.exitCode}` : ` ${a.state}`}`]),
    ];
    const selKey = options.some(([k]) => k === attemptKeyNow) ? attemptKeyNow : 'current';
    return { names, name, c, options, selKey, ref: attemptFromKey(selKey), timestamps: this.ui.logsTimestamps === true };
  }

  /** Renders the logs pane, or keeps it in place (its filter, focus and scroll) when only its data changed. */
  private renderLogs(el: HTMLElement, m: PanelModel): boolean {
    const sel = this.logsSelection(m);
    const sig = sel ? JSON.stringify([sel.names, sel.name, sel.options, sel.selKey, sel.timestamps]) : '';
    if (sel && sig === this.logsSig && this.logView?.isConnected && el.contains(this.logView)) {
      this.syncLogs(m, sel);
      this.updateLogView();
      return true;
    }
    // Keyboard users keep their place: the control that had focus has it again after the rebuild.
    // Only while the panel has the focus: the frame remembers its last focused element after the
    // user moved on, and focusing it would take the focus from the palette or the editor.
    const active = document.hasFocus() && document.activeElement instanceof HTMLElement && el.contains(document.activeElement) ? document.activeElement.dataset.testid : undefined;
    this.logsSig = sig;
    if (!sel) {
      this.stopFollow();
      this.logView = undefined;
      replaceChildren(el);
      return false;
    }
    replaceChildren(el, this.logsPane(m, sel));
    if (active) el.querySelector<HTMLElement>(`[data-testid="${active}"]`)?.focus();
    return false;
  }

  private logsPane(m: PanelModel, sel: LogsSelection): Child {
    const { names, name, options, selKey, ref, timestamps } = sel;
    const containerSel = h(
      'vscode-dropdown',
      { 'data-testid': 'logs-container', 'aria-label': 'Container' },
      names.map((n) => h('vscode-option', { value: n, selected: n === name }, n)),
    );
    on(containerSel, 'change', () => {
      this.ui.logsContainer = (containerSel as unknown as { value: string }).value;
      this.ui.logsAttempt = 'current';
      this.save();
      this.render(['logs']);
    });
    const attemptSel = h(
      'vscode-dropdown',
      { 'data-testid': 'logs-attempt', 'aria-label': 'Attempt' },
      options.map(([k, label]) => h('vscode-option', { value: k, selected: k === selKey }, label)),
    );
    on(attemptSel, 'change', () => {
      this.ui.logsAttempt = (attemptSel as unknown as { value: string }).value;
      this.save();
      this.render(['logs']);
    });
    // The current instance is followed (streamed); a previous one or an attempt by id is one read, refreshed on demand.
    let refresh: HTMLElement | null = null;
    if (ref.which !== 'current') {
      refresh = h('vscode-button', { appearance: 'secondary', 'data-testid': 'logs-refresh' }, 'Refresh');
      on(refresh, 'click', () => this.fetchLogs(name, ref, timestamps));
    }
    const tsBox = h('input', {
      type: 'checkbox',
      'data-testid': 'logs-timestamps',
      checked: timestamps,
      title: 'Prefix each line with the runtime timestamp (kubectl logs --timestamps)',
    }) as HTMLInputElement;
    on(tsBox, 'change', () => {
      this.ui.logsTimestamps = tsBox.checked;
      this.save();
      this.render(['logs']);
    });
    const wrapBox = h('input', { type: 'checkbox', 'data-testid': 'logs-wrap', checked: this.ui.logsWrap !== false, title: 'Wrap long lines' }) as HTMLInputElement;
    on(wrapBox, 'change', () => {
      this.ui.logsWrap = wrapBox.checked;
      this.save();
      this.updateLogView();
    });
    const filter = h('input', {
      type: 'search',
      class: 'logs-filter',
      'data-testid': 'logs-filter',
      placeholder: 'Filter lines',
      'aria-label': 'Filter lines (case-insensitive)',
      spellcheck: 'false',
      autocomplete: 'off',
    }) as HTMLInputElement;
    filter.value = this.logFilter;
    on(filter, 'input', () => {
      this.logFilter = filter.value;
      this.updateLogView();
    });
    on<KeyboardEvent>(filter, 'keydown', (e) => {
      if (e.key === 'Escape' && filter.value !== '') {
        e.preventDefault();
        e.stopPropagation();
        filter.value = '';
        this.logFilter = '';
        this.updateLogView();
      }
    });
    const view = h(
      'div',
      { class: 'log log-view', 'data-testid': 'logs-view' },
      h('p', { class: 'muted log-status', 'data-testid': 'logs-status', role: 'status', 'aria-live': 'polite', hidden: true }),
      h('p', { class: 'muted log-dropped', 'data-testid': 'logs-dropped', hidden: true }),
      h('p', { class: 'log-message', 'data-slot': 'message', hidden: true }),
      h('pre', { class: 'log-lines', 'data-testid': 'logs-lines', tabindex: '0', 'aria-label': `Log of ${name}`, hidden: true }),
    );
    this.logView = view;
    this.syncLogs(m, sel);
    this.updateLogView();
    return [
      h('h2', {}, 'Logs'),
      h('div', { class: 'logs-toolbar' }, h('label', {}, 'Container '), containerSel, h('label', {}, ' Attempt '), attemptSel, refresh),
      h(
        'div',
        { class: 'logs-toolbar logs-options', role: 'group', 'aria-label': 'Log view options' },
        h('label', { class: 'toggle' }, tsBox, ' Timestamps'),
        h('label', { class: 'toggle' }, wrapBox, ' Wrap'),
        filter,
        h('span', { class: 'muted log-count', 'data-testid': 'logs-count', role: 'status', hidden: true }),
      ),
      view,
    ];
  }
  private readonly logStamps = new Map<string, string>();

  /** Opens, keeps or closes the followed stream (or reads a previous instance) for what the pane shows. */
  private syncLogs(m: PanelModel, sel: LogsSelection): void {
    const { c, ref, timestamps } = sel;
    if (ref.which === 'current') {
      this.logSource = { kind: 'follow' };
      this.syncFollow(m, c, timestamps);
      return;
    }
    this.stopFollow();
    const k = logKey(c.name, ref, timestamps);
    this.logSource = { kind: 'once', key: k };
    // The previous instance changes when the container restarts: read it again then.
    // (a waiting reason of its own: the server's refusal names it, and says another when it changes)
    const stamp = `${c.containerID}|${c.state.kind}|${c.state.kind === 'waiting' ? c.state.reason : ''}|${c.restartCount}`;
    if (ref.which === 'previous' && this.logStamps.get(k) !== stamp && !m.header.gone) {
      this.logStamps.set(k, stamp);
      this.fetchLogs(c.name, ref, timestamps);
    } else {
      this.ensureLogs(c.name, ref, timestamps);
    }
  }

  /**
   * Follows the container's current instance: a new stream when another container, the timestamps
   * option or a new instance (container id) is shown, or to retry after an error once the container
   * changed (its state, its waiting reason, its restarts). A stream that ended stays as it is until
   * a new instance starts.
   */
  private syncFollow(m: PanelModel, c: ContainerView, timestamps: boolean): void {
    // (a waiting reason of its own: the server's refusal names it, and says another when it changes)
    const stamp = `${c.containerID}|${c.state.kind}|${c.state.kind === 'waiting' ? c.state.reason : ''}|${c.restartCount}`;
    const f = this.follow;
    // The host closes a reloaded webview's streams on `ready`: open none before it has answered.
    if (!this.connected || m.header.gone) return;
    const reopen =
      !f || f.container !== c.name || f.timestamps !== timestamps || f.containerID !== c.containerID || (f.status === 'error' && f.stamp !== stamp);
    if (!reopen) {
      f.stamp = stamp;
      return;
    }
    this.stopFollow();
    const token = ++this.followToken;
    this.follow = { token, container: c.name, timestamps, containerID: c.containerID, stamp, buf: { lines: [], dropped: 0 }, status: 'opening' };
    this.request<'followLogs'>({ kind: 'followLogs', container: c.name, attempt: { which: 'current' }, timestamps, tail: LOG_LINE_CAP }).then(
      (r) => {
        const now = this.follow;
        if (!now || now.token !== token) {
          // Superseded while it opened: the host may close it.
          this.post({ type: 'stopLogs', stream: r.stream });
          return;
        }
        now.stream = r.stream;
        if (now.status === 'opening') now.status = 'live';
        this.updateLogView();
      },
      (e: Error) => {
        const now = this.follow;
        if (!now || now.token !== token) return;
        now.status = 'error';
        now.error = e.message;
        this.updateLogView();
      },
    );
  }

  /** Closes the followed stream (the host stops reading the container's log). */
  private stopFollow(): void {
    const f = this.follow;
    this.follow = undefined;
    if (f?.stream !== undefined && f.status === 'live') this.post({ type: 'stopLogs', stream: f.stream });
  }

  private onLogChunk(m: Extract<HostToWebview, { type: 'logChunk' }>): void {
    const f = this.follow;
    if (!f || f.stream !== m.stream) return;
    if (m.lines.length) f.buf = appendLogLines(f.buf, m.lines);
    if (m.ended) f.status = 'ended';
    this.updateLogView();
  }

  /** Fills the pane's view from its source (the followed stream or a one-shot read), filtered and wrapped as chosen. */
  private updateLogView(): void {
    const view = this.logView;
    const m = this.model;
    if (!view || !m) return;
    const status = view.querySelector<HTMLElement>('[data-testid=logs-status]')!;
    const dropped = view.querySelector<HTMLElement>('[data-testid=logs-dropped]')!;
    const message = view.querySelector<HTMLElement>('[data-slot=message]')!;
    const pre = view.querySelector<HTMLElement>('pre.log-lines')!;
    const count = view.parentElement?.querySelector<HTMLElement>('[data-testid=logs-count]');
    const show = (el: HTMLElement, text: string, cls?: string) => {
      el.textContent = text;
      el.hidden = text === '';
      if (cls !== undefined) el.className = cls;
      if (cls !== undefined) el.removeAttribute('data-testid');
    };
    let lines: string[] | undefined;
    let loading = false;
    let error: string | undefined;
    let statusText = '';
    let statusState = '';
    let droppedCount = 0;
    const src = this.logSource;
    if (src?.kind === 'follow') {
      const f = this.follow;
      if (!f || f.status === 'opening') loading = true;
      else if (f.status === 'error') error = f.error;
      if (f && (f.status !== 'opening' || f.buf.lines.length)) lines = f.buf.lines;
      if (f?.status === 'error' && f.buf.lines.length === 0) lines = undefined;
      droppedCount = f?.buf.dropped ?? 0;
      if (f?.status === 'live') {
        statusText = `Following ${f.container} (live)`;
        statusState = 'live';
      } else if (f?.status === 'ended') {
        const c = m.containers.find((x) => x.name === f.container);
        const done = [c?.state, c?.lastState].find(
          (s): s is Extract<StateView, { kind: 'terminated' }> => s?.kind === 'terminated' && (f.containerID === '' || s.containerId === f.containerID),
        );
        statusText = streamEndText(done);
        statusState = 'ended';
      }
    } else if (src?.kind === 'once') {
      const e = this.logs.get(src.key);
      loading = !e || (e.loading && !e.lines);
      lines = e?.lines;
      error = e?.error;
    }
    pre.classList.toggle('nowrap', this.ui.logsWrap === false);
    view.dataset.state = statusState || (loading ? 'loading' : error ? 'error' : 'read');
    status.textContent = statusText;
    status.hidden = statusText === '';
    status.classList.toggle('ended', statusState === 'ended');
    dropped.textContent = droppedCount ? droppedText(droppedCount) : '';
    dropped.hidden = droppedCount === 0;
    const gone = m.header.gone && (!lines || lines.length === 0) && (error !== undefined || loading || src?.kind === 'follow');
    if (gone) {
      // The pod is gone, and its containers with it: say so, not the API's `pods "x" not found`.
      show(message, 'This pod was deleted: its containers and their logs were removed with it.', 'muted log-message');
      message.dataset.testid = 'logs-gone';
    } else if (error !== undefined && !lines) {
      show(message, error, 'error log-message');
      message.dataset.testid = 'logs-error';
    } else if (loading && !lines) {
      show(message, 'loading logs…', 'muted log-message loading-logs');
    } else {
      show(message, '', 'log-message');
    }
    if (!lines || gone) {
      pre.hidden = true;
      pre.textContent = '';
      if (count) show(count, '');
      return;
    }
    // Unchanged lines and filter (a header or container update): the log stays as it is.
    const live = statusState === 'live';
    if (!pre.hidden && this.logRendered?.pre === pre && this.logRendered.lines === lines && this.logRendered.filter === this.logFilter && this.logRendered.live === live) return;
    this.logRendered = { pre, lines, filter: this.logFilter, live };
    const shown = filterLogLines(lines, this.logFilter);
    if (count) count.textContent = this.logFilter ? logCountText(shown.length, lines.length) : '';
    if (count) count.hidden = !this.logFilter;
    const atEnd = pre.hidden || pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 8;
    pre.hidden = false;
    pre.classList.toggle('empty', shown.length === 0);
    // A live stream with nothing yet may be about to deliver the container's earlier lines.
    if (shown.length && this.logFilter) {
      // the filter's matches marked in each line (the theme's find-match colours)
      const parts: (string | HTMLElement)[] = [];
      shown.forEach((line, i) => {
        if (i) parts.push('\n');
        for (const seg of matchSegments(line, this.logFilter)) parts.push(seg.match ? h('mark', {}, seg.text) : seg.text);
      });
      replaceChildren(pre, ...parts);
    } else pre.textContent = shown.length ? shown.join('\n') : lines.length ? `(no line contains "${this.logFilter}")` : live ? '(no output yet)' : '(no output)';
    // Like a terminal: new lines scroll into view unless the reader scrolled up.
    if (src?.kind === 'follow' && atEnd) pre.scrollTop = pre.scrollHeight;
  }

  // -------------------------------------------------------------------------------------------
  // Logs, actions, notices

  private logBlock(container: string, ref: AttemptRef): HTMLElement {
    const k = logKey(container, ref);
    const el = h('div', { class: 'log', 'data-log-key': k });
    this.fillLog(el, this.logs.get(k));
    return el;
  }

  private fillLog(el: HTMLElement, entry: LogEntry | undefined): void {
    if (!entry || (entry.loading && !entry.lines)) replaceChildren(el, h('span', { class: 'muted loading-logs' }, 'loading logs…'));
    else if (entry.error && this.model?.header.gone && entry.lines === undefined)
      // The pod is gone, and its containers with it: say so, not the API's `pods "x" not found`.
      replaceChildren(el, h('p', { class: 'muted', 'data-testid': 'logs-gone' }, 'This pod was deleted: its containers and their logs were removed with it.'));
    else if (entry.error) replaceChildren(el, h('p', { class: 'error' }, entry.error));
    else replaceChildren(el, h('pre', { class: 'log-lines' }, entry.lines!.length ? entry.lines!.join('\n') : '(no output)'));
  }

  private ensureLogs(container: string, ref: AttemptRef, timestamps = false): void {
    if (!this.logs.has(logKey(container, ref, timestamps))) this.fetchLogs(container, ref, timestamps);
  }

  private fetchLogs(container: string, ref: AttemptRef, timestamps = false): void {
    const k = logKey(container, ref, timestamps);
    const prev = this.logs.get(k);
    this.logs.set(k, { loading: true, lines: prev?.lines });
    if (this.logSource?.kind === 'once' && this.logSource.key === k) this.updateLogView();
    const body: Extract<RequestBody, { kind: 'logs' }> = { kind: 'logs', container, attempt: ref, tail: 500 };
    if (timestamps) body.timestamps = true;
    this.request<'logs'>(body).then(
      (r) => this.setLogs(k, { loading: false, lines: r.lines }),
      (e: Error) => this.setLogs(k, { loading: false, error: e.message }),
    );
  }

  private setLogs(k: string, entry: LogEntry): void {
    this.logs.set(k, entry);
    this.root.querySelectorAll<HTMLElement>('[data-log-key]').forEach((el) => {
      if (el.dataset.logKey === k) this.fillLog(el, entry);
    });
    if (this.logSource?.kind === 'once' && this.logSource.key === k) this.updateLogView();
  }

  private act<K extends 'restartNow' | 'openShell' | 'continueStep'>(kind: K, body: Extract<RequestBody, { kind: K }>): void {
    this.setNotice(kind, 'sent…');
    this.request<K>(body).then(
      () => this.setNotice(kind, ''),
      (e: Error) => this.setNotice(kind, e.message),
    );
  }

  private notice(kind: string): HTMLElement {
    const text = this.notices.get(kind) ?? '';
    return h('p', { class: 'notice', 'data-notice': kind, hidden: text === '' }, text);
  }

  private setNotice(kind: string, text: string): void {
    if (text) this.notices.set(kind, text);
    else this.notices.delete(kind);
    this.root.querySelectorAll<HTMLElement>(`[data-notice="${kind}"]`).forEach((el) => {
      el.textContent = text;
      el.hidden = text === '';
    });
  }

  private isOpen(key: string, dflt: boolean): boolean {
    const open = this.ui.open;
    if (open === undefined) return dflt;
    return open.includes(key) || (dflt && !open.includes(`!${key}`));
  }

  private setOpen(key: string, open: boolean): void {
    const list = (this.ui.open ?? []).filter((k) => k !== key && k !== `!${key}`);
    list.push(open ? key : `!${key}`);
    this.ui.open = list;
    this.save();
  }
}

/**
 * Gives each cell of the section's tables its column's name (`data-label`), so that a narrow panel
 * can show each row as a card of labelled lines (styles.css) instead of a table that overflows.
 */
function labelCells(root: Element): void {
  for (const table of Array.from(root.querySelectorAll('table.grid'))) {
    const names = Array.from(table.querySelectorAll(':scope > thead th')).map((th) => th.textContent?.trim() ?? '');
    table.classList.add('cards');
    for (const row of Array.from(table.querySelectorAll(':scope > tbody > tr, :scope > tr'))) {
      const cells = Array.from(row.children);
      if (cells.length === 1 && cells[0]!.hasAttribute('colspan')) continue;
      cells.forEach((cell, i) => cell.setAttribute('data-label', names[i] ?? ''));
    }
  }
}

function logKey(container: string, ref: AttemptRef, timestamps = false): string {
  return `${container}|${attemptKey(ref)}${timestamps ? '|ts' : ''}`;
}

/** The latest run of a probe: result, time and duration, the run toward a verdict, the output. */
function probeLastRun(p: ProbeView): Child {
  if (!p.last) return h('span', { class: 'muted' }, 'not run yet');
  const failed = p.last.error || p.last.result === 'failure' || p.last.result === 'unknown';
  return [
    h('span', { class: failed ? 'error' : 'ok', 'data-testid': 'result' }, p.last.error ? `${p.last.result} (prober error)` : p.last.result),
    h('span', { class: 'muted' }, ` at ${clockTime(p.last.at)}, took ${preciseDuration(p.last.durationMs)}`),
    p.streak ? h('div', { class: 'probe-streak', 'data-testid': 'streak' }, streakText(p.streak, p.verdict)) : null,
    h('div', { class: 'muted', 'data-testid': 'seen' }, `${p.failures} of ${p.runs} runs seen failed`),
    p.last.output ? h('pre', { class: 'code probe-output', 'data-testid': 'output' }, p.last.output) : null,
  ];
}

/** A notice box: what is wrong, the kubelet's words, the missing object, where the pod refers to it, and what happens next. */
function noticeBox(n: NoticeView): HTMLElement {
  return h(
    'article',
    { class: 'card card-notice', role: 'alert', 'data-testid': `notice-${n.key}`, 'data-kind': n.kind },
    h('h2', {}, n.title),
    h('pre', { class: 'code notice-message', 'data-testid': 'notice-message' }, n.message),
    n.missing
      ? h(
          'p',
          { class: 'notice-missing', 'data-testid': 'notice-missing' },
          'Missing: ',
          h('strong', {}, `${n.missing.kind} ${n.missing.name}`),
          ` in namespace ${n.missing.namespace}`,
          n.missing.key !== undefined ? [' (key ', h('code', {}, n.missing.key), ')'] : null,
        )
      : null,
    n.references.length ? h('p', { class: 'notice-refs', 'data-testid': 'notice-refs' }, 'Referenced by: ', n.references.map((r, i) => [i ? ', ' : '', h('code', {}, r)])) : null,
    h('p', { class: 'explain' }, n.explain),
    n.event
      ? h(
          'p',
          { class: 'muted', 'data-testid': 'notice-event' },
          `Warning ${n.event.reason} ×${n.event.count}`,
          n.event.lastAt !== undefined ? [', last ', h('span', { 'data-fmt': 'age', 'data-since': n.event.lastAt }), ' ago'] : null,
        )
      : null,
  );
}

function legend(cls: string, label: string): HTMLElement {
  return h('span', { class: `legend-item legend-${cls}` }, h('span', { class: 'swatch' }), label);
}

/** What a container's row in the table shows. */
function rowValues(c: ContainerView): unknown[] {
  return [c.name, c.kind, c.failed, c.image, c.state, c.restartCount, c.started, c.ready, c.lastState];
}

/** A container's environment: each variable with its value as the container sees it and where it comes from (Secret values masked until clicked). */
function envTable(c: ContainerView): Child {
  return c.env.length || c.envFrom.length
        ? h(
            'table',
            { class: 'grid env', 'data-testid': 'env' },
            h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th', {}, 'Value'))),
            h(
              'tbody',
              {},
              // kubectl describe's `Environment Variables from:` lines first, each across the table
              // (a row of its own, so a narrow panel's cards do not label it as a variable)
              c.envFrom.map((f) => h('tr', { class: 'env-from' }, h('td', { colspan: 2 }, h('span', { class: 'muted' }, 'Environment variables from: '), h('code', {}, f)))),
              c.env.map((e) =>
                h(
                  'tr',
                  {},
                  h('td', {}, h('code', {}, e.name)),
                  h(
                    'td',
                    {},
                    e.value === undefined ? null : e.secret ? secretValue(e.value) : h('code', {}, e.value),
                    e.source ? h('span', { class: 'muted' }, ` ${e.source}`) : null,
                    e.error ? h('span', { class: 'env-error', 'data-testid': 'env-error' }, ` ${e.error}`) : null,
                  ),
                ),
              ),
            ),
          )
        : h('p', { class: 'muted' }, '<none>');
}

/** A Secret's value: masked until clicked (and masked again on the next click). */
function secretValue(value: string): HTMLElement {
  const el = h('code', { class: 'secret', title: 'From a Secret: click to show', 'data-testid': 'env-secret', tabindex: '0' }, '••••••');
  // The element shown may be an older one the panel kept (see morphInto): it is the event's.
  const toggle = (e: Event) => {
    const code = e.currentTarget as HTMLElement;
    const reveal = code.dataset.shown === undefined;
    code.textContent = reveal ? value : '••••••';
    code.title = reveal ? 'From a Secret: click to hide' : 'From a Secret: click to show';
    if (reveal) code.dataset.shown = '';
    else delete code.dataset.shown;
  };
  on(el, 'click', toggle);
  on<KeyboardEvent>(el, 'keydown', (ev) => {
    if (ev.key === 'Enter' || ev.key === ' ') toggle(ev);
  });
  return el;
}
