import { useConsent } from '../use-consent';
import './cookie-settings-button.css';

/** "Cookie settings" in the footer: reopens the consent banner to change an earlier choice. */
export function CookieSettingsButton({ className }: { className?: string }) {
  const { openSettings } = useConsent();
  return (
    <button type="button" className={['cookie-settings-button', className ?? ''].filter(Boolean).join(' ')} onClick={openSettings}>
      Cookie settings
    </button>
  );
}
