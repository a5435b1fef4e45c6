import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EVENT_IMAGE_NAME, type DiskStore } from './object-store.js';

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

/**
 * DATA_DIR/uploads, the embedded default. Event images are files directly in it (the layout from
 * before the port, so existing uploads keep their URLs): key `events/<name>` is file `<name>`.
 */
export function createDiskStore(dataDir: string): DiskStore {
  const dir = uploadsDir(dataDir);
  return {
    kind: 'disk',
    dir,
    async put(key, body) {
      const name = key.slice('events/'.length);
      if (!key.startsWith('events/') || !EVENT_IMAGE_NAME.test(name)) throw new Error(`not an event image key: ${key}`);
      await mkdir(dir, { recursive: true });
      // wx: a name is never written twice, whatever happens.
      await writeFile(path.join(dir, name), body, { flag: 'wx' });
    },
  };
}
