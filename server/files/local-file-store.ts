/**
 * The embedded file store: one folder (`${DATA_DIR}/files` by default), each file as
 * `{id}` beside its record `{id}.json`. Ids are random and checked against {@link FILE_ID}
 * before any path is built, so no id can reach outside the folder. Writes go to a temporary
 * name first and are renamed into place, so a crash never leaves half a file under an id.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileUrl, isFileId, type FileStore, type OpenedFile, type PutOptions, type StoredFile } from './file-store.js';

export class LocalFileStore implements FileStore {
  private readonly root: string;
  private ready: Promise<void> | null = null;

  constructor(
    root: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.root = path.resolve(root);
  }

  /** The folder is made on the first write, so a server that never stores a file leaves none. */
  private ensureFolder(): Promise<void> {
    this.ready ??= mkdir(this.root, { recursive: true }).then(
      () => undefined,
      (error: unknown) => {
        this.ready = null;
        throw error;
      },
    );
    return this.ready;
  }

  private pathOf(id: string, suffix = ''): string {
    if (!isFileId(id)) throw new Error(`Not a file id: ${id.slice(0, 40)}`);
    const full = path.join(this.root, id + suffix);
    // Belt and braces: the id pattern already rules out separators and dots.
    if (path.dirname(full) !== this.root) throw new Error('File path escapes the store');
    return full;
  }

  async put(bytes: Uint8Array, options: PutOptions): Promise<StoredFile> {
    await this.ensureFolder();
    if (options.id !== undefined) {
      if (!isFileId(options.id)) throw new Error(`Not a file id: ${options.id.slice(0, 40)}`);
      const existing = await this.stat(options.id);
      if (existing) return existing;
    }
    const id = options.id ?? randomBytes(16).toString('base64url');
    const file: StoredFile = {
      id,
      url: fileUrl(id),
      kind: options.kind,
      contentType: options.contentType,
      width: options.width,
      height: options.height,
      size: bytes.byteLength,
      created: this.now().toISOString(),
      owner: options.owner,
    };
    const temp = path.join(this.root, `.tmp-${randomBytes(8).toString('hex')}`);
    try {
      await writeFile(temp, bytes, { flag: 'wx' });
      await rename(temp, this.pathOf(id));
      await writeFile(`${temp}.json`, JSON.stringify(file), { flag: 'wx' });
      // The record last: a file counts as stored once its record is there.
      await rename(`${temp}.json`, this.pathOf(id, '.json'));
    } catch (error) {
      // A chosen id may be another writer's finished file: only a random id's content is ours alone.
      const leftovers = [temp, `${temp}.json`, ...(options.id === undefined ? [this.pathOf(id)] : [])];
      await Promise.all(leftovers.map((leftover) => rm(leftover, { force: true })));
      throw error;
    }
    return file;
  }

  async stat(id: string): Promise<StoredFile | null> {
    if (!isFileId(id)) return null;
    try {
      return JSON.parse(await readFile(this.pathOf(id, '.json'), 'utf8')) as StoredFile;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async open(id: string): Promise<OpenedFile | null> {
    const file = await this.stat(id);
    if (!file) return null;
    const body = createReadStream(this.pathOf(id));
    // A record without its content reads as no file, found now rather than halfway through a response.
    const opened = await new Promise<boolean>((resolve, reject) => {
      body.once('open', () => resolve(true));
      body.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(false) : reject(error)));
    });
    if (!opened) {
      body.destroy();
      return null;
    }
    return { file, body };
  }
}
