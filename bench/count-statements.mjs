// bench/count-statements.mjs — counts the SQL statements a process sends to PostgreSQL through node-postgres, by
// statement text, and writes them when it exits: a figure that does not move with the host's load, unlike CPU.
//   NODE_FLAGS="--import ./bench/count-statements.mjs" STATEMENTS_DIR=/tmp/statements node bench/checkout.mjs
// (bench/flash-sale.mjs's built instances: NODE_OPTIONS instead of NODE_FLAGS.) One <dir>/<pid>.tsv per process
// that sent any, most frequent first: count, then the statement's first 160 characters.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const dir = process.env.STATEMENTS_DIR;
let pg;
try {
  pg = dir ? createRequire(path.join(process.cwd(), 'server/package.json'))('pg') : undefined;
} catch {
  // A process without node-postgres (the simulator) sends no statement.
}
if (pg) {
  const counts = new Map();
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function countedQuery(config, ...rest) {
    const text = (typeof config === 'string' ? config : (config?.text ?? '?')).replace(/\s+/g, ' ').trim().slice(0, 160);
    counts.set(text, (counts.get(text) ?? 0) + 1);
    return query.call(this, config, ...rest);
  };
  process.once('exit', () => {
    if (counts.size === 0) return;
    const rows = [...counts].sort((a, b) => b[1] - a[1]).map(([text, count]) => `${count}\t${text}`);
    writeFileSync(path.join(dir, `${process.pid}.tsv`), `${rows.join('\n')}\n`);
  });
}
