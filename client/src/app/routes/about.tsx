import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { FaqAccordion, FeatureList, faqItems, keyFeatures } from '../../features/about';
import '../../features/about/about.css';

export default function AboutRoute() {
  const t = useT();
  useDocumentTitle(t('about.pageTitle'));
  return (
    <div className="page about">
      <header className="page-hero">
        <p className="eyebrow">{t('about.eyebrow')}</p>
        <h1>{t('about.title')}</h1>
        <p className="lead">
          {t('about.lead')}
        </p>
      </header>

      <section className="about__section" aria-labelledby="mission-heading">
        <h2 id="mission-heading">{t('about.missionTitle')}</h2>
        <p>
          {t('about.mission')}
        </p>
      </section>

      <section className="about__section" aria-labelledby="features-heading">
        <h2 id="features-heading">{t('about.featuresTitle')}</h2>
        <FeatureList features={keyFeatures} />
      </section>

      <section className="about__section" aria-labelledby="faq-heading">
        <h2 id="faq-heading">{t('about.faqTitle')}</h2>
        <FaqAccordion items={faqItems} />
      </section>

      <section className="about__cta" aria-labelledby="cta-heading">
        <h2 id="cta-heading">{t('about.ctaTitle')}</h2>
        <p>{t('about.ctaText')}</p>
        <div className="about__cta-actions">
          <Link className="btn btn--primary" to={paths.events}>
            {t('about.exploreEvents')}
          </Link>
          <Link className="btn btn--secondary" to={paths.plan}>
            {t('about.postEvent')}
          </Link>
          <Link className="btn btn--ghost" to={paths.contact}>
            {t('about.contactUs')}
          </Link>
        </div>
      </section>
    </div>
  );
}
