/** Public social profiles shown in the footer and on the contact page. */
export interface SocialLink {
  name: 'Facebook' | 'X (Twitter)' | 'Instagram' | 'LinkedIn';
  href: string;
}

export const socialLinks: readonly SocialLink[] = [
  { name: 'Facebook', href: 'https://www.facebook.com/tukioevents' },
  { name: 'X (Twitter)', href: 'https://x.com/tukioevents' },
  { name: 'Instagram', href: 'https://www.instagram.com/tukioevents' },
  { name: 'LinkedIn', href: 'https://www.linkedin.com/company/tukioevents' },
];
