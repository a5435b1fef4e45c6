import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { EmailField, TextAreaField, TextField } from '../../../components/ui/form-field';
import { FormMessage } from '../../../components/ui/form-message';
import { getServerMessage } from '../../../lib/errors';
import { sendContactMessage, type ContactInput } from '../api/contact-api';
import { useT } from '../../../lib/i18n';

const EMPTY: ContactInput = { name: '', email: '', subject: '', message: '' };
const FALLBACK_ERROR = 'contact.sendFailed';
const FALLBACK_SUCCESS = 'contact.sent';

export function ContactForm() {
  const t = useT();
  const [values, setValues] = useState<ContactInput>(EMPTY);
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const update =
    (field: keyof ContactInput) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setValues((current) => ({ ...current, [field]: event.target.value }));

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setResult(null);
    try {
      const data = await sendContactMessage(values);
      setResult({ tone: 'success', text: data?.msg || t(FALLBACK_SUCCESS) });
      setValues(EMPTY);
    } catch (error) {
      // Keep what the user typed so they can retry.
      setResult({ tone: 'error', text: getServerMessage(error) ?? t(FALLBACK_ERROR) });
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="card form contact-form" onSubmit={handleSubmit}>
      <h2 id="contact-form-heading">{t('contact.formTitle')}</h2>
      <div className="form__row">
        <TextField label={t('contact.name')} name="name" autoComplete="name" required value={values.name} onChange={update('name')} />
        <EmailField value={values.email} onChange={update('email')} />
      </div>
      <TextField label={t('contact.subject')} name="subject" required value={values.subject} onChange={update('subject')} />
      <TextAreaField label={t('contact.message')} name="message" rows={6} required value={values.message} onChange={update('message')} />
      <Button type="submit" loading={pending} loadingText={t('contact.sending')}>
        {t('contact.send')}
      </Button>
      {result ? <FormMessage tone={result.tone}>{result.text}</FormMessage> : null}
    </form>
  );
}
