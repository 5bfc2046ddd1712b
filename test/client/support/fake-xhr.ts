/**
 * XMLHttpRequest at the boundary, for the import's uploads (lib/import/import-api.ts): each
 * request is recorded as sent, and the test moves it on: upload progress, every byte sent, the
 * server's answer (or a refusal, or a network failure).
 */
export class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: Blob | FormData | null = null;
  status = 0;
  responseText = '';
  timeout = 0;
  withCredentials = false;
  aborted = false;
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null; onload: (() => void) | null } = { onprogress: null, onload: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: Blob | FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }

  /** The query of the request's address. */
  get query(): URLSearchParams {
    return new URL(this.url, 'http://test').searchParams;
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  uploaded() {
    this.upload.onload?.();
  }
  respond(status: number, body: unknown) {
    this.uploaded();
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
  fail() {
    this.onerror?.();
  }
}
