/**
 * The file-storage port: uploaded floor plans and images, and the SVGs of built-in maps. Files
 * are immutable once stored, named by a random id the server makes (never the client's name),
 * and served at `/files/{id}`. The embedded adapter keeps them in a folder under DATA_DIR
 * (local-file-store.ts); an S3-compatible adapter implements the same interface.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

export type FileKind = 'svg' | 'image';

/** What the server found out about a file's content (never what the client claimed). */
export interface FileMeta {
  kind: FileKind;
  /** `image/svg+xml`, `image/png`, `image/jpeg` or `image/webp`. */
  contentType: string;
  width: number;
  height: number;
}

export interface StoredFile extends FileMeta {
  id: string;
  /** Where the file is served: `/files/{id}`. */
  url: string;
  /** Bytes. */
  size: number;
  /** ISO time of storing. */
  created: string;
  /** Who stored it (a user id), or null for the system (built-in maps). */
  owner: string | null;
}

export interface PutOptions extends FileMeta {
  owner: string | null;
  /**
   * A file id the caller chose (a {@link FILE_ID}), for content-addressed system files such
   * as built-in maps: storing the same id again keeps the file already there and answers its
   * record. Uploads never pass one: they get a new random id.
   */
  id?: string;
}

export interface OpenedFile {
  file: StoredFile;
  /** The content; read it to the end or destroy it. */
  body: Readable;
}

export interface FileStore {
  /** Stores the bytes under a new id. */
  put(bytes: Uint8Array, options: PutOptions): Promise<StoredFile>;
  /** The file's record, or null when there is no such file (or the id is not one of ours). */
  stat(id: string): Promise<StoredFile | null>;
  /** The file's record and content, or null when there is no such file. */
  open(id: string): Promise<OpenedFile | null>;
}

/** 128 random bits, base64url: unguessable, and safe in a path and a URL as it is. */
export const FILE_ID = /^[A-Za-z0-9_-]{22}$/;

export function isFileId(id: string): boolean {
  return FILE_ID.test(id);
}

/** A content-addressed id: the first 128 bits of the bytes' SHA-256, base64url. */
export function contentId(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest().subarray(0, 16).toString('base64url');
}

export function fileUrl(id: string): string {
  return `/files/${id}`;
}
