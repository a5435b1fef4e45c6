import type { JsonSchema, OpenApiDocument, Operation } from '../../lib/openapi.js';

/**
 * The browsable page for GET /api/docs: plain server-rendered HTML (no script, so it works under
 * our CSP `script-src 'self'` and offline), one section per tag, one block per operation with its
 * parameters, request body and responses; schemas are pretty-printed JSON. Everything is escaped.
 */

const escapeHtml = (value: unknown) =>
  String(value).replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** Escaped text with `code` spans and paragraphs. */
const prose = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`)
    .join('');

const slug = (value: string) => value.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

const refsIn = (schema: unknown): string[] => {
  const found = new Set<string>();
  JSON.stringify(schema, (key, value: unknown) => {
    if (key === '$ref' && typeof value === 'string') found.add(value.replace('#/components/schemas/', ''));
    return value;
  });
  return [...found];
};

function schemaBlock(schema: JsonSchema, label: string, open = false) {
  const refs = refsIn(schema)
    .map((name) => `<a href="#schema-${escapeHtml(slug(name))}">${escapeHtml(name)}</a>`)
    .join(', ');
  return `<details${open ? ' open' : ''}><summary>${escapeHtml(label)}${refs ? ` <span class="refs">(uses ${refs})</span>` : ''}</summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>`;
}

const compactSchema = (schema: JsonSchema) => {
  const text = JSON.stringify(schema);
  return text.length <= 90 ? `<code>${escapeHtml(text)}</code>` : `<details><summary>schema</summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>`;
};

function operationBlock(method: string, path: string, op: Operation) {
  const parts: string[] = [];
  parts.push(
    `<h3><span class="method ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code class="path">${escapeHtml(path)}</code></h3>`,
    `<p class="summary">${escapeHtml(op.summary)} <span class="access access-${escapeHtml(op['x-access'])}">${escapeHtml(op['x-access'])}</span></p>`,
    prose(op.description),
  );
  if (op.parameters?.length) {
    const rows = op.parameters
      .map((p) => `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${compactSchema(p.schema)}</td></tr>`)
      .join('');
    parts.push(`<h4>Parameters</h4><table><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Required</th><th scope="col">Schema</th></tr></thead><tbody>${rows}</tbody></table>`);
  }
  if (op.requestBody) {
    for (const [type, { schema }] of Object.entries(op.requestBody.content)) {
      parts.push(`<h4>Request body${op.requestBody.required ? '' : ' (optional)'}</h4>${schemaBlock(schema, type, true)}`);
    }
  }
  const responses = Object.entries(op.responses)
    .map(([status, response]) => {
      const content = Object.entries(response.content ?? {})
        .map(([type, { schema }]) => schemaBlock(schema, type))
        .join('');
      return `<dt class="status s${escapeHtml(status[0])}">${escapeHtml(status)}</dt><dd>${prose(response.description)}${content}</dd>`;
    })
    .join('');
  parts.push(`<h4>Responses</h4><dl class="responses">${responses}</dl>`);
  return `<article class="op" id="op-${escapeHtml(op.operationId)}">${parts.join('')}</article>`;
}

const STYLE = `
:root { color-scheme: light; --ink: #1d2433; --muted: #535d70; --line: #d7dce5; --bg: #f6f7f9; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
header, main, nav { max-width: 70rem; margin: 0 auto; padding: 0 1rem; }
header { padding-top: 1.5rem; }
h1 { margin: 0 0 .25rem; }
h2 { margin-top: 2.5rem; padding-bottom: .25rem; border-bottom: 2px solid var(--line); }
h3 { margin: 0; font-size: 1.05rem; display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
h4 { margin: 1rem 0 .25rem; font-size: .95rem; }
a { color: #0b5cad; }
nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem 1rem; }
.op { border: 1px solid var(--line); border-radius: .5rem; padding: 1rem; margin: 1rem 0; background: var(--bg); }
.op p { margin: .4rem 0; }
.summary { font-weight: 600; }
.method { display: inline-block; min-width: 4.5rem; text-align: center; border-radius: .25rem; padding: .1rem .4rem; color: #fff; font: 700 .8rem/1.4 ui-monospace, monospace; }
.method.get { background: #1a6e35; } .method.post { background: #0b5cad; } .method.put { background: #8a5300; }
.method.patch { background: #5a3d99; } .method.delete { background: #a4161a; }
.path { font-size: 1rem; word-break: break-all; }
.access { font: 600 .75rem/1 system-ui, sans-serif; border: 1px solid var(--muted); border-radius: 1rem; padding: .15rem .5rem; margin-left: .25rem; color: var(--muted); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85rem; }
pre { background: #fff; border: 1px solid var(--line); border-radius: .25rem; padding: .5rem; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
dl.responses { display: grid; grid-template-columns: 4rem 1fr; gap: .25rem .75rem; margin: 0; }
dt.status { font: 700 .9rem/1.8 ui-monospace, monospace; }
dt.s2 { color: #1a6e35; } dt.s4 { color: #a4161a; } dt.s5 { color: #8a5300; }
dd { margin: 0; } dd p { margin: .2rem 0; }
summary { cursor: pointer; color: var(--muted); }
.refs { font-size: .85rem; }
`;

export function renderDocsPage(doc: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  let count = 0;
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const tag = op.tags[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationBlock(method, path, op)]);
      count += 1;
    }
  }
  const tags = doc.tags.map((tag) => tag.name).filter((name) => byTag.has(name));
  const nav = tags.map((name) => `<li><a href="#tag-${escapeHtml(slug(name))}">${escapeHtml(name)}</a> (${byTag.get(name)!.length})</li>`).join('');
  const sections = tags
    .map((name) => `<section id="tag-${escapeHtml(slug(name))}" aria-labelledby="h-${escapeHtml(slug(name))}"><h2 id="h-${escapeHtml(slug(name))}">${escapeHtml(name)}</h2>${byTag.get(name)!.join('')}</section>`)
    .join('');
  const schemas = Object.entries((doc.components.schemas ?? {}) as Record<string, JsonSchema>)
    .map(([name, schema]) => `<h3 id="schema-${escapeHtml(slug(name))}">${escapeHtml(name)}</h3>${schema.description ? prose(String(schema.description)) : ''}<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.info.title)} ${escapeHtml(doc.info.version)}: API documentation</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(doc.info.title)}</h1>
<p>Version ${escapeHtml(doc.info.version)} · ${count} operations · OpenAPI ${escapeHtml(doc.openapi)}: <a href="/api/docs/openapi.json">openapi.json</a></p>
${prose(doc.info.description)}
</header>
<nav aria-label="Sections"><ul>${nav}<li><a href="#schemas">Schemas</a></li></ul></nav>
<main>
${sections}
<section id="schemas" aria-labelledby="h-schemas"><h2 id="h-schemas">Schemas</h2>${schemas}</section>
</main>
</body>
</html>
`;
}
