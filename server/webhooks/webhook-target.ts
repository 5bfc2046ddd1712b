/**
 * Where a webhook may send (issue 30 item 2): https addresses of public hosts, by the same
 * checks as the `/files/from-url` fetcher (server/files/public-address.ts): the host is resolved
 * here, every address checked, and the connection goes to the address that was checked (no
 * second DNS answer can point it elsewhere). No redirects are followed (a 3xx is a failure).
 * `http://` and loopback addresses only with ALLOW_LOOPBACK_TARGETS=1 (tests).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { DomainError } from '../../events/errors.js';
import { isPublicAddress } from '../files/public-address.js';

export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookTargetPolicy {
  /** ALLOW_LOOPBACK_TARGETS=1: http:// and this machine's loopback addresses too. */
  allowLoopback: boolean;
  /** The system's resolver by default. */
  resolve?: (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;
}

const refuse = (message: string) => new DomainError('invalid-argument', message);

function isLoopback(address: string): boolean {
  return address === '::1' || (isIP(address) === 4 && address.startsWith('127.'));
}

/** The address as a webhook's URL, or the refusal that says why not (no DNS yet). */
export function webhookUrl(text: string, policy: WebhookTargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw refuse('The webhook’s address is not a web address (give one that starts with https://).');
  }
  if (url.protocol !== 'https:' && !(policy.allowLoopback && url.protocol === 'http:')) throw refuse('A webhook’s address must start with https://.');
  if (url.username || url.password) throw refuse('The webhook’s address must not hold a user name or password.');
  return url;
}

const systemResolver = async (hostname: string) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? (6 as const) : (4 as const) }));

/** The host's first address the policy allows, or the refusal. */
export async function webhookAddress(url: URL, policy: WebhookTargetPolicy): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(host);
  let addresses: Array<{ address: string; family: 4 | 6 }>;
  if (literal) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await (policy.resolve ?? systemResolver)(host);
    } catch {
      throw refuse(`The address ${host} could not be found.`);
    }
  }
  const allowed = (address: string) => isPublicAddress(address) || (policy.allowLoopback && isLoopback(address));
  const usable = addresses.find((candidate) => allowed(candidate.address));
  if (usable) return usable;
  if (addresses.length === 0) throw refuse(`The address ${host} could not be found.`);
  throw refuse(`The address ${host} is not a public one (it is ${addresses[0]!.address}): webhooks are sent to public addresses only.`);
}

/** Checks a webhook's address as it is created: its form and where its host points now. */
export async function checkWebhookTarget(text: string, policy: WebhookTargetPolicy): Promise<string> {
  const url = webhookUrl(text, policy);
  await webhookAddress(url, policy);
  return url.toString();
}

export interface WebhookResponse {
  status: number;
}

/** POSTs `body` to the webhook's address (checked again: DNS may have changed); the answer's status, or throws. */
export async function postWebhook(
  text: string,
  body: string,
  headers: Record<string, string>,
  policy: WebhookTargetPolicy,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<WebhookResponse> {
  const url = webhookUrl(text, policy);
  const signal = AbortSignal.timeout(timeoutMs);
  const target = await webhookAddress(url, policy);
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<WebhookResponse>((resolve, reject) => {
    const request = send(url, {
      method: 'POST',
      lookup,
      agent: false,
      signal,
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'Mapfold-Webhooks/1',
        ...headers,
      },
    });
    request.once('response', (response) => {
      // The answer's body is not read past what arrives: drain it and close.
      response.resume();
      response.once('end', () => resolve({ status: response.statusCode ?? 0 }));
      response.once('error', () => resolve({ status: response.statusCode ?? 0 }));
    });
    request.once('error', (error) => reject(signal.aborted ? new Error(`No answer within ${timeoutMs / 1000} s.`) : error));
    request.end(body);
  });
}
