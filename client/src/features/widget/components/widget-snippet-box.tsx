/*
 * "Sell on your website" on the organiser's event page: the <script> snippet that embeds this event's ticket
 * widget (docs/decisions/widget.md), in the language the organiser picks (the visitor's browser, English or
 * Kiswahili), with a Copy button.
 */
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import '../widget.css';

type SnippetLanguage = 'auto' | 'en' | 'sw';

/** The snippet for `eventId` on the Tukio at `origin`; data-lang only when a language is fixed. */
export function widgetSnippet(origin: string, eventId: string, language: SnippetLanguage): string {
  const lang = language === 'auto' ? '' : ` data-lang="${language}"`;
  return `<script src="${origin}/widget.js" data-event="${eventId}"${lang}></script>`;
}

export function WidgetSnippetBox({ eventId }: { eventId: string }) {
  const t = useT();
  const id = useId();
  const [language, setLanguage] = useState<SnippetLanguage>('auto');
  const [copied, setCopied] = useState<boolean | null>(null);
  const snippet = widgetSnippet(window.location.origin, eventId, language);
  const copy = () => {
    if (!navigator.clipboard) return setCopied(false);
    navigator.clipboard.writeText(snippet).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <section className="event-manage widget-snippet" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="event-manage__title">
        {t('widget.sellOnWebsite')}
      </h2>
      <p>{t('widget.snippetHelp')}</p>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-language`}>
          {t('widget.widgetLanguage')}
        </label>
        <select
          id={`${id}-language`}
          className="field__control"
          value={language}
          onChange={(change) => {
            setLanguage(change.target.value as SnippetLanguage);
            setCopied(null);
          }}
        >
          <option value="auto">{t('widget.languageAuto')}</option>
          <option value="en" lang="en">English</option>
          <option value="sw" lang="sw">Kiswahili</option>
        </select>
      </div>
      <code className="widget-snippet__code mono" id={`${id}-snippet`} data-testid="widget-snippet">
        {snippet}
      </code>
      <div className="button-row">
        <Button variant="secondary" onClick={copy} aria-describedby={`${id}-snippet`}>
          {t('widget.copySnippet')}
        </Button>
      </div>
      <p className="field__hint" role="status">
        {copied === true ? t('widget.copied') : copied === false ? t('widget.copyFailed') : ''}
      </p>
    </section>
  );
}
