/**
 * `POST /api/files/from-url`: the server fetches a drawing from another site once, checks it
 * like an upload (type, size, the SVG sanitiser) and stores a copy, answering as an upload.
 * Floors take only the product's own files, so this is how a drawing elsewhere gets on one.
 */
import { StoredFileAnswer, type FileFromUrl } from '../../../../events/files-api';
import { api as defaultApi, type ApiClient, type RequestOptions } from '../api';

/** The stored copy, as an upload answers it. */
export type StoredFile = StoredFileAnswer;

/** The stored copy of the file at `url`; rejects with an ApiError that says why it was refused. */
export async function storeFileFromUrl(url: string, api: ApiClient = defaultApi, options?: RequestOptions): Promise<StoredFile> {
  const data: FileFromUrl = { url };
  const { result } = await api.post('/api/files/from-url', data, StoredFileAnswer, options);
  return result;
}
