/* PLAN AN EVENT (docs/product.md /plan). */
import { useDocumentTitle } from '../../hooks/use-document-title';
import { PlanEventForm } from '../../features/events';
import '../../features/events/event-form.css';

const steps = [
  { title: 'Log in', text: 'Sign in to your Tukio account (or create one; it is free).' },
  { title: 'Describe it', text: 'Give your event a clear title and tell people what to expect.' },
  { title: 'Pick the date and time', text: 'Any day from today onwards, in Kenyan time.' },
  { title: 'Set the venue', text: 'Type the location and check the pin on the map preview.' },
  { title: 'Free or paid?', text: 'Paid events need a ticket price; add a capacity if seats are limited.' },
  { title: 'Add an image and post', text: 'Posting is free. Your event appears once an admin approves it.' },
];

export default function PlanRoute() {
  useDocumentTitle('Plan an Event');
  return (
    <div className="page">
      <header className="page-hero">
        <h1>Plan an Event</h1>
        <p className="lead">Share your event with people across Nairobi, Mombasa and the rest of Kenya. Posting is free; events appear once approved.</p>
      </header>
      <div className="plan-layout">
        <section className="plan-steps card" aria-labelledby="plan-steps-title">
          <h2 id="plan-steps-title">How it works</h2>
          <ol>
            {steps.map((step) => (
              <li key={step.title}>
                <strong>{step.title}</strong>
                <span>{step.text}</span>
              </li>
            ))}
          </ol>
        </section>
        <PlanEventForm />
      </div>
    </div>
  );
}
