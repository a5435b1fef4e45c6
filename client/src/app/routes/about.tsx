import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { FaqAccordion, FeatureList, faqItems, keyFeatures } from '../../features/about';
import '../../features/about/about.css';

export default function AboutRoute() {
  useDocumentTitle('About');
  return (
    <div className="page about">
      <header className="page-hero">
        <p className="eyebrow">About Tukio</p>
        <h1>Bringing people together at events across Kenya</h1>
        <p className="lead">
          Tukio (Swahili for “event”) helps you find, plan and attend events, from concerts and tech
          meet-ups in Nairobi to beach festivals in Mombasa.
        </p>
      </header>

      <section className="about__section" aria-labelledby="mission-heading">
        <h2 id="mission-heading">Our mission</h2>
        <p>
          Our mission is to make every event in Kenya easy to discover and easy to attend. Whether you
          are in Mombasa, Nairobi or anywhere in between, Tukio connects organisers with the people who
          want to be there: free listings for organisers, tickets paid securely with M-Pesa, and a
          community space to talk before and after the day.
        </p>
      </section>

      <section className="about__section" aria-labelledby="features-heading">
        <h2 id="features-heading">Key features</h2>
        <FeatureList features={keyFeatures} />
      </section>

      <section className="about__section" aria-labelledby="faq-heading">
        <h2 id="faq-heading">Frequently asked questions</h2>
        <FaqAccordion items={faqItems} />
      </section>

      <section className="about__cta" aria-labelledby="cta-heading">
        <h2 id="cta-heading">Ready to get started?</h2>
        <p>Find your next experience or share your own with the community.</p>
        <div className="about__cta-actions">
          <Link className="btn btn--primary" to={paths.events}>
            Explore events
          </Link>
          <Link className="btn btn--secondary" to={paths.plan}>
            Post an event
          </Link>
          <Link className="btn btn--ghost" to={paths.contact}>
            Contact us
          </Link>
        </div>
      </section>
    </div>
  );
}
