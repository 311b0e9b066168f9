#!/usr/bin/env node
// Generates media/icon.png (128×128, the marketplace icon) from the same geometry as
// media/mcp-host.svg, with no dependencies: shapes as distance functions, 4×4 supersampling,
// PNG written with zlib. Run: node media/generateIcon.js. (Excluded from the .vsix.)
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const SIZE = 128;
const SS = 4; // samples per axis
const S = 4; // 1 unit of the 24-unit SVG grid = 4 px
const O = 16; // offset of the grid: (128 - 24*4) / 2
const STROKE = 1.75 * S;

const BG_TOP = [0x1f, 0x5f, 0x96];
const BG_BOTTOM = [0x14, 0x2e, 0x4a];
const FG = [0xff, 0xff, 0xff];
const ACCENT = [0xff, 0xb3, 0x3b];

const p = (u) => O + u * S;

function roundedBoxSd(x, y, cx, cy, hw, hh, r) {
  const qx = Math.abs(x - cx) - (hw - r);
  const qy = Math.abs(y - cy) - (hh - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}
function segmentDist(x, y, x1, y1, x2, y2) {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const t = Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (x1 + t * dx), y - (y1 + t * dy));
}

const circles = [
  [4.5, 4.5],
  [19.5, 4.5],
  [12, 20.5],
].map(([cx, cy]) => [p(cx), p(cy), 2 * S]);
const lines = [
  [5.9, 5.9, 8.7, 8.7],
  [18.1, 5.9, 15.3, 8.7],
  [12, 16, 12, 18.5],
].map((l) => l.map(p));

/** Which color a sample point has: background, foreground, accent, or outside (transparent). */
function sample(x, y) {
  if (roundedBoxSd(x, y, SIZE / 2, SIZE / 2, SIZE / 2, SIZE / 2, 26) > 0) return null;
  if (Math.hypot(x - p(12), y - p(12)) <= 1.3 * S) return ACCENT;
  const w = STROKE / 2;
  if (Math.abs(roundedBoxSd(x, y, p(12), p(12), 4 * S, 4 * S, 2 * S)) <= w) return FG;
  for (const [cx, cy, r] of circles) if (Math.abs(Math.hypot(x - cx, y - cy) - r) <= w) return FG;
  for (const l of lines) if (segmentDist(x, y, ...l) <= w) return FG;
  const t = y / SIZE;
  return BG_TOP.map((c, i) => c + (BG_BOTTOM[i] - c) * t);
}

const rgba = Buffer.alloc(SIZE * SIZE * 4);
for (let py = 0; py < SIZE; py++) {
  for (let px = 0; px < SIZE; px++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const c = sample(px + (sx + 0.5) / SS, py + (sy + 0.5) / SS);
        if (!c) continue;
        r += c[0];
        g += c[1];
        b += c[2];
        a++;
      }
    }
    const o = (py * SIZE + px) * 4;
    if (a) {
      rgba[o] = Math.round(r / a);
      rgba[o + 1] = Math.round(g / a);
      rgba[o + 2] = Math.round(b / a);
    }
    rgba[o + 3] = Math.round((a / (SS * SS)) * 255);
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 6; // RGBA
const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) rgba.copy(raw, y * (SIZE * 4 + 1) + 1, y * SIZE * 4, (y + 1) * SIZE * 4);
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
const out = path.join(__dirname, 'icon.png');
fs.writeFileSync(out, png);
console.log(`wrote ${out} (${png.length} bytes)`);
