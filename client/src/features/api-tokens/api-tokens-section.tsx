/**
 * The account page's "API tokens" (issue 30 item 1): make a token with a name, scopes and an
 * expiry, see it once (with a copy button), list the account's tokens with their scopes,
 * expiry and last use, and revoke one. The API reference is /docs/api.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { z } from 'zod';
import { ApiTokenList, API_TOKEN_SCOPE_LABELS, API_TOKEN_SCOPES, type ApiTokenScope, type ApiTokenSummary } from '../../../../events/api-tokens';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TextField } from '../../components/ui/field';
import { SelectField } from '../../components/ui/select-field';
import { api, callFunction, toApiError } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import './api-tokens.css';

export const API_DOCS_PATH = '/docs/api';

const EXPIRY_OPTIONS = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never' },
] as const;

const DAY_MS = 86_400_000;

const dateOf = (iso: string) => new Date(iso).toLocaleDateString('en', { year: 'numeric', month: 'short', day: 'numeric' });

/** The list, as the server answers it (its schema is the server's). */
const TokenListAnswer: z.ZodType<ApiTokenList> = ApiTokenList;

export function ApiTokensSection({ verified }: { verified: boolean }) {
  const [tokens, setTokens] = useState<ApiTokenSummary[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);

  useEffect(() => {
    if (!verified) return;
    const controller = new AbortController();
    api
      .get('/api/account/api-tokens', TokenListAnswer, { signal: controller.signal })
      .then(({ result }) => setTokens(result.tokens))
      .catch((failure: unknown) => {
        if (!controller.signal.aborted) setLoadError(toApiError(failure).message);
      });
    return () => controller.abort();
  }, [verified]);

  return (
    <section className="card account-card" id="api-tokens" aria-labelledby="account-api-tokens">
      <div>
        <h2 id="account-api-tokens" className="account-card__title">
          API tokens
        </h2>
        <p className="muted">
          Let a script or another system use Mapfold as you, within the scopes you choose. Send the token as <code>Authorization: Bearer …</code>; the{' '}
          <a href={API_DOCS_PATH}>API reference</a> has examples. Tokens never reach billing or these settings.
        </p>
      </div>
      {!verified ? (
        <p className="muted">Verify your email address to create API tokens.</p>
      ) : (
        <>
          {created ? <NewToken {...created} onDone={() => setCreated(null)} /> : null}
          <CreateTokenForm
            onCreated={(summary, token) => {
              setCreated({ name: summary.name, token });
              setTokens((list) => [summary, ...(list ?? [])]);
            }}
          />
          {loadError ? <Alert>{loadError}</Alert> : null}
          {tokens ? <TokenList tokens={tokens} onRevoked={(tokenId) => setTokens((list) => (list ?? []).filter((t) => t.tokenId !== tokenId))} /> : null}
        </>
      )}
    </section>
  );
}

function CreateTokenForm({ onCreated }: { onCreated(summary: ApiTokenSummary, token: string): void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiTokenScope[]>(['maps:read']);
  const [expiry, setExpiry] = useState<string>('90');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const legendId = useId();

  const toggle = (scope: ApiTokenScope, on: boolean) => setScopes((list) => (on ? API_TOKEN_SCOPES.filter((s) => s === scope || list.includes(s)) : list.filter((s) => s !== scope)));

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const expiresInDays = expiry === 'never' ? undefined : Number(expiry);
    try {
      const { result } = await callFunction('createApiToken', { name: name.trim(), scopes, ...(expiresInDays ? { expiresInDays } : {}) });
      const now = Date.now();
      onCreated(
        {
          tokenId: result.tokenId,
          name: name.trim(),
          scopes,
          prefix: result.token.slice(0, 7),
          created: new Date(now).toISOString(),
          expires: expiresInDays ? new Date(now + expiresInDays * DAY_MS).toISOString() : null,
          lastUsed: null,
        },
        result.token,
      );
      setName('');
    } catch (failure) {
      setError(toApiError(failure).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="api-token-form" aria-label="Create an API token" onSubmit={(event) => void onSubmit(event)}>
      <TextField label="Token name" name="tokenName" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} disabled={busy} hint="What will use it, e.g. “Store list sync”." />
      <fieldset className="api-token-form__scopes" aria-labelledby={legendId} disabled={busy}>
        <legend id={legendId}>Scopes</legend>
        {API_TOKEN_SCOPES.map((scope) => (
          <label key={scope} className="api-token-form__scope">
            <input type="checkbox" checked={scopes.includes(scope)} onChange={(e) => toggle(scope, e.target.checked)} />
            <span>{API_TOKEN_SCOPE_LABELS[scope]}</span>
          </label>
        ))}
      </fieldset>
      <SelectField label="Expires after" name="tokenExpiry" options={EXPIRY_OPTIONS} value={expiry} onChange={(e) => setExpiry(e.target.value)} disabled={busy} />
      {error ? <Alert>{error}</Alert> : null}
      <div className="account-form__actions">
        <Button type="submit" loading={busy} disabled={name.trim() === '' || scopes.length === 0}>
          Create token
        </Button>
      </div>
    </form>
  );
}

/** The new token, shown this once. */
function NewToken({ name, token, onDone }: { name: string; token: string; onDone(): void }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div className="api-token-new" role="region" aria-label="New API token">
      <p>
        <strong>{name}</strong>: copy this token now. It is not shown again; only its fingerprint is kept.
      </p>
      <div className="api-token-new__value">
        <input readOnly value={token} aria-label="API token" onFocus={(e) => e.currentTarget.select()} spellCheck={false} />
        <Button
          variant="secondary"
          onClick={() => {
            void copyText(token).then(setCopied);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      {copied === false ? <p className="muted">Copying did not work here: select the token and copy it by hand.</p> : null}
      <Button variant="ghost" size="sm" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}

function TokenList({ tokens, onRevoked }: { tokens: readonly ApiTokenSummary[]; onRevoked(tokenId: string): void }) {
  const [revoking, setRevoking] = useState<ApiTokenSummary | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // When the page was opened: which tokens are expired by then.
  const [now] = useState(() => Date.now());

  if (tokens.length === 0) return <p className="muted">No API tokens yet.</p>;

  const confirm = async () => {
    if (!revoking) return;
    setBusy(true);
    setError(null);
    try {
      await callFunction('revokeApiToken', { tokenId: revoking.tokenId });
      onRevoked(revoking.tokenId);
      setRevoking(null);
    } catch (failure) {
      setError(toApiError(failure).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <ul className="api-token-list" aria-label="Your API tokens">
        {tokens.map((token) => {
          const expired = token.expires !== null && Date.parse(token.expires) <= now;
          return (
            <li key={token.tokenId} className="api-token-list__item">
              <div className="api-token-list__main">
                <p className="api-token-list__name">
                  {token.name} <code>{token.prefix}…</code> {expired ? <span className="badge badge--warn">Expired</span> : null}
                </p>
                <p className="muted">{token.scopes.map((scope) => API_TOKEN_SCOPE_LABELS[scope]).join(' · ')}</p>
                <p className="muted api-token-list__dates">
                  <span>Created {dateOf(token.created)}</span>
                  <span>{token.expires ? `${expired ? 'Expired' : 'Expires'} ${dateOf(token.expires)}` : 'Never expires'}</span>
                  <span>{token.lastUsed ? `Last used ${dateOf(token.lastUsed)}` : 'Never used'}</span>
                </p>
              </div>
              <Button variant="secondary" size="sm" onClick={() => setRevoking(token)} aria-label={`Revoke ${token.name}`}>
                Revoke
              </Button>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke token"
        busy={busy}
        error={error}
        onConfirm={() => void confirm()}
        onCancel={() => {
          setRevoking(null);
          setError(null);
        }}
      >
        <p>Anything using this token stops working at once. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
