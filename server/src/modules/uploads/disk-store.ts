import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EVENT_IMAGE_NAME, eventImageKey, type DiskStore } from './object-store.js';

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

/** A write in progress: a dotfile (never served: /uploads denies dotfiles) renamed to its real name once whole. */
const PARTIAL = /^\.([0-9a-f]{24}\.[a-z]+)\.[0-9a-f]{12}\.partial$/;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

/**
 * DATA_DIR/uploads, the embedded default. Event images are files directly in it (the layout from
 * before the port, so existing uploads keep their URLs): key `events/<name>` is file `<name>`.
 */
export function createDiskStore(dataDir: string): DiskStore {
  const dir = uploadsDir(dataDir);
  const nameOf = (key: string) => {
    const name = key.slice('events/'.length);
    if (!key.startsWith('events/') || !EVENT_IMAGE_NAME.test(name)) throw new Error(`not an event image key: ${key}`);
    return name;
  };
  return {
    kind: 'disk',
    dir,
    async put(key, body) {
      const name = nameOf(key);
      await mkdir(dir, { recursive: true });
      // Written under a temporary name and renamed when whole: a full disk or a crash mid-write leaves
      // no truncated image under the name an event would show (a rename within a folder is atomic).
      // wx: a temporary name is never written twice; the real name is a new id each time.
      const partial = path.join(dir, `.${name}.${randomBytes(6).toString('hex')}.partial`);
      try {
        await writeFile(partial, body, { flag: 'wx' });
        await rename(partial, path.join(dir, name));
      } catch (error) {
        await unlink(partial).catch(() => undefined);
        throw error;
      }
    },
    async *list() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if (isMissing(error)) return;
        throw error;
      }
      for (const name of names) {
        // A partial file left by a crash between the write and the rename is listed as its image, so it goes too.
        const imageName = EVENT_IMAGE_NAME.test(name) ? name : PARTIAL.exec(name)?.[1];
        if (!imageName) continue;
        const stats = await stat(path.join(dir, name)).catch((error: unknown) => (isMissing(error) ? undefined : Promise.reject(error)));
        if (stats?.isFile()) yield { key: eventImageKey(imageName), file: name, lastModified: stats.mtime };
      }
    },
    async remove(entry) {
      await unlink(path.join(dir, entry.file ?? nameOf(entry.key))).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
    },
  };
}
