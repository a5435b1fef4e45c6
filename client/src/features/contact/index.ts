/* Contact feature: the /contact form. Stylesheet: ./contact.css. */
export { ContactForm } from './components/contact-form';
