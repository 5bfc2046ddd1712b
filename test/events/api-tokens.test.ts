/**
 * The API tokens' decider (issue 30 item 1): given an account's token events, when a command,
 * then the events it records or the refusal.
 */
import { describe, expect, it } from 'vitest';
import { apiTokenFunctionPayloads, apiTokensDecider, MAX_API_TOKENS, type ApiTokenEvent, type ApiTokensState } from '../../events/api-tokens.js';
import { DomainError } from '../../events/errors.js';

const created = (tokenId: string): Extract<ApiTokenEvent, { type: 'ApiTokenCreated' }> => ({
  type: 'ApiTokenCreated',
  data: { tokenId, uid: 'u1', name: `Token ${tokenId}`, scopes: ['maps:read'], tokenHash: 'a'.repeat(64), prefix: 'mf_abcd', created: '2026-01-01T00:00:00.000Z', expires: null },
});
const revoked = (tokenId: string): ApiTokenEvent => ({ type: 'ApiTokenRevoked', data: { tokenId, uid: 'u1', revoked: '2026-01-02T00:00:00.000Z' } });
const given = (events: ApiTokenEvent[]): ApiTokensState => events.reduce(apiTokensDecider.evolve, apiTokensDecider.initialState);
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? `${error.code}: ${error.message}` : String(error);
  }
  return 'no refusal';
};

describe('the API tokens decider', () => {
  it('records a new token, and the same token id only once', () => {
    const event = created('t1');
    expect(apiTokensDecider.decide({ type: 'CreateApiToken', data: event.data }, given([]))).toEqual([event]);
    expect(apiTokensDecider.decide({ type: 'CreateApiToken', data: event.data }, given([event]))).toEqual([]);
    expect(apiTokensDecider.schema.parse(event)).toEqual(event);
  });

  it(`refuses a token past ${MAX_API_TOKENS} live ones; revoked ones do not count`, () => {
    const full = Array.from({ length: MAX_API_TOKENS }, (_, i) => created(`t${i}`));
    expect(refusal(() => apiTokensDecider.decide({ type: 'CreateApiToken', data: created('new').data }, given(full)))).toMatch(/^resource-exhausted: An account may have at most 50 API tokens/);
    expect(apiTokensDecider.decide({ type: 'CreateApiToken', data: created('new').data }, given([...full, revoked('t3')]))).toHaveLength(1);
  });

  it('revokes a token once; an unknown one is not found', () => {
    const data = { tokenId: 't1', uid: 'u1', revoked: '2026-01-02T00:00:00.000Z' };
    expect(apiTokensDecider.decide({ type: 'RevokeApiToken', data }, given([created('t1')]))).toEqual([revoked('t1')]);
    expect(apiTokensDecider.decide({ type: 'RevokeApiToken', data }, given([created('t1'), revoked('t1')]))).toEqual([]);
    expect(refusal(() => apiTokensDecider.decide({ type: 'RevokeApiToken', data: { ...data, tokenId: 'nope' } }, given([created('t1')])))).toBe('not-found: No such API token.');
    // A token id that is an Object.prototype name is still unknown.
    expect(refusal(() => apiTokensDecider.decide({ type: 'RevokeApiToken', data: { ...data, tokenId: 'constructor' } }, given([])))).toBe('not-found: No such API token.');
  });

  it('reads the payloads: a trimmed name, known scopes once each, whole days', () => {
    expect(apiTokenFunctionPayloads.createApiToken.parse({ name: '  Sync  ', scopes: ['import', 'maps:read'], expiresInDays: 30 })).toEqual({ name: 'Sync', scopes: ['import', 'maps:read'], expiresInDays: 30 });
    expect(apiTokenFunctionPayloads.createApiToken.safeParse({ name: 'x', scopes: ['admin'] }).success).toBe(false);
    expect(apiTokenFunctionPayloads.createApiToken.safeParse({ name: 'x', scopes: ['maps:read'], expiresInDays: 3651 }).success).toBe(false);
  });
});
