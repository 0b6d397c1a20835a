/** The partners carousel turns every 1,800 ms (specification section 9). */
export const CAROUSEL_INTERVAL_MS = 1_800;

export type SectionId = 'about' | 'features' | 'signup' | 'testimonials' | 'contact';

/**
 * Smooth scroll to a section (`jump`: at once, as on arriving by a link); the sticky bar's height is
 * kept free by `scroll-margin-top`.
 */
export function scrollToSection(id: SectionId | 'top', { jump = false } = {}) {
  const target = document.getElementById(id === 'top' ? 'landing-top' : id);
  const reduce =
    jump ||
    (typeof window.matchMedia === 'function' &&
      window.matchMedia('(prefers-reduced-motion: reduce)').matches);
  target?.scrollIntoView?.({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
}
