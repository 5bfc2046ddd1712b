/**
 * Fetches a file from a web address once, for the server to check and store like an upload
 * (`POST /api/files/from-url`), safe against server-side request forgery:
 *
 * - http and https only, no user name or password in the address;
 * - the host is resolved here and every address checked (public-address.ts); the connection
 *   goes to the address that was checked (the socket's `lookup` answers it), so no second DNS
 *   answer (rebinding) can point it elsewhere. An IP literal is checked as it is;
 * - redirects are followed by hand, at most {@link MAX_REDIRECTS}, each hop checked the same way;
 * - one deadline for the whole of it (DNS, redirects, body);
 * - the body is read up to the upload limit and no further (a Content-Length above it is
 *   refused before reading).
 *
 * Every refusal is an `invalid-argument` DomainError that says what was wrong.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { DomainError } from '../../events/errors.js';
import { tooLargeMessage } from './inspect-upload.js';
import { isPublicAddress, type AddressPolicy } from './public-address.js';

export const MAX_REDIRECTS = 3;
export const FETCH_TIMEOUT_MS = 15_000;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses (the system's resolver by default). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface RemoteFetchOptions {
  /** Largest file in bytes (UPLOAD_LIMIT). */
  maxBytes: number;
  /** Which addresses may be connected to: public ones only by default (tests allow their own server). */
  isAllowedAddress?: AddressPolicy;
  resolve?: Resolver;
  /** For the whole fetch: resolving, redirects and the body. */
  timeoutMs?: number;
  /** Headers in place of a drawing's (a geocoder's JSON answer: its own accept and user-agent). */
  headers?: Record<string, string>;
}

const systemResolver: Resolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

const refuse = (message: string) => new DomainError('invalid-argument', message);

/** Node's error codes for a host that could not be found, or reached. */
const NOT_FOUND_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA', 'EAI_FAIL']);

/** The address as a URL for this fetcher, or the refusal that says why not. */
export function fetchableUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw refuse('The address is not a web address (give one that starts with https:// or http://).');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('Only http:// and https:// addresses can be fetched.');
  if (url.username || url.password) throw refuse('The address must not hold a user name or password.');
  return url;
}

/** The host's addresses the policy allows (an IP literal is its own address), or the refusal. */
async function allowedAddress(url: URL, resolve: Resolver, allowed: AddressPolicy, signal: AbortSignal): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await abortable(resolve(host), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw refuse(`The address ${host} could not be found.`);
    }
  }
  const usable = addresses.find((candidate) => allowed(candidate.address));
  if (usable) return usable;
  if (addresses.length === 0) throw refuse(`The address ${host} could not be found.`);
  throw refuse(
    `The address ${host} is not a public one (${literal ? 'it is' : 'it points to'} ${addresses[0]!.address}, a private, loopback or otherwise non-public network): files are fetched from public addresses only.`,
  );
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** One request to `url`, connected to `target` whatever the name resolves to by then. */
function get(url: URL, target: ResolvedAddress, signal: AbortSignal, headers: Record<string, string> = {}): Promise<IncomingMessage> {
  // The connection's only lookup: answers the address already checked.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(url, {
      method: 'GET',
      lookup,
      // A socket of its own: never one pooled for another host's answer.
      agent: false,
      signal,
      headers: {
        'user-agent': 'Mapfold (fetching a floor plan once to store a copy)',
        accept: 'image/svg+xml, image/png, image/jpeg, image/webp;q=0.9, */*;q=0.1',
        'accept-encoding': 'identity, gzip, deflate, br',
        ...headers,
      },
    });
    request.once('response', resolve);
    request.once('error', reject);
    request.end();
  });
}

/** The response's content, decoded, as a stream. */
function decoded(response: IncomingMessage): Readable {
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  switch (encoding) {
    case 'identity':
    case '':
      return response;
    case 'gzip':
    case 'x-gzip':
      return response.pipe(createGunzip());
    case 'deflate':
      return response.pipe(createInflate());
    case 'br':
      return response.pipe(createBrotliDecompress());
    default:
      response.destroy();
      throw refuse(`The file at that address is sent in an encoding this server does not read (${encoding.slice(0, 40)}).`);
  }
}

async function readBody(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes && !response.headers['content-encoding']) {
    response.destroy();
    throw refuse(tooLargeMessage(maxBytes));
  }
  const body = decoded(response);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      // Stop reading at once: the rest is never asked for.
      if (size > maxBytes) throw refuse(tooLargeMessage(maxBytes));
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    body.destroy();
    response.destroy();
    if (error instanceof DomainError || signal.aborted) throw error;
    const code = (error as { code?: string }).code;
    throw refuse(`The file at that address could not be read to the end${code ? ` (${code})` : ''}.`);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The bytes at `address`, fetched once, or an `invalid-argument` DomainError saying why not
 * (not a web address, not public, not found, not reachable, too slow, an error answer, too
 * many redirects, too large).
 */
export async function fetchRemoteFile(address: string, options: RemoteFetchOptions): Promise<Uint8Array> {
  const allowed = options.isAllowedAddress ?? isPublicAddress;
  const resolve = options.resolve ?? systemResolver;
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let url = fetchableUrl(address);
  try {
    for (let hop = 0; ; hop++) {
      const target = await allowedAddress(url, resolve, allowed, signal);
      const response = await get(url, target, signal, options.headers);
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        response.resume();
        const location = response.headers.location;
        if (!location) throw refuse(`${url.host} answered ${status} (a redirect) without saying where to.`);
        if (hop >= MAX_REDIRECTS) throw refuse(`The address redirected more than ${MAX_REDIRECTS} times.`);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw refuse(`${url.host} redirected to something that is not a web address.`);
        }
        url = fetchableUrl(next.href);
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw refuse(`${url.host} answered ${status}${response.statusMessage ? ` (${response.statusMessage.slice(0, 60)})` : ''} instead of the file.`);
      }
      return await readBody(response, options.maxBytes, signal);
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (signal.aborted) throw refuse(`${url.host} did not send the file within ${Math.round(timeoutMs / 1000)} seconds.`);
    const code = (error as { code?: string }).code ?? '';
    if (NOT_FOUND_CODES.has(code)) throw refuse(`The address ${url.hostname} could not be found.`);
    if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code)) throw refuse(`${url.host} could not be reached securely: its certificate was not accepted (${code}).`);
    throw refuse(`${url.host} could not be reached${code ? ` (${code})` : ''}.`);
  }
}
