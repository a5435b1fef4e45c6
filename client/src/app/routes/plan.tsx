/* PLAN AN EVENT (docs/product.md /plan). */
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { PlanEventForm } from '../../features/events';
import '../../features/events/event-form.css';

const steps = [1, 2, 3, 4, 5, 6].map((step) => ({ title: `events.planStep${step}Title`, text: `events.planStep${step}Text` }));

export default function PlanRoute() {
  const t = useT();
  useDocumentTitle(t('events.planTitle'));
  return (
    <div className="page">
      <header className="page-hero">
        <h1>{t('events.planTitle')}</h1>
        <p className="lead">{t('events.planLead')}</p>
      </header>
      <div className="plan-layout">
        <section className="plan-steps card" aria-labelledby="plan-steps-title">
          <h2 id="plan-steps-title">{t('events.howItWorks')}</h2>
          <ol>
            {steps.map((step) => (
              <li key={step.title}>
                <strong>{t(step.title)}</strong>
                <span>{t(step.text)}</span>
              </li>
            ))}
          </ol>
        </section>
        <PlanEventForm />
      </div>
    </div>
  );
}
