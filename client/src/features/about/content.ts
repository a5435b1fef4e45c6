export interface Feature {
  title: string;
  description: string;
}

/** Key features (docs/product.md). */
export const keyFeatures: readonly Feature[] = [
  {
    title: 'Discover events',
    description:
      'Browse trending and upcoming concerts, conferences, festivals and meet-ups, and search by name, place or topic.',
  },
  {
    title: 'Plan and manage events',
    description:
      'Post your own event for free, then edit or remove it any time. Events appear once our team approves them.',
  },
  {
    title: 'Tickets on your profile',
    description:
      'Every ticket you get is kept on your profile with a QR code, ready to show at the entrance.',
  },
  {
    title: 'Secure payments',
    description:
      'Pay for tickets with M-Pesa: confirm a prompt on your phone and your ticket is issued once the payment goes through.',
  },
  {
    title: 'Forums for registered events',
    description:
      'Join the conversation with other attendees in the forum of every event you have registered for.',
  },
  {
    title: 'Ratings and reviews',
    description: 'Rate events you attended from 1 to 5 and read honest reviews before you go.',
  },
];

export interface FaqItem {
  question: string;
  answer: string;
}

/** The five FAQ entries (docs/product.md /about). */
export const faqItems: readonly FaqItem[] = [
  {
    question: 'What is Tukio?',
    answer:
      'Tukio is an events platform for Kenya. You can discover what is happening in Nairobi, Mombasa and beyond, get tickets, and talk with other attendees in event forums and one-to-one chat.',
  },
  {
    question: 'How do I create an event?',
    answer:
      'Log in, open Plan Event, fill in the title, description, date, time and location (plus a ticket price for paid events) and submit. Posting is free, and your event appears once an admin approves it.',
  },
  {
    question: 'How do I access my tickets?',
    answer:
      'Open your Profile. The My Tickets section lists every event you registered for, each with a QR code you can show at the venue. You can search your tickets by event title.',
  },
  {
    question: 'How do I join an event forum?',
    answer:
      'Register for the event first. Once you are registered and logged in, open the event and follow View Available Forums to read threads, start a discussion or reply.',
  },
  {
    question: 'How do payments work?',
    answer:
      'Paid tickets are paid with M-Pesa. Enter your phone number, approve the payment prompt sent to your phone, then confirm. Your ticket is registered once the payment succeeds, and the transaction appears in your profile history.',
  },
];
