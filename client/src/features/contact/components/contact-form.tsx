/**
 * The contact form: name, e-mail, topic and message, checked with the shared schema before
 * sending and with the server's field messages after. A hidden honeypot and the time the form
 * appeared go along for the server's spam check. Success replaces the form with a thank-you
 * that screen readers announce and keyboard focus moves to.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CONTACT_LIMITS, CONTACT_TOPIC_LABELS, CONTACT_TOPICS, type ContactField, type ContactTopic } from '../../../../../events/contact';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { FieldShell, TextField } from '../../../components/ui/field';
import { SelectField } from '../../../components/ui/select-field';
import { toApiError, type ApiError } from '../../../lib/api';
import { sendContactMessage } from '../api/send-contact-message';
import { fieldErrorFromServer, firstInvalidField, validateContactFields, type FieldErrors } from '../field-errors';

const TOPIC_OPTIONS = CONTACT_TOPICS.map((topic) => ({ value: topic, label: CONTACT_TOPIC_LABELS[topic] }));

const MESSAGE_HINTS: Record<ContactTopic, string> = {
  general: 'Ask us anything about Mapfold.',
  sales: 'How many maps, and which plan you are looking at, helps us answer precisely.',
  billing: 'Include your licence code or the e-mail of your account, never a card number.',
  custom: 'Tell us about your space: the kind of map, how many floors or how large an area, and when you need it.',
  support: 'Include the link of the map so we can look at it straight away.',
  partnership: 'Tell us about your company and what you would like to build together.',
};

export interface ContactFormProps {
  initialTopic: ContactTopic;
  /** Prefilled when someone is signed in. */
  initialName?: string;
  initialEmail?: string;
  /** The address shown when sending is refused, so a person always has another way. */
  teamEmail: string;
  send?: typeof sendContactMessage;
  /** Milliseconds since the epoch; tests fix it. */
  now?: () => number;
}

type Values = Record<ContactField, string>;

export function ContactForm({ initialTopic, initialName = '', initialEmail = '', teamEmail, send = sendContactMessage, now = Date.now }: ContactFormProps) {
  const [values, setValues] = useState<Values>({ name: initialName, email: initialEmail, topic: initialTopic, message: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<{ name: string; email: string } | null>(null);
  const [renderedAt, setRenderedAt] = useState(now);
  const honeypot = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const thanks = useRef<HTMLDivElement>(null);

  // The footer's Custom Work link can be followed while the page is open: follow it here too.
  useEffect(() => setValues((current) => ({ ...current, topic: initialTopic })), [initialTopic]);
  // The session may arrive after the form: fill what the person has not typed yet.
  useEffect(() => {
    setValues((current) => ({ ...current, name: current.name || initialName, email: current.email || initialEmail }));
  }, [initialName, initialEmail]);
  useEffect(() => {
    // The form it replaces was taller: bring the thanks into view, then move focus to it.
    if (!sent || !thanks.current) return;
    thanks.current.scrollIntoView?.({ block: 'nearest' });
    thanks.current.focus({ preventScroll: true });
  }, [sent]);

  const change = (field: ContactField) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    // A message about a value stays until that value changes.
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const showErrors = (found: FieldErrors) => {
    setErrors(found);
    const first = firstInvalidField(found);
    if (first) form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    setFailure(null);
    const found = validateContactFields(values);
    if (firstInvalidField(found)) {
      showErrors(found);
      return;
    }
    setSending(true);
    try {
      await send({
        name: values.name,
        email: values.email,
        topic: values.topic as ContactTopic,
        message: values.message,
        website: honeypot.current?.value ?? '',
        renderedAt,
        sentAt: now(),
      });
      setSent({ name: values.name.trim(), email: values.email.trim() });
    } catch (error) {
      const apiError = toApiError(error);
      const fieldError = apiError.code === 'invalid-argument' ? fieldErrorFromServer(apiError.message) : null;
      if (fieldError) showErrors(fieldError);
      else setFailure(apiError);
    } finally {
      setSending(false);
    }
  }

  function sendAnother() {
    setValues((current) => ({ ...current, message: '' }));
    setErrors({});
    setSent(null);
    setRenderedAt(now());
  }

  if (sent) {
    return (
      <div ref={thanks} className="contact-thanks" role="status" tabIndex={-1}>
        <svg className="contact-thanks__icon" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
          <path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" strokeWidth="2.25" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <h2 className="contact-thanks__title">Message sent</h2>
        <p>
          Thanks, {sent.name}. We'll reply to <strong>{sent.email}</strong> within one business day.
        </p>
        <Button variant="secondary" onClick={sendAnother}>
          Send another message
        </Button>
      </div>
    );
  }

  const length = values.message.trim().length;
  return (
    <form ref={form} className="contact-form" noValidate onSubmit={submit} aria-labelledby="contact-form-heading">
      <h2 id="contact-form-heading" className="contact-form__heading">
        Send us a message
      </h2>
      {failure ? (
        <Alert title={failure.code === 'resource-exhausted' ? 'Too many messages from this connection' : 'Your message was not sent'}>
          <p className="contact-form__alert-text">
            {failure.message} You can also e-mail us at <a href={`mailto:${teamEmail}`}>{teamEmail}</a>.
          </p>
        </Alert>
      ) : null}
      <div className="contact-form__row">
        <TextField label="Your name" name="name" autoComplete="name" value={values.name} onChange={change('name')} error={errors.name ?? null} maxLength={CONTACT_LIMITS.nameMax + 20} required />
        <TextField label="E-mail" name="email" type="email" autoComplete="email" inputMode="email" value={values.email} onChange={change('email')} error={errors.email ?? null} required />
      </div>
      <SelectField label="Topic" name="topic" options={TOPIC_OPTIONS} value={values.topic} onChange={change('topic')} error={errors.topic ?? null} />
      <FieldShell
        label="Message"
        className="contact-form__message-field"
        hint={
          <>
            <span>{MESSAGE_HINTS[values.topic as ContactTopic] ?? MESSAGE_HINTS.general}</span>
            <span aria-hidden="true" className={length > CONTACT_LIMITS.messageMax ? 'contact-form__count contact-form__count--over' : 'contact-form__count'}>
              {length} / {CONTACT_LIMITS.messageMax}
            </span>
          </>
        }
        error={errors.message ?? null}
      >
        {(control) => <textarea {...control} name="message" className="field__input contact-form__message" rows={7} value={values.message} onChange={change('message')} required />}
      </FieldShell>
      {/* The honeypot: people never see or reach it, form-filling bots fill it in. */}
      <div className="contact-form__trap" aria-hidden="true">
        <label htmlFor="contact-website">Website</label>
        <input ref={honeypot} id="contact-website" name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <div className="contact-form__actions">
        <Button type="submit" size="lg" loading={sending}>
          {sending ? 'Sending…' : 'Send message'}
        </Button>
        <p className="contact-form__note">We use your details only to answer you.</p>
      </div>
    </form>
  );
}
