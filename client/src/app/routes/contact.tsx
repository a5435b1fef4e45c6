import { SocialLinks } from '../../components/social-links';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { ContactForm } from '../../features/contact';
import '../../features/contact/contact.css';

export default function ContactRoute() {
  useDocumentTitle('Contact');
  return (
    <div className="page contact">
      <header className="page-hero">
        <p className="eyebrow">We would love to hear from you</p>
        <h1>Contact Us</h1>
        <p className="lead">
          Questions about an event, a ticket or posting your own event? Send us a message and the
          Tukio team will reply by email.
        </p>
      </header>
      <div className="contact__layout">
        <ContactForm />
        <aside className="contact__aside card" aria-labelledby="follow-heading">
          <h2 id="follow-heading">Follow us</h2>
          <p>Stay up to date with new events in Nairobi, Mombasa and across Kenya.</p>
          <SocialLinks label="Follow Tukio on social media" showNames className="contact__social" />
        </aside>
      </div>
    </div>
  );
}
