import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';

/** A secret the server gives only once (an API key, a webhook signing secret), with a copy button. */
export function ShownOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  return (
    <div className="shown-once card" role="status">
      <p>
        <strong>{label}</strong> {t('payouts.shownOnce')}
      </p>
      <code className="shown-once__value" data-testid="shown-once">
        {value}
      </code>
      <div className="payout-form__actions">
        <Button
          variant="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true));
          }}
        >
          {copied ? t('payouts.copied') : t('payouts.copy')}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          {t('payouts.done')}
        </Button>
      </div>
    </div>
  );
}
