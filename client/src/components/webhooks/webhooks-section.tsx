/**
 * Webhooks (issue 30 item 2), for one map (the editor's settings, `mapId`) or for every map of
 * the account (/account): make one with an https address and the events it wants, see its
 * signing secret once (with a copy button), list them with their status and each one's
 * delivery log (status, time, response code) with "Redeliver", "Send test event" and delete.
 * A webhook disabled after failing deliveries says so and can be turned back on.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENT_TYPES, type WebhookEventType, type WebhookSummary } from '../../../../events/webhooks';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { TextField } from '../ui/field';
import { callFunction, toApiError } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import './webhooks.css';

const timeOf = (iso: string) => new Date(iso).toLocaleString('en', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });

export function WebhooksSection({ mapId, headingId, verified = true }: { mapId?: string; headingId: string; verified?: boolean }) {
  const [webhooks, setWebhooks] = useState<WebhookSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);

  const load = useCallback(async () => {
    try {
      const { result } = await callFunction('listWebhooks', mapId ? { mapId } : {});
      setWebhooks(result.webhooks);
      setError(null);
    } catch (failure) {
      setError(toApiError(failure).message);
    }
  }, [mapId]);

  useEffect(() => {
    if (verified) void load();
  }, [load, verified]);

  if (!verified) return <p className="muted">Verify your email address to add webhooks.</p>;
  return (
    <div className="webhooks">
      {secret ? <NewSecret {...secret} onDone={() => setSecret(null)} /> : null}
      <CreateWebhookForm
        mapId={mapId}
        headingId={headingId}
        onCreated={(url, value) => {
          setSecret({ url, secret: value });
          void load();
        }}
      />
      {error ? <Alert>{error}</Alert> : null}
      {webhooks ? <WebhookList webhooks={webhooks} onChanged={() => void load()} /> : null}
    </div>
  );
}

function CreateWebhookForm({ mapId, headingId, onCreated }: { mapId: string | undefined; headingId: string; onCreated(url: string, secret: string): void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(mapId ? ['map.published', 'map.changed'] : ['map.published']);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const legendId = useId();
  const toggle = (type: WebhookEventType, on: boolean) => setEvents((list) => (on ? WEBHOOK_EVENT_TYPES.filter((t) => t === type || list.includes(t)) : list.filter((t) => t !== type)));

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { result } = await callFunction('createWebhook', { ...(mapId ? { mapId } : {}), url: url.trim(), events });
      onCreated(url.trim(), result.secret);
      setUrl('');
    } catch (failure) {
      setError(toApiError(failure).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="webhook-form" aria-labelledby={headingId} onSubmit={(event) => void onSubmit(event)}>
      <TextField label="Endpoint URL" name="webhookUrl" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} disabled={busy} hint="An https:// address that accepts POST requests." />
      <fieldset className="webhook-form__events" aria-labelledby={legendId} disabled={busy}>
        <legend id={legendId}>Events</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="webhook-form__event">
            <input type="checkbox" checked={events.includes(type)} onChange={(e) => toggle(type, e.target.checked)} />
            <span>{WEBHOOK_EVENT_LABELS[type]}</span>
          </label>
        ))}
      </fieldset>
      {error ? <Alert>{error}</Alert> : null}
      <div>
        <Button type="submit" loading={busy} disabled={url.trim() === '' || events.length === 0}>
          Add webhook
        </Button>
      </div>
    </form>
  );
}

/** The signing secret, shown this once. */
function NewSecret({ url, secret, onDone }: { url: string; secret: string; onDone(): void }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div className="webhook-secret" role="region" aria-label="New webhook’s signing secret">
      <p>
        Webhook for <strong className="webhook-url">{url}</strong> added. Copy its signing secret now: it is not shown again. Each delivery’s{' '}
        <code>Mapfold-Signature</code> header is signed with it.
      </p>
      <div className="webhook-secret__value">
        <input readOnly value={secret} aria-label="Signing secret" onFocus={(e) => e.currentTarget.select()} spellCheck={false} />
        <Button variant="secondary" onClick={() => void copyText(secret).then(setCopied)}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      {copied === false ? <p className="muted">Copying did not work here: select the secret and copy it by hand.</p> : null}
      <Button variant="ghost" size="sm" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}

function WebhookList({ webhooks, onChanged }: { webhooks: readonly WebhookSummary[]; onChanged(): void }) {
  const [deleting, setDeleting] = useState<WebhookSummary | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (webhooks.length === 0) return <p className="muted">No webhooks yet.</p>;

  const confirm = async () => {
    if (!deleting) return;
    setBusy(true);
    setError(null);
    try {
      await callFunction('deleteWebhook', { webhookId: deleting.webhookId });
      setDeleting(null);
      onChanged();
    } catch (failure) {
      setError(toApiError(failure).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <ul className="webhook-list" aria-label="Webhooks">
        {webhooks.map((webhook) => (
          <WebhookItem key={webhook.webhookId} webhook={webhook} onDelete={() => setDeleting(webhook)} onChanged={onChanged} />
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        busy={busy}
        error={error}
        onConfirm={() => void confirm()}
        onCancel={() => {
          setDeleting(null);
          setError(null);
        }}
      >
        <p>Nothing more is sent to {deleting?.url}.</p>
      </ConfirmDialog>
    </>
  );
}

function WebhookItem({ webhook, onDelete, onChanged }: { webhook: WebhookSummary; onDelete(): void; onChanged(): void }) {
  const [message, setMessage] = useState<string | null>(null);
  const act = async (work: () => Promise<unknown>, done: string, reloadAfterMs = 1500) => {
    try {
      await work();
      setMessage(done);
      // The worker sends at once: show the delivery's outcome a moment later.
      setTimeout(onChanged, reloadAfterMs);
    } catch (failure) {
      setMessage(toApiError(failure).message);
    }
  };
  return (
    <li className="webhook-list__item">
      <div className="webhook-list__head">
        <div className="webhook-list__main">
          <p className="webhook-url">
            {webhook.url} {webhook.disabled ? <span className="badge badge--warn">Disabled</span> : <span className="badge">Active</span>}
          </p>
          <p className="muted">{webhook.events.map((type) => WEBHOOK_EVENT_LABELS[type]).join(' · ')}</p>
          {webhook.disabled ? <p className="webhook-disabled-note">Turned off after its deliveries kept failing. Check the receiver, then turn it back on: events from then on are sent again.</p> : null}
        </div>
        <div className="webhook-list__actions">
          {webhook.disabled ? (
            <Button size="sm" onClick={() => void act(() => callFunction('enableWebhook', { webhookId: webhook.webhookId }), 'Turned back on.', 0)} aria-label={`Turn back on the webhook for ${webhook.url}`}>
              Turn back on
            </Button>
          ) : null}
          <Button variant="secondary" size="sm" disabled={webhook.disabled} onClick={() => void act(() => callFunction('sendTestWebhook', { webhookId: webhook.webhookId }), 'Test event sent.')}>
            Send test event
          </Button>
          <Button variant="ghost" size="sm" onClick={onDelete} aria-label={`Delete the webhook for ${webhook.url}`}>
            Delete
          </Button>
        </div>
      </div>
      {message ? (
        <p className="muted" role="status">
          {message}
        </p>
      ) : null}
      <details className="webhook-log">
        <summary>Delivery log ({webhook.deliveries.length})</summary>
        {webhook.deliveries.length === 0 ? (
          <p className="muted">Nothing sent yet.</p>
        ) : (
          <div className="webhook-log__scroll">
          <table className="webhook-log__table">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Time</th>
                <th scope="col">Response</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {webhook.deliveries.map((delivery) => (
                <tr key={delivery.deliveryId}>
                  <td>{delivery.type}</td>
                  <td>
                    <span className={`webhook-status webhook-status--${delivery.status}`}>{delivery.status}</span>
                    {delivery.attempts > 1 ? <span className="muted"> ({delivery.attempts} tries)</span> : null}
                  </td>
                  <td>{timeOf(delivery.lastAttempt ?? delivery.created)}</td>
                  <td title={delivery.error ?? undefined}>{delivery.responseCode ?? '—'}</td>
                  <td>
                    <Button
                      variant="ghost"
                      size="sm"
                      disabled={webhook.disabled}
                      onClick={() => void act(() => callFunction('redeliverWebhook', { webhookId: webhook.webhookId, deliveryId: delivery.deliveryId }), 'Sent again.')}
                    >
                      Redeliver
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
        )}
      </details>
    </li>
  );
}
