import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { FormMessage } from '../../../components/ui/form-message';
import { serverErrorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import {
  addWebhook,
  API_KEY_SCOPES,
  apiKeysKey,
  createApiKey,
  deliveriesKey,
  listApiKeys,
  listDeliveries,
  listWebhooks,
  removeWebhook,
  revokeApiKey,
  sendAgain,
  WEBHOOK_EVENTS,
  webhooksKey,
} from '../api/integrations-api';
import { ShownOnce } from './shown-once';

/** Checkboxes for a set of names (scopes, event types), shown as they are: they are the API's words. */
function Choices({ legend, names, chosen, onChange }: { legend: string; names: readonly string[]; chosen: string[]; onChange: (next: string[]) => void }) {
  return (
    <fieldset className="integration-choices">
      <legend>{legend}</legend>
      {names.map((name) => (
        <label key={name}>
          <input type="checkbox" checked={chosen.includes(name)} onChange={(event) => onChange(event.target.checked ? [...chosen, name] : chosen.filter((entry) => entry !== name))} />{' '}
          <code className="mono">{name}</code>
        </label>
      ))}
    </fieldset>
  );
}

function ApiKeys() {
  const t = useT();
  const client = useQueryClient();
  const keys = useQuery({ queryKey: apiKeysKey, queryFn: ({ signal }) => listApiKeys(signal) });
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['events:read', 'attendees:read']);
  const [shown, setShown] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: createApiKey,
    onSuccess: (created) => {
      setShown(created.key);
      setName('');
      void client.invalidateQueries({ queryKey: apiKeysKey });
    },
  });
  const revoke = useMutation({ mutationFn: revokeApiKey, onSuccess: () => void client.invalidateQueries({ queryKey: apiKeysKey }) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, scopes });
  };
  return (
    <div className="integration-block">
      <h3>{t('payouts.apiKeysTitle')}</h3>
      <p className="muted">{t('payouts.apiKeysLead')}</p>
      {shown ? <ShownOnce label={t('payouts.newKey')} value={shown} onDone={() => setShown(null)} /> : null}
      <form className="payout-form card" onSubmit={submit}>
        <TextField label={t('payouts.keyName')} value={name} maxLength={60} required onChange={(event) => setName(event.target.value)} />
        <Choices legend={t('payouts.keyScopes')} names={API_KEY_SCOPES} chosen={scopes} onChange={setScopes} />
        {create.error ? <FormMessage tone="error">{serverErrorMessage(create.error, 'payouts.integrationFailed')}</FormMessage> : null}
        <Button type="submit" loading={create.isPending} loadingText={t('payouts.sending')}>
          {t('payouts.createKey')}
        </Button>
      </form>
      <ul className="integration-list">
        {(keys.data ?? []).map((key) => (
          <li key={key._id} className="integration-row">
            <span>
              <strong>{key.name}</strong> <code>{key.prefix}…</code>
              <br />
              <small className="muted mono">{key.scopes.join(', ')}</small>
            </span>
            {key.revokedAt ? (
              <span className="muted">{t('payouts.revokedOn', { time: formatDateTime(key.revokedAt) })}</span>
            ) : (
              <Button variant="secondary" onClick={() => revoke.mutate(key._id)} aria-label={t('payouts.revokeNamed', { name: key.name })}>
                {t('payouts.revoke')}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Webhooks() {
  const t = useT();
  const client = useQueryClient();
  const endpoints = useQuery({ queryKey: webhooksKey, queryFn: ({ signal }) => listWebhooks(signal) });
  const deliveries = useQuery({ queryKey: deliveriesKey, queryFn: ({ signal }) => listDeliveries(signal) });
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['order.paid']);
  const [shown, setShown] = useState<string | null>(null);
  const refresh = () => void client.invalidateQueries({ queryKey: webhooksKey });
  const add = useMutation({
    mutationFn: addWebhook,
    onSuccess: (created) => {
      setShown(created.secret);
      setUrl('');
      refresh();
    },
  });
  const remove = useMutation({ mutationFn: removeWebhook, onSuccess: refresh });
  const again = useMutation({ mutationFn: sendAgain, onSuccess: refresh });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ url, events });
  };
  return (
    <div className="integration-block">
      <h3>{t('payouts.webhooksTitle')}</h3>
      <p className="muted">{t('payouts.webhooksLead')}</p>
      {shown ? <ShownOnce label={t('payouts.signingSecret')} value={shown} onDone={() => setShown(null)} /> : null}
      <form className="payout-form card" onSubmit={submit}>
        <TextField label={t('payouts.webhookUrl')} type="url" inputMode="url" placeholder="https://" value={url} required onChange={(event) => setUrl(event.target.value)} />
        <Choices legend={t('payouts.webhookEvents')} names={WEBHOOK_EVENTS} chosen={events} onChange={setEvents} />
        {add.error ? <FormMessage tone="error">{serverErrorMessage(add.error, 'payouts.integrationFailed')}</FormMessage> : null}
        <Button type="submit" loading={add.isPending} loadingText={t('payouts.sending')}>
          {t('payouts.addWebhook')}
        </Button>
      </form>
      <ul className="integration-list">
        {(endpoints.data ?? []).map((endpoint) => (
          <li key={endpoint._id} className="integration-row">
            <span>
              <code className="integration-url">{endpoint.url}</code>
              <br />
              <small className="muted mono">{endpoint.events.join(', ')}</small>
            </span>
            <Button variant="secondary" onClick={() => remove.mutate(endpoint._id)}>
              {t('payouts.remove')}
            </Button>
          </li>
        ))}
      </ul>
      <h4>{t('payouts.deliveriesTitle')}</h4>
      {deliveries.data?.length ? (
        <ul className="integration-list">
          {deliveries.data.map((delivery) => (
            <li key={delivery._id} className="integration-row">
              <span>
                <code>{delivery.eventType}</code> · {t(`payouts.delivery_${delivery.status}`)} · {delivery.lastStatusCode ?? delivery.lastError ?? '—'}
                <br />
                <small className="muted">
                  {t('payouts.attempts', { count: delivery.attempts.length })} · {formatDateTime(delivery.createdAt)}
                </small>
              </span>
              <Button variant="secondary" onClick={() => again.mutate(delivery._id)}>
                {t('payouts.sendAgain')}
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('payouts.noDeliveries')}</p>
      )}
    </div>
  );
}

/** "Integrations": API keys for the organiser's own systems and webhooks that tell them what happened. */
export function IntegrationsSection() {
  const t = useT();
  return (
    <section className="payouts-section" aria-labelledby="integrations-title">
      <h2 id="integrations-title">{t('payouts.integrationsTitle')}</h2>
      <p className="muted">{t('payouts.integrationsLead')}</p>
      <ApiKeys />
      <Webhooks />
    </section>
  );
}
