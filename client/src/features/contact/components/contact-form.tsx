import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { EmailField, TextAreaField, TextField } from '../../../components/ui/form-field';
import { FormMessage } from '../../../components/ui/form-message';
import { getServerMessage } from '../../../lib/errors';
import { sendContactMessage, type ContactInput } from '../api/contact-api';

const EMPTY: ContactInput = { name: '', email: '', subject: '', message: '' };
const FALLBACK_ERROR = 'An error occurred while sending the message.';
const FALLBACK_SUCCESS = 'Your message has been sent. We will get back to you soon.';

export function ContactForm() {
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
      setResult({ tone: 'success', text: data?.msg || FALLBACK_SUCCESS });
      setValues(EMPTY);
    } catch (error) {
      // Keep what the user typed so they can retry.
      setResult({ tone: 'error', text: getServerMessage(error) ?? FALLBACK_ERROR });
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="card form contact-form" onSubmit={handleSubmit}>
      <h2 id="contact-form-heading">Send us a message</h2>
      <div className="form__row">
        <TextField label="Name" name="name" autoComplete="name" required value={values.name} onChange={update('name')} />
        <EmailField value={values.email} onChange={update('email')} />
      </div>
      <TextField label="Subject" name="subject" required value={values.subject} onChange={update('subject')} />
      <TextAreaField label="Message" name="message" rows={6} required value={values.message} onChange={update('message')} />
      <Button type="submit" loading={pending} loadingText="Sending…">
        Send Message
      </Button>
      {result ? <FormMessage tone={result.tone}>{result.text}</FormMessage> : null}
    </form>
  );
}
