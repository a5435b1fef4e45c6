import { useId, useState } from 'react';
import { useT } from '../../../lib/i18n';
import type { FaqItem } from '../content';

/** One item open at a time; activating the open item closes it. */
export function FaqAccordion({ items }: { items: readonly FaqItem[] }) {
  const t = useT();
  const [openIndex, setOpenIndex] = useState<number | null>(null);
  const baseId = useId();

  return (
    <div className="faq">
      {items.map((item, index) => {
        const isOpen = openIndex === index;
        const buttonId = `${baseId}-q${index}`;
        const panelId = `${baseId}-a${index}`;
        return (
          <div className={`faq__item${isOpen ? ' faq__item--open' : ''}`} key={item.question}>
            <h3 className="faq__heading">
              <button
                type="button"
                id={buttonId}
                className="faq__trigger"
                aria-expanded={isOpen}
                aria-controls={panelId}
                onClick={() => setOpenIndex(isOpen ? null : index)}
              >
                <span>{t(item.question)}</span>
                <span className="faq__icon" aria-hidden="true" />
              </button>
            </h3>
            <div id={panelId} role="region" aria-labelledby={buttonId} className="faq__panel" hidden={!isOpen}>
              <p>{t(item.answer)}</p>
            </div>
          </div>
        );
      })}
    </div>
  );
}
