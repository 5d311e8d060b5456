import { mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { INDEX_SUFFIX, ORPHAN_AGE_MS, PACK_SUFFIX, packName, PackWriter } from './packs';

// Traces staged in a folder of the store's own (`staging/<name>/`), not yet readable: published into the packs only
// when the whole input checked out (a team bundle's trailer), removed otherwise. A crash leaves the folder behind; it
// is removed by a later staging once it is old.

/** A staged pack rolls over past this size, so the index entries held in memory stay bounded. */
const STAGED_PACK_BYTES = 64 * 1024 ** 2;

let stageCounter = 0;

export class StagedPacks {
  private readonly writer: PackWriter;
  private readonly folder: string;
  private sessions = 0;
  private written = 0;

  constructor(
    private readonly stagingDir: string,
    private readonly packsDir: string,
  ) {
    this.folder = join(stagingDir, packName(Date.now(), ++stageCounter));
    this.writer = new PackWriter(this.folder);
  }

  /** Sessions and bytes staged so far. */
  get staged(): { sessions: number; bytes: number } {
    return { sessions: this.sessions, bytes: this.written + this.writer.openBytes };
  }

  async add(id: string, parts: Iterable<string | Buffer>, summary: Parameters<PackWriter['add']>[2]): Promise<void> {
    if (this.sessions === 0) await removeStale(this.stagingDir, Date.now());
    await this.writer.add(id, parts, summary);
    this.sessions++;
    if (this.writer.openBytes >= STAGED_PACK_BYTES) {
      this.written += this.writer.openBytes;
      await this.writer.close();
    }
  }

  /** Moves the staged packs into the store, each pack before its index (a pack is read once its index exists). */
  async publish(): Promise<void> {
    await this.writer.close();
    const names = (await readdir(this.folder).catch(() => [] as string[])).sort();
    await mkdir(this.packsDir, { recursive: true });
    for (const name of names.filter((n) => n.endsWith(PACK_SUFFIX)))
      await rename(join(this.folder, name), join(this.packsDir, name));
    for (const name of names.filter((n) => n.endsWith(INDEX_SUFFIX)))
      await rename(join(this.folder, name), join(this.packsDir, name));
    await this.removeFolder();
  }

  /** Removes everything staged: nothing of it was ever readable. */
  async discard(): Promise<void> {
    await this.writer.close().catch(() => undefined);
    await this.removeFolder();
  }

  /** Its own folder, and the staging folder when nothing else is staged there. */
  private async removeFolder(): Promise<void> {
    await rm(this.folder, { recursive: true, force: true });
    await rmdir(this.stagingDir).catch(() => undefined);
  }
}

/** Staging folders left by a crashed process. */
async function removeStale(stagingDir: string, now: number): Promise<void> {
  for (const name of await readdir(stagingDir).catch(() => [] as string[])) {
    const path = join(stagingDir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs > ORPHAN_AGE_MS) await rm(path, { recursive: true, force: true });
  }
}
