import { Parser } from 'htmlparser2';
import { AppError } from '../../lib/app-error.js';

const maxSvgBytes = 100 * 1024;

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

/** Drawing elements an avatar may use: shapes, groups, gradients, masks and clips. Nothing that links, loads or runs. */
const ALLOWED_ELEMENTS = new Set([
  'svg', 'g', 'defs', 'title', 'desc', 'metadata', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon',
  'mask', 'clipPath', 'linearGradient', 'radialGradient', 'stop',
]);

/** Geometry and paint. No `href` of any kind, no `style` (CSS can load URLs), no event handler. */
const ALLOWED_ATTRIBUTES = new Set([
  'id', 'viewBox', 'width', 'height', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'd', 'points',
  'transform', 'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin',
  'stroke-opacity', 'stroke-dasharray', 'stroke-dashoffset', 'stroke-miterlimit', 'opacity', 'mask', 'clip-path', 'clip-rule',
  'maskUnits', 'maskContentUnits', 'clipPathUnits', 'gradientUnits', 'gradientTransform', 'spreadMethod', 'offset',
  'stop-color', 'stop-opacity', 'shape-rendering', 'preserveAspectRatio', 'version', 'vector-effect', 'paint-order',
]);

/**
 * Licence metadata (DiceBear writes RDF / Dublin Core into `<metadata>`): these prefixes, bound to exactly
 * these namespaces, and only inside `<metadata>`, where nothing is drawn.
 */
const METADATA_NAMESPACES: Record<string, string> = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
  dc: 'http://purl.org/dc/elements/1.1/',
  dcterms: 'http://purl.org/dc/terms/',
  cc: 'http://creativecommons.org/ns#',
};
const METADATA_ATTRIBUTES = new Set(['xsi:type', 'rdf:about', 'rdf:resource']);

/** A paint or mask reference may only point inside the image (`url(#id)`), never to a URL. */
const onlyLocalUrls = (value: string) => [...value.matchAll(/url\s*\(([^)]*)\)/gi)].every((match) => /^\s*['"]?#[\w.-]+['"]?\s*$/.test(match[1] ?? ''));

/**
 * What in `markup` is outside the allow-list (the first thing found), or undefined for a clean image. The
 * markup is parsed (entities decoded, so `jav&#x61;script:` is seen as what it is) and every element and
 * attribute must be on the lists: anything else, however harmless, is refused rather than guessed at.
 */
export function disallowedSvgContent(markup: string): string | undefined {
  let found: string | undefined;
  let metadataDepth = 0;
  const refuse = (what: string) => {
    found ??= what;
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const inMetadata = metadataDepth > 0;
        if (inMetadata || name === 'metadata') metadataDepth++;
        const prefix = name.includes(':') ? name.slice(0, name.indexOf(':')) : undefined;
        if (inMetadata ? !(prefix && prefix !== 'xsi' && METADATA_NAMESPACES[prefix]) : !ALLOWED_ELEMENTS.has(name)) refuse(`<${name}>`);
        for (const [attribute, value] of Object.entries(attributes)) {
          if (attribute === 'xmlns') {
            if (value !== SVG_NAMESPACE) refuse(`xmlns="${value}"`);
          } else if (attribute.startsWith('xmlns:')) {
            if (METADATA_NAMESPACES[attribute.slice('xmlns:'.length)] !== value) refuse(`${attribute}="${value}"`);
          } else if (!(ALLOWED_ATTRIBUTES.has(attribute) || (inMetadata && METADATA_ATTRIBUTES.has(attribute)))) {
            refuse(`the attribute ${attribute}`);
          } else if (!inMetadata && !onlyLocalUrls(value)) {
            refuse(`${attribute}="${value}"`);
          }
        }
      },
      onclosetag() {
        if (metadataDepth > 0) metadataDepth--;
      },
      // A DOCTYPE (entities), any processing instruction but the XML declaration, CDATA: none belongs in an avatar.
      onprocessinginstruction(name) {
        if (name.toLowerCase() !== '?xml') refuse(`<${name}>`);
      },
      oncdatastart() {
        refuse('CDATA');
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeCDATA: true },
  );
  parser.write(markup);
  parser.end();
  return found;
}

/**
 * Avatars are stored as base64 SVG and shown through <img src="data:...">, where scripts never run. Only
 * allow-listed drawing markup is accepted (`disallowedSvgContent`), so the stored value stays safe if it is
 * ever inlined or opened on its own.
 */
export function validateAvatarImage(base64: string): string {
  const cleaned = base64.replace(/^data:image\/svg\+xml;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(cleaned)) throw AppError.badRequest('avatar_not_svg', 'The avatar must be a base64-encoded SVG image.', 'image');
  const markup = Buffer.from(cleaned, 'base64').toString('utf8');
  if (Buffer.byteLength(markup) > maxSvgBytes) throw AppError.badRequest('avatar_too_large', 'The avatar image is too large (at most 100 KB).', 'image');
  const start = markup.replace(/^\uFEFF/, '').replace(/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*/, '');
  if (!/^<svg[\s>]/i.test(start) || !/<\/svg>\s*$/i.test(markup)) {
    throw AppError.badRequest('avatar_not_svg', 'The avatar must be a base64-encoded SVG image.', 'image');
  }
  const disallowed = disallowedSvgContent(markup);
  if (disallowed) {
    throw AppError.badRequest('avatar_unsafe', 'The avatar contains content that is not allowed.', 'image');
  }
  return cleaned;
}
