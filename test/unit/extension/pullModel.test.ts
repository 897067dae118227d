import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pullFraction, pullMessage, type Layer } from '../../../src/extension/pullModel.js';

test('a pull with no layers yet has made no progress', () => assert.equal(pullFraction([]), 0));

test('finished layers count whole and downloading layers by their bytes', () => {
  const layers: Layer[] = [
    { status: 'Pull complete' },
    { status: 'Downloading', current: 50, total: 100 },
  ];
  assert.equal(pullFraction(layers), 0.75);
});

test('already present layers count as done', () => assert.equal(pullFraction([{ status: 'Already exists' }]), 1));

test('the message names the image, the layers done and the busiest layer', () => {
  const m = new Map<string, Layer>([
    ['aaaaaaaaaaaaaaaa', { status: 'Pull complete' }],
    ['bbbbbbbbbbbbbbbb', { status: 'Downloading', current: 1_500_000, total: 3_000_000 }],
  ]);
  assert.equal(pullMessage('busybox:1.36', m, ''), 'busybox:1.36 — 1/2 layers · bbbbbbbbbbbb Downloading 1.5/3.0 MB');
});
