// The README's screenshots (docs/*.png) are the panel as it renders now: each is drawn here from a
// recorded pod, on a paused clock (so ages, countdowns and the timeline's end are the same every
// run), and compared with the file in docs/ pixel by pixel. A layout change that the README's
// pictures do not show fails here; `npm run docs:screenshots` (PODLAB_UPDATE_DOCS=1) writes the
// new pictures into docs/ instead.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { replay } from '../../src/extension/panel/recording.js';
import { recordedStream } from '../support/fixtures.js';
import { ARTIFACTS, bundleWebview, launch, openPanel, ROOT } from './harness.js';
import type { ThemeName } from './themes.js';

const UPDATE = process.env.PODLAB_UPDATE_DOCS === '1';
/** A pixel differs when a channel moves by more than this (antialiasing noise stays under it). */
const CHANNEL_TOLERANCE = 48;
/** The share of differing pixels a picture may have and still be the panel as it renders now. */
const MAX_DIFFERING = 0.005;

interface DocShot {
  file: string;
  stream: string;
  theme: ThemeName;
  width: number;
  /** The page's height, for a picture of the top of the panel; undefined: the whole page. */
  height?: number;
  /** How long after the pod's last update the picture is taken. */
  afterMs?: number;
}

const SHOTS: DocShot[] = [
  { file: 'panel-failing-init.png', stream: 'failing-init', theme: 'dark', width: 1000, height: 1150 },
  { file: 'panel-two-containers.png', stream: 'two-containers', theme: 'light', width: 1000, height: 800, afterMs: 5000 },
  { file: 'panel-narrow.png', stream: 'failing-init', theme: 'dark', width: 600 },
];

let browser: Browser;
let script: string;
before(async () => {
  script = await bundleWebview();
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The panel of a recorded pod, drawn after its last update, with the logs it asks for answered. */
async function draw(shot: DocShot): Promise<Buffer> {
  const stream = recordedStream(shot.stream);
  const msgs = replay(stream);
  const start = msgs[0]!.at;
  const p = await openPanel(browser, script, { title: `${stream.namespace}/${stream.name}`, theme: shot.theme, width: shot.width, clockAt: start });
  try {
    await p.page.setViewportSize({ width: shot.width, height: shot.height ?? 900 });
    p.serveRequests(stream);
    let now = start;
    for (const { at, message } of msgs) {
      now = Math.max(now + 40, at);
      await p.page.clock.pauseAt(now);
      await p.send(message);
      await p.page.clock.runFor(40);
    }
    const last = msgs.at(-1)!.message;
    await p.waitForSeq(last.type === 'snapshot' || last.type === 'patch' ? last.seq : 0);
    // the logs the panel asked for arrive (answered from the recording), each drawn in a frame
    const logsShown = () => p.page.evaluate(() => Array.from(document.querySelectorAll('pre.log-lines')).every((pre) => (pre.textContent ?? '').trim() !== ''));
    for (let i = 0; i < 100 && !(await logsShown()); i++) {
      await new Promise((r) => setTimeout(r, 20));
      await p.page.clock.runFor(40);
    }
    assert.ok(await logsShown(), 'the logs the panel asked for were answered and drawn');
    await p.page.clock.runFor(200 + (shot.afterMs ?? 0));
    await p.page.evaluate(() => {
      const style = document.createElement('style');
      style.nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? '';
      style.textContent = '* { content-visibility: visible !important; } * { caret-color: transparent !important; }';
      document.head.appendChild(style);
    });
    assert.deepEqual(await p.problems(), []);
    return await p.page.screenshot({ fullPage: shot.height === undefined, animations: 'disabled' });
  } finally {
    await p.close();
  }
}

/** How two PNGs differ, read in the browser: their sizes, and how many pixels differ beyond the tolerance. */
async function compare(a: Buffer, b: Buffer): Promise<{ size: [string, string]; differing: number; total: number }> {
  const page = await browser.newPage();
  try {
    // (a string, not a function: the test loader's transforms must not leak into the page)
    return (await page.evaluate(`(async () => {
      const load = async (b64) => {
        const img = new Image();
        img.src = 'data:image/png;base64,' + b64;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.naturalWidth;
        c.height = img.naturalHeight;
        const g = c.getContext('2d');
        g.drawImage(img, 0, 0);
        return g.getImageData(0, 0, c.width, c.height);
      };
      const p = await load(${JSON.stringify(a.toString('base64'))});
      const q = await load(${JSON.stringify(b.toString('base64'))});
      const size = [p.width + '×' + p.height, q.width + '×' + q.height];
      if (p.width !== q.width || p.height !== q.height) return { size, differing: p.width * p.height, total: p.width * p.height };
      let differing = 0;
      for (let i = 0; i < p.data.length; i += 4) {
        for (let k = 0; k < 4; k++) {
          if (Math.abs(p.data[i + k] - q.data[i + k]) > ${CHANNEL_TOLERANCE}) {
            differing++;
            break;
          }
        }
      }
      return { size, differing, total: p.width * p.height };
    })()`)) as { size: [string, string]; differing: number; total: number };
  } finally {
    await page.close();
  }
}

describe("the README's screenshots are the panel as it renders now", () => {
  for (const shot of SHOTS) {
    test(`docs/${shot.file}: the ${shot.stream} pod at ${shot.width} px in the ${shot.theme} theme`, async () => {
      const drawn = await draw(shot);
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(join(ARTIFACTS, `docs-${shot.file}`), drawn);
      const target = join(ROOT, 'docs', shot.file);
      if (UPDATE) {
        writeFileSync(target, drawn);
        return;
      }
      assert.ok(existsSync(target), `docs/${shot.file} is missing: npm run docs:screenshots writes it`);
      const d = await compare(readFileSync(target), drawn);
      assert.ok(
        d.size[0] === d.size[1] && d.differing / d.total <= MAX_DIFFERING,
        `docs/${shot.file} is not the panel as it renders now (${d.size[0]} against ${d.size[1]} drawn; ${((100 * d.differing) / d.total).toFixed(2)} % of the pixels differ, at most ${100 * MAX_DIFFERING} % may): npm run docs:screenshots updates it (the drawing is in .test-artifacts/docs-${shot.file})`,
      );
    });
  }

  test('two drawings of the same pod are the same picture (the comparison is not noise)', async () => {
    const shot = SHOTS[1]!;
    const [a, b] = [await draw(shot), await draw(shot)];
    const d = await compare(a, b);
    assert.deepEqual(d.size[0], d.size[1]);
    assert.equal(d.differing, 0);
  });

  test('the comparison sees another pod drawn at the same size', async () => {
    const d = await compare(await draw({ ...SHOTS[1]!, theme: 'dark' }), await draw({ ...SHOTS[1]!, stream: 'failing-init', theme: 'dark' }));
    assert.equal(d.size[0], d.size[1]);
    assert.ok(d.differing / d.total > MAX_DIFFERING, JSON.stringify(d));
  });
});
