import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { qrMatrix, qrPng } from '../src/modules/tickets/qr.js';

/** Reads the 15 format bits next to the top-left finder and checks them against every valid codeword. */
function formatBits(grid: boolean[][]): number {
  let bits = 0;
  const read = (row: number, col: number, i: number) => {
    if (grid[row]![col]) bits |= 1 << i;
  };
  for (let i = 0; i <= 5; i++) read(i, 8, i);
  read(7, 8, 6);
  read(8, 8, 7);
  read(8, 7, 8);
  for (let i = 9; i < 15; i++) read(8, 14 - i, i);
  return bits;
}

function validFormats(): Map<number, number> {
  const valid = new Map<number, number>();
  for (let mask = 0; mask < 8; mask++) {
    const data = mask; // level M = 00
    let rem = data;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    valid.set(((data << 10) | rem) ^ 0x5412, mask);
  }
  return valid;
}

describe('built-in QR encoder', () => {
  it.each([
    ['HELLO', 21],
    ['x'.repeat(60), 33],
    [`TK1.${'a'.repeat(32)}.${'B'.repeat(86)}`, 49],
    ['x'.repeat(213), 57],
  ])('sizes %s to %d modules with finder patterns and a valid level-M format', (text, size) => {
    const grid = qrMatrix(text);
    expect(grid).toHaveLength(size);
    for (const [top, left] of [[0, 0], [0, size - 7], [size - 7, 0]] as const) {
      expect(grid[top + 3]![left + 3]).toBe(true);
      expect(grid[top + 1]![left + 1]).toBe(false);
      expect(grid[top]![left]).toBe(true);
    }
    expect(validFormats().has(formatBits(grid))).toBe(true);
    expect(grid[size - 8]![8]).toBe(true);
  });

  it('refuses text beyond version 10', () => {
    expect(() => qrMatrix('x'.repeat(214))).toThrow(/too long/);
  });

  it('writes a 1-bit grayscale PNG with a quiet zone, readable by a scanner when one is installed', () => {
    const text = `TK1.${'q'.repeat(32)}.${'Z'.repeat(86)}`;
    const png = qrPng(text, 4);
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const width = png.readUInt32BE(16);
    expect(width).toBe((49 + 8) * 4);
    expect(png[24]).toBe(1);
    expect(png[25]).toBe(0);
    const idatLength = png.readUInt32BE(33);
    const raw = inflateSync(png.subarray(41, 41 + idatLength));
    expect(raw.length).toBe((Math.ceil(width / 8) + 1) * width);
    // zbarimg (apt zbar-tools) decodes it back when available on this machine.
    if (existsSync('/usr/bin/zbarimg')) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'tukio-qr-'));
      writeFileSync(path.join(dir, 'code.png'), png);
      const decoded = execFileSync('/usr/bin/zbarimg', ['-q', '--raw', path.join(dir, 'code.png')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      rmSync(dir, { recursive: true, force: true });
      expect(decoded.trim()).toBe(text);
    }
  });
});
