/* About feature: the /about page's parts (docs/product.md). Stylesheet: ./about.css. */
export { FaqAccordion } from './components/faq-accordion';
export { FeatureList } from './components/feature-list';
export { faqItems, keyFeatures } from './content';
export type { FaqItem, Feature } from './content';
