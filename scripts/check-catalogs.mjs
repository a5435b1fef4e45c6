#!/usr/bin/env node
// Checks the translation catalogs (docs/decisions/languages.md): every `locales` folder of the client and
// the server holds one folder per language (en, sw) with the same files; each file pair has the same keys;
// every message is valid ICU MessageFormat; a message uses the same placeholders in both languages.
// Exits 1 and lists every problem otherwise. Run by `npm test` before any suite.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '@messageformat/parser';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LANGUAGES = ['en', 'sw'];
const SEARCHED = ['client/src', 'server/src', 'packages/shared/src'];
const SKIPPED = new Set(['node_modules', 'dist', 'dist-ssr', '.git']);

/** Every folder named `locales` below `dir`. */
function localeFolders(dir) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || SKIPPED.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.name === 'locales') found.push(full);
    else found.push(...localeFolders(full));
  }
  return found;
}

/** The names a message's placeholders use ({name}, {count, plural, …}, nested ones too). */
function placeholders(tokens, names = new Set()) {
  for (const token of tokens) {
    if (token.type === 'argument' || token.type === 'function') names.add(token.arg);
    if (token.type === 'plural' || token.type === 'select' || token.type === 'selectordinal') {
      names.add(token.arg);
      for (const option of token.cases) placeholders(option.tokens, names);
    }
  }
  return names;
}

export function checkCatalogs(folders) {
  const problems = [];
  for (const folder of folders) {
    const relative = path.relative(root, folder);
    const files = Object.fromEntries(
      LANGUAGES.map((language) => {
        const dir = path.join(folder, language);
        return [language, existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : []];
      }),
    );
    const allFiles = new Set(LANGUAGES.flatMap((language) => files[language]));
    for (const file of allFiles) {
      const catalogs = {};
      for (const language of LANGUAGES) {
        const where = path.join(relative, language, file);
        if (!files[language].includes(file)) {
          problems.push(`${where}: missing (${LANGUAGES.filter((other) => files[other].includes(file)).join(', ')} has it)`);
          continue;
        }
        try {
          const value = JSON.parse(readFileSync(path.join(folder, language, file), 'utf8'));
          if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a flat JSON object');
          catalogs[language] = value;
        } catch (error) {
          problems.push(`${where}: ${error.message}`);
        }
      }
      const area = file.replace(/\.json$/, '');
      const parsed = {};
      for (const [language, catalog] of Object.entries(catalogs)) {
        parsed[language] = {};
        for (const [key, message] of Object.entries(catalog)) {
          const where = `${path.join(relative, language, file)}: ${key}`;
          if (relative.startsWith('client') && !key.startsWith(`${area}.`)) problems.push(`${where}: a key of this file starts with "${area}."`);
          if (typeof message !== 'string') {
            problems.push(`${where}: not a string`);
            continue;
          }
          try {
            parsed[language][key] = placeholders(parse(message));
          } catch (error) {
            problems.push(`${where}: not valid ICU MessageFormat (${error.message})`);
          }
        }
      }
      const [first, ...others] = LANGUAGES;
      if (!catalogs[first]) continue;
      for (const other of others) {
        if (!catalogs[other]) continue;
        for (const key of Object.keys(catalogs[first])) {
          if (!(key in catalogs[other])) problems.push(`${path.join(relative, other, file)}: missing key ${key} (in ${first})`);
        }
        for (const key of Object.keys(catalogs[other])) {
          if (!(key in catalogs[first])) problems.push(`${path.join(relative, first, file)}: missing key ${key} (in ${other})`);
        }
        for (const [key, names] of Object.entries(parsed[first])) {
          const otherNames = parsed[other][key];
          if (!otherNames) continue;
          const a = [...names].sort().join(', ');
          const b = [...otherNames].sort().join(', ');
          if (a !== b) problems.push(`${path.join(relative, other, file)}: ${key} uses {${b}}, ${first} uses {${a}}`);
        }
      }
    }
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folders = SEARCHED.flatMap((dir) => localeFolders(path.join(root, dir)));
  const problems = checkCatalogs(folders);
  if (problems.length > 0) {
    console.error(`[catalogs] ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`[catalogs] ${folders.map((folder) => path.relative(root, folder)).join(', ')}: same keys and placeholders in ${LANGUAGES.join(' and ')}`);
}
