/** Facts about the product that both the site and the server state: its name and how to reach the team. */
export const brand = {
  name: 'LumenQC',
  tagline: 'Quality control for medical images',
  email: 'contact@lumenqc.eu',
  phone: '+33 1 84 88 42 10',
} as const;
