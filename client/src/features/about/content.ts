/* The /about page's texts, as catalog keys (src/locales/<language>/about.json): its components translate them. */
export interface Feature {
  /** Catalog keys. */
  title: string;
  description: string;
}

/** Key features (docs/product.md). */
export const keyFeatures: readonly Feature[] = [1, 2, 3, 4, 5, 6].map((n) => ({ title: `about.feature${n}Title`, description: `about.feature${n}Text` }));

export interface FaqItem {
  /** Catalog keys. */
  question: string;
  answer: string;
}

/** The five FAQ entries (docs/product.md /about). */
export const faqItems: readonly FaqItem[] = [1, 2, 3, 4, 5].map((n) => ({ question: `about.faq${n}Question`, answer: `about.faq${n}Answer` }));
