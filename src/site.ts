import { brand } from '../contract/brand.ts';

/** The brand name, contact e-mail and phone, and social links: the one place the site reads them from. */
export const site = {
  ...brand,
  social: [
    { label: 'LinkedIn', href: 'https://www.linkedin.com/company/lumenqc' },
    { label: 'GitHub', href: 'https://github.com/lumenqc' },
  ],
} as const;
