import { crc32, deflateSync } from 'node:zlib';

/**
 * A small QR Code encoder (ISO/IEC 18004): byte mode, error correction level M, versions 1–10
 * (up to 213 bytes — a ticket code is about 125), all eight masks scored, rendered as a 1-bit PNG.
 * Written for ticket emails so the server needs no extra package.
 */

/** Per version (index 1–10): total codewords, EC codewords per block, blocks in group 1 and 2 (group 2 blocks hold one more data codeword). */
const VERSIONS_M: ReadonlyArray<{ total: number; ecPerBlock: number; group1: number; group2: number }> = [
  { total: 0, ecPerBlock: 0, group1: 0, group2: 0 },
  { total: 26, ecPerBlock: 10, group1: 1, group2: 0 },
  { total: 44, ecPerBlock: 16, group1: 1, group2: 0 },
  { total: 70, ecPerBlock: 26, group1: 1, group2: 0 },
  { total: 100, ecPerBlock: 18, group1: 2, group2: 0 },
  { total: 134, ecPerBlock: 24, group1: 2, group2: 0 },
  { total: 172, ecPerBlock: 16, group1: 4, group2: 0 },
  { total: 196, ecPerBlock: 18, group1: 4, group2: 0 },
  { total: 242, ecPerBlock: 22, group1: 2, group2: 2 },
  { total: 292, ecPerBlock: 22, group1: 3, group2: 2 },
  { total: 346, ecPerBlock: 26, group1: 4, group2: 1 },
];

const ALIGNMENT: ReadonlyArray<number[]> = [[], [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];
const REMAINDER_BITS = [0, 0, 7, 7, 7, 7, 7, 0, 0, 0, 0];
const EC_LEVEL_M_BITS = 0;

// GF(256) with the QR primitive polynomial x^8 + x^4 + x^3 + x^2 + 1.
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let value = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = value;
    LOG[value] = i;
    value <<= 1;
    if (value & 0x100) value ^= 0x11d;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255]!;
}
const gfMul = (a: number, b: number) => (a === 0 || b === 0 ? 0 : EXP[LOG[a]! + LOG[b]!]!);

function generatorPolynomial(degree: number): number[] {
  let poly = [1];
  for (let i = 0; i < degree; i++) {
    const next = new Array<number>(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; j++) {
      next[j] = next[j]! ^ poly[j]!;
      next[j + 1] = next[j + 1]! ^ gfMul(poly[j]!, EXP[i]!);
    }
    poly = next;
  }
  return poly;
}

function errorCorrection(data: number[], degree: number): number[] {
  const generator = generatorPolynomial(degree);
  const remainder = new Array<number>(degree).fill(0);
  for (const byte of data) {
    const factor = byte ^ remainder.shift()!;
    remainder.push(0);
    for (let i = 0; i < degree; i++) remainder[i] = remainder[i]! ^ gfMul(generator[i + 1]!, factor);
  }
  return remainder;
}

function dataCapacity(version: number): number {
  const v = VERSIONS_M[version]!;
  return v.total - v.ecPerBlock * (v.group1 + v.group2);
}

/** Data codewords: mode, length, bytes, terminator, padding; then blocks with EC, interleaved. */
function codewords(bytes: Buffer, version: number): number[] {
  const capacity = dataCapacity(version);
  const bits: number[] = [];
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const byte of bytes) put(byte, 8);
  put(0, Math.min(4, capacity * 8 - bits.length));
  while (bits.length % 8 !== 0) bits.push(0);
  const data: number[] = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((acc, bit) => (acc << 1) | bit, 0));
  for (let pad = 0xec; data.length < capacity; pad ^= 0xec ^ 0x11) data.push(pad);

  const { ecPerBlock, group1, group2 } = VERSIONS_M[version]!;
  const shortLength = Math.floor(capacity / (group1 + group2));
  const blocks: number[][] = [];
  let offset = 0;
  for (let b = 0; b < group1 + group2; b++) {
    const length = shortLength + (b >= group1 ? 1 : 0);
    blocks.push(data.slice(offset, offset + length));
    offset += length;
  }
  const ec = blocks.map((block) => errorCorrection(block, ecPerBlock));
  const out: number[] = [];
  for (let i = 0; i <= shortLength; i++) for (const block of blocks) if (i < block.length) out.push(block[i]!);
  for (let i = 0; i < ecPerBlock; i++) for (const block of ec) out.push(block[i]!);
  return out;
}

class Matrix {
  readonly modules: Uint8Array;
  readonly reserved: Uint8Array;
  constructor(readonly size: number) {
    this.modules = new Uint8Array(size * size);
    this.reserved = new Uint8Array(size * size);
  }
  fixed(row: number, col: number, dark: boolean) {
    this.modules[row * this.size + col] = dark ? 1 : 0;
    this.reserved[row * this.size + col] = 1;
  }
  reserve(row: number, col: number) {
    this.reserved[row * this.size + col] = 1;
  }
}

function drawFunctionPatterns(m: Matrix, version: number) {
  const size = m.size;
  // Finder patterns with their light separators.
  for (const [top, left] of [
    [0, 0],
    [0, size - 7],
    [size - 7, 0],
  ] as const) {
    for (let dr = -1; dr <= 7; dr++) {
      for (let dc = -1; dc <= 7; dc++) {
        const row = top + dr;
        const col = left + dc;
        if (row < 0 || col < 0 || row >= size || col >= size) continue;
        const ring = Math.max(Math.abs(dr - 3), Math.abs(dc - 3));
        m.fixed(row, col, ring !== 2 && ring !== 4);
      }
    }
  }
  // Timing patterns.
  for (let i = 8; i < size - 8; i++) {
    m.fixed(6, i, i % 2 === 0);
    m.fixed(i, 6, i % 2 === 0);
  }
  // Alignment patterns, except where they would overlap a finder.
  const centres = ALIGNMENT[version]!;
  for (const row of centres) {
    for (const col of centres) {
      if ((row === 6 && col === 6) || (row === 6 && col === size - 7) || (row === size - 7 && col === 6)) continue;
      for (let dr = -2; dr <= 2; dr++) for (let dc = -2; dc <= 2; dc++) m.fixed(row + dr, col + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
    }
  }
  // Reserve the format areas (written after masking) and the dark module.
  for (let i = 0; i < 9; i++) {
    m.reserve(8, i);
    m.reserve(i, 8);
  }
  for (let i = 0; i < 8; i++) {
    m.reserve(8, size - 1 - i);
    m.reserve(size - 1 - i, 8);
  }
  m.fixed(size - 8, 8, true);
  // Version information (versions 7 and up): 6 bits plus a BCH(18,6) remainder.
  if (version >= 7) {
    let remainder = version;
    for (let i = 0; i < 12; i++) remainder = (remainder << 1) ^ ((remainder >>> 11) * 0x1f25);
    const bits = (version << 12) | remainder;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      m.fixed(b, a, dark);
      m.fixed(a, b, dark);
    }
  }
}

function placeData(m: Matrix, data: number[], remainderBits: number) {
  const bits: number[] = [];
  for (const byte of data) for (let i = 7; i >= 0; i--) bits.push((byte >>> i) & 1);
  for (let i = 0; i < remainderBits; i++) bits.push(0);
  let index = 0;
  const size = m.size;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    const upward = ((right + 1) & 2) === 0;
    for (let step = 0; step < size; step++) {
      const row = upward ? size - 1 - step : step;
      for (let j = 0; j < 2; j++) {
        const col = right - j;
        if (m.reserved[row * size + col]) continue;
        m.modules[row * size + col] = bits[index] === 1 ? 1 : 0;
        index += 1;
      }
    }
  }
}

const MASKS: Array<(row: number, col: number) => boolean> = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (_r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

function applyMask(m: Matrix, mask: number, out: Uint8Array): Uint8Array {
  const test = MASKS[mask]!;
  const size = m.size;
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const i = row * size + col;
      out[i] = m.reserved[i] || !test(row, col) ? m.modules[i]! : m.modules[i]! ^ 1;
    }
  }
  return out;
}

function drawFormat(cells: Uint8Array, size: number, mask: number) {
  const data = (EC_LEVEL_M_BITS << 3) | mask;
  let remainder = data;
  for (let i = 0; i < 10; i++) remainder = (remainder << 1) ^ ((remainder >>> 9) * 0x537);
  const bits = ((data << 10) | remainder) ^ 0x5412;
  const set = (row: number, col: number, i: number) => {
    cells[row * size + col] = (bits >>> i) & 1;
  };
  for (let i = 0; i <= 5; i++) set(i, 8, i);
  set(7, 8, 6);
  set(8, 8, 7);
  set(8, 7, 8);
  for (let i = 9; i < 15; i++) set(8, 14 - i, i);
  for (let i = 0; i < 8; i++) set(8, size - 1 - i, i);
  for (let i = 8; i < 15; i++) set(size - 15 + i, 8, i);
  cells[(size - 8) * size + 8] = 1;
}

const FINDER_LIKE = [0b10111010000, 0b00001011101];

function penalty(cells: Uint8Array, size: number): number {
  let score = 0;
  // Rows (transposed = false) and columns (true): long runs and finder-like 1:1:3:1:1 patterns.
  for (const transposed of [false, true]) {
    for (let i = 0; i < size; i++) {
      let run = 1;
      let window = 0;
      for (let j = 0; j < size; j++) {
        const value = transposed ? cells[j * size + i]! : cells[i * size + j]!;
        if (j > 0) {
          const previous = transposed ? cells[(j - 1) * size + i]! : cells[i * size + j - 1]!;
          if (value === previous) run += 1;
          else {
            if (run >= 5) score += 3 + (run - 5);
            run = 1;
          }
        }
        window = ((window << 1) | value) & 0x7ff;
        if (j >= 10 && (window === FINDER_LIKE[0] || window === FINDER_LIKE[1])) score += 40;
      }
      if (run >= 5) score += 3 + (run - 5);
    }
  }
  let dark = 0;
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      const v = cells[r * size + c]!;
      dark += v;
      if (r + 1 < size && c + 1 < size && cells[r * size + c + 1] === v && cells[(r + 1) * size + c] === v && cells[(r + 1) * size + c + 1] === v) score += 3;
    }
  }
  score += 10 * Math.floor(Math.abs((dark * 100) / (size * size) - 50) / 5);
  return score;
}

/** The QR modules for `text` (true = dark), without the quiet zone. */
export function qrMatrix(text: string): boolean[][] {
  const bytes = Buffer.from(text, 'utf8');
  let version = 1;
  while (version <= 10 && (dataCapacity(version) * 8 < 4 + (version < 10 ? 8 : 16) + bytes.length * 8)) version += 1;
  if (version > 10) throw new Error('Text too long for the built-in QR encoder (at most 213 bytes).');
  const matrix = new Matrix(17 + 4 * version);
  drawFunctionPatterns(matrix, version);
  placeData(matrix, codewords(bytes, version), REMAINDER_BITS[version]!);
  const size = matrix.size;
  const candidate = new Uint8Array(size * size);
  let best = new Uint8Array(size * size);
  let bestScore = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    applyMask(matrix, mask, candidate);
    drawFormat(candidate, size, mask);
    const score = penalty(candidate, size);
    if (score < bestScore) {
      best = candidate.slice();
      bestScore = score;
    }
  }
  return Array.from({ length: size }, (_, row) => Array.from(best.subarray(row * size, (row + 1) * size), (v) => v === 1));
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A black-on-white 1-bit PNG of the QR for `text`, `scale` pixels per module, 4-module quiet zone. */
export function qrPng(text: string, scale = 6): Buffer {
  const grid = qrMatrix(text);
  const quiet = 4;
  const modules = grid.length + quiet * 2;
  const width = modules * scale;
  const rowBytes = Math.ceil(width / 8);
  const raw = Buffer.alloc((rowBytes + 1) * width, 0);
  // Build each module row's pixels once, then copy it `scale` times (filter byte 0 = none).
  const line = Buffer.alloc(rowBytes + 1, 0);
  for (let row = -quiet; row < grid.length + quiet; row++) {
    line.fill(0);
    for (let x = 0; x < width; x++) {
      const col = Math.floor(x / scale) - quiet;
      const dark = row >= 0 && col >= 0 && row < grid.length && col < grid.length && grid[row]![col]!;
      // Grayscale 1-bit: 1 is white.
      if (!dark) line[1 + (x >> 3)] = line[1 + (x >> 3)]! | (0x80 >> (x & 7));
    }
    for (let k = 0; k < scale; k++) line.copy(raw, ((row + quiet) * scale + k) * (rowBytes + 1));
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // grayscale
  header[10] = 0;
  header[11] = 0;
  header[12] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
